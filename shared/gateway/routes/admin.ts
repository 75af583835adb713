/** The admin API (`auth: "admin"`): the indexer's plugins and schedulers, read-only. */
import type { RouteSpec } from "./route-spec";

const pluginListRoutes = (segment: string, label: string) =>
  [
    {
      method: "GET",
      path: `/admin/plugins/${segment}`,
      action: "plugin-monitor.list",
      tag: "plugins",
      summary: `List the indexer's ${label} plugins`,
      response: "PluginListResponse",
      responseSchema: "PluginList",
      fixedParams: { type: segment },
      auth: "admin",
      implemented: true,
    },
    {
      method: "GET",
      path: `/admin/plugins/${segment}/{name}`,
      action: "plugin-monitor.detail",
      tag: "plugins",
      summary: `Details and execution metrics of one ${label} plugin`,
      response: "PluginDetailResponse",
      responseSchema: "PluginDetail",
      errors: ["NOT_FOUND"],
      statuses: { 404: "no plugin of that type and name" },
      fixedParams: { type: segment },
      auth: "admin",
      implemented: true,
    },
  ] as const;

export const ADMIN_ROUTES = [
  {
    method: "GET",
    path: "/admin/plugins",
    action: "plugin-monitor.overview",
    tag: "plugins",
    summary: "All plugin types with summary statistics",
    response: "PluginOverviewResponse",
    auth: "admin",
    responseSchema: "PluginOverview",
    implemented: true,
  },
  {
    method: "GET",
    path: "/admin/plugins/schedulers",
    action: "plugin-monitor.schedulers",
    tag: "plugins",
    summary: "The indexer's schedulers",
    response: "SchedulerListResponse",
    auth: "admin",
    responseSchema: "SchedulerList",
    implemented: true,
  },
  {
    method: "GET",
    path: "/admin/plugins/schedulers/{name}",
    action: "plugin-monitor.scheduler",
    tag: "plugins",
    summary: "Status of one scheduler",
    response: "SchedulerStatusResponse",
    statuses: { 404: "no such scheduler" },
    auth: "admin",
    responseSchema: "SchedulerStatus",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  ...pluginListRoutes("pre-actions", "pre-action"),
  ...pluginListRoutes("post-actions", "post-action"),
  ...pluginListRoutes("filters", "filter"),
  ...pluginListRoutes("event-handlers", "event-handler"),
] as const satisfies readonly RouteSpec[];
