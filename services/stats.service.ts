/** stats: `/statistic/...`, kept current from the indexer's facts (no recompute lag). */
import type { ServiceSchema } from "moleculer";
import { projectionLifecycle } from "../shared/mesh/fact-follower";
import { defineRouteActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { StatsProjection } from "../shared/stats/stats-projection";

export default function createStatsService(deps: ServiceDeps): ServiceSchema {
  const projection = projectionLifecycle("stats", deps, (store) => StatsProjection.open(store));
  const ready = () => projection.ready();

  return {
    name: "stats",
    mixins: [projection.mixin],
    actions: {
      ...defineRouteActions("stats", {
        txFees: { handler: () => ready().txFees() },
        certificatesByCategory: { handler: () => ready().byCategory() },
      }),
    },
  };
}
