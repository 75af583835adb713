/**
 * fractionized: the fractionized-certificate extension (docs/api.md#fractionized-certificates). Builds Init,
 * Insert and Claim transactions (shared/extensions/fractionized over the issuance machinery and the shared in-flight
 * registry, so it scales to several replicas) and answers the status of a node from the indexer's record of
 * the lists (`indexer.sortedList`). The actions, events and start-up every list extension shares come from
 * shared/mesh/list-extension-service.ts.
 */
import type { ServiceSchema } from "moleculer";
import { networkIdOfNetwork } from "../shared/config/network";
import {
  FRACTIONIZED,
  FractionizedScripts,
  fractionizedStatus,
  handleFractionizedBuild,
  type FractionizedEnv,
} from "../shared/extensions/fractionized";
import { listExtensionService } from "../shared/mesh/list-extension-service";
import { defineRouteActions, internalActions } from "../shared/gateway/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";

export default function createFractionizedService(deps: ServiceDeps): ServiceSchema {
  const scripts = new FractionizedScripts(networkIdOfNetwork(deps.config.network));
  const ext = listExtensionService<FractionizedEnv>(deps, {
    name: FRACTIONIZED.name,
    build: handleFractionizedBuild,
    status: (env, query) => fractionizedStatus(env.lists, query),
    env: ({ issuance, lists }) => ({ issuance, lists, scripts }),
  });
  return {
    ...ext.schema,
    actions: { ...defineRouteActions("fractionized", ext.routeActions), ...internalActions(ext.internalActions) },
  };
}
