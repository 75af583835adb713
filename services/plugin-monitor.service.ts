/** plugin-monitor: the read-only `/admin/plugins…` API over the indexer's real plugins and schedulers. */
import { notFound } from "../shared/domain/errors";
import type { Context, ServiceSchema } from "moleculer";
import type { PluginSnapshot } from "../shared/indexer/plugin-pipeline";
import {
  LIST_KINDS,
  pluginDetail,
  pluginList,
  pluginOverview,
  schedulerList,
  schedulerStatus,
  type ListPath,
} from "../shared/indexer/plugin-monitoring";
import { defineRouteActions } from "../shared/gateway/route-actions";

const TYPE = { type: "enum", values: Object.keys(LIST_KINDS) } as const;
const NAME = { type: "string", min: 1, max: 200 } as const;

export default function createPluginMonitorService(): ServiceSchema {
  const snapshot = (ctx: Context) => ctx.call<PluginSnapshot[]>("indexer.pluginSnapshot");
  const orNotFound = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw notFound(what);
    return value;
  };

  return {
    name: "plugin-monitor",
    actions: defineRouteActions("plugin-monitor", {
      overview: { handler: async (ctx: Context) => pluginOverview(await snapshot(ctx)) },
      list: {
        params: { type: TYPE },
        handler: async (ctx: Context<{ type: ListPath }>) => pluginList(await snapshot(ctx), ctx.params.type),
      },
      detail: {
        params: { type: TYPE, name: NAME },
        handler: async (ctx: Context<{ type: ListPath; name: string }>) =>
          orNotFound(
            pluginDetail(await snapshot(ctx), ctx.params.type, ctx.params.name),
            `no ${ctx.params.type.replace(/s$/, "")} plugin named ${ctx.params.name}`,
          ),
      },
      schedulers: { handler: async (ctx: Context) => schedulerList(await snapshot(ctx)) },
      scheduler: {
        params: { name: NAME },
        handler: async (ctx: Context<{ name: string }>) =>
          orNotFound(schedulerStatus(await snapshot(ctx), ctx.params.name), `no scheduler named ${ctx.params.name}`),
      },
    }),
  };
}
