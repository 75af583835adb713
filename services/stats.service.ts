/** stats: `/statistic/...`, kept current from the indexer's facts (no recompute lag). */
import type { ServiceSchema } from "moleculer";
import { projectionService } from "../shared/mesh/fact-follower";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { StatsProjection } from "../shared/stats/stats-projection";

export default function createStatsService(deps: ServiceDeps): ServiceSchema {
  return projectionService("stats", deps, {
    open: (store) => StatsProjection.open(store),
    routes: (ready) => ({
      txFees: { handler: () => ready().txFees() },
      certificatesByCategory: { handler: () => ready().byCategory() },
    }),
  });
}
