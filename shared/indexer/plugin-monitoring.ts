/**
 * Response shapes of the plugin-monitoring API (/api/v1/admin/plugins…, docs/api.md#plugin-monitoring), computed from
 * the indexer's plugin snapshots. Pure, so the plugin-monitor service stays a thin adapter.
 */
import type { PluginSnapshot } from "./plugin-pipeline";
import type { PluginKind } from "./plugin-types";

export const LIST_KINDS = {
  filters: "filter",
  "pre-actions": "pre-action",
  "post-actions": "post-action",
  "event-handlers": "event-handler",
} as const;
export type ListPath = keyof typeof LIST_KINDS;

const TYPE_NAME: Record<PluginKind, string> = {
  filter: "FILTER",
  "pre-action": "PRE_ACTION",
  "post-action": "POST_ACTION",
  "event-handler": "EVENT_HANDLER",
  scheduler: "SCHEDULER",
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function typeStats(plugins: PluginSnapshot[], withItems: boolean) {
  const totalItems = plugins.reduce((n, p) => n + p.metrics.itemsProcessed, 0);
  return {
    count: plugins.length,
    totalExecutions: plugins.reduce((n, p) => n + p.metrics.executionCount, 0),
    totalErrors: plugins.reduce((n, p) => n + p.metrics.errorCount, 0),
    ...(withItems && totalItems > 0 ? { totalItemsProcessed: totalItems } : {}),
  };
}

export function pluginOverview(snapshots: PluginSnapshot[]) {
  const of = (k: PluginKind) => snapshots.filter((s) => s.kind === k);
  const active = snapshots.filter((s) => s.kind !== "scheduler" || s.schedule?.status !== "CANCELLED").length;
  return {
    totalPlugins: snapshots.length,
    activePlugins: active,
    filters: typeStats(of("filter"), true),
    preActions: typeStats(of("pre-action"), true),
    postActions: typeStats(of("post-action"), true),
    eventHandlers: typeStats(of("event-handler"), true),
    schedulers: typeStats(of("scheduler"), false),
    initPlugins: { count: 0, totalExecutions: 0, totalErrors: 0 },
  };
}

export function pluginList(snapshots: PluginSnapshot[], path: ListPath) {
  const kind = LIST_KINDS[path];
  const plugins = snapshots.filter((s) => s.kind === kind);
  return {
    pluginType: TYPE_NAME[kind],
    totalPlugins: plugins.length,
    totalExecutions: plugins.reduce((n, p) => n + p.metrics.executionCount, 0),
    totalErrors: plugins.reduce((n, p) => n + p.metrics.errorCount, 0),
    plugins: plugins.map((p) => ({
      name: p.name,
      language: p.language,
      executionCount: p.metrics.executionCount,
      successCount: p.metrics.successCount,
      errorCount: p.metrics.errorCount,
      lastExecutionTime: iso(p.metrics.lastExecutionTime),
      lastDuration: p.metrics.lastDuration,
      itemsProcessed: p.metrics.itemsProcessed === 0 ? null : p.metrics.itemsProcessed,
    })),
  };
}

/** Detail of one plugin of the given list type; undefined when no plugin of that type has that name. */
export function pluginDetail(snapshots: PluginSnapshot[], path: ListPath, name: string) {
  const p = snapshots.find((s) => s.kind === LIST_KINDS[path] && s.name === name);
  if (!p) return undefined;
  const m = p.metrics;
  return {
    name: p.name,
    type: TYPE_NAME[p.kind],
    language: p.language,
    executionMetrics: {
      totalExecutions: m.executionCount,
      successfulExecutions: m.successCount,
      failedExecutions: m.errorCount,
      successRate: m.executionCount === 0 ? 0 : m.successCount / m.executionCount,
      lastExecutionTime: iso(m.lastExecutionTime),
    },
    itemMetrics: { totalItemsProcessed: m.itemsProcessed },
    durationMetrics: {
      lastDuration: m.lastDuration,
      minDuration: m.minDuration,
      maxDuration: m.maxDuration,
      averageDuration: m.executionCount === 0 ? null : m.totalDuration / m.executionCount,
    },
  };
}

export function schedulerList(snapshots: PluginSnapshot[]) {
  const schedulers = snapshots.filter((s) => s.kind === "scheduler");
  const status = (s: PluginSnapshot) => s.schedule?.status ?? "SCHEDULED";
  return {
    totalSchedulers: schedulers.length,
    runningSchedulers: schedulers.filter((s) => ["RUNNING", "SCHEDULED", "COMPLETED"].includes(status(s))).length,
    failedSchedulers: schedulers.filter((s) => status(s) === "FAILED").length,
    schedulers: schedulers.map((s) => ({
      name: s.name,
      status: status(s),
      scheduleType: "INTERVAL",
      scheduleValue: String(s.schedule?.intervalMs ?? 0),
      totalExecutions: s.metrics.executionCount,
      lastExecutionTime: s.metrics.lastExecutionTime,
    })),
  };
}

export function schedulerStatus(snapshots: PluginSnapshot[], name: string) {
  const s = snapshots.find((x) => x.kind === "scheduler" && x.name === name);
  if (!s) return undefined;
  const m = s.metrics;
  return {
    name: s.name,
    status: s.schedule?.status ?? "SCHEDULED",
    scheduleType: "INTERVAL",
    scheduleValue: String(s.schedule?.intervalMs ?? 0),
    statistics: {
      totalExecutions: m.executionCount,
      successfulExecutions: m.successCount,
      failedExecutions: m.errorCount,
      lastExecutionTime: m.lastExecutionTime,
      lastExecutionDuration: m.lastDuration,
      averageExecutionDuration: m.executionCount === 0 ? null : m.totalDuration / m.executionCount,
      lastError: m.lastError,
    },
  };
}
