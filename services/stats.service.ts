/** stats: `/statistic/...`, kept current from the indexer's facts (no recompute lag). */
import type { ServiceSchema } from "moleculer";
import { Errors } from "moleculer";
import { chainNotificationHandlers, followFacts, type FactFollower } from "../shared/mesh/fact-follower";
import { defineRouteActions, internalActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { StatsProjection } from "../shared/stats/stats-projection";

export default function createStatsService(deps: ServiceDeps): ServiceSchema {
  let projection: StatsProjection | undefined;
  let follower: FactFollower | undefined;
  const ready = (): StatsProjection => {
    if (!projection) throw new Errors.MoleculerRetryableError("stats is starting", 503, "SERVICE_STARTING");
    return projection;
  };

  return {
    name: "stats",
    actions: {
      ...defineRouteActions("stats", {
        txFees: { handler: () => ready().txFees() },
        certificatesByCategory: { handler: () => ready().byCategory() },
      }),
      ...internalActions({ sync: { handler: () => follower?.catchUp() ?? 0 } }),
    },
    events: chainNotificationHandlers(() => follower),
    async started() {
      const store = await deps.resources.store();
      projection = await StatsProjection.open(store);
      follower = followFacts(this.broker, store, projection);
      follower.poke();
    },
    stopped() {
      follower?.stop();
    },
  };
}
