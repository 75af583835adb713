/**
 * tokenizable: the tokenizable-certificate extension (docs/api.md#tokenizable-certificates). Builds Init, Insert
 * and Redeem transactions (shared/extensions/tokenizable over the issuance machinery, the shared in-flight registry and the
 * generic sorted-list module) and answers the status of a node from the indexer's record of the lists
 * (`indexer.sortedList`). The actions, events and start-up every list extension shares come from
 * shared/mesh/list-extension-service.ts; this file adds the CIP-68 metadata script's route.
 */
import type { ServiceSchema } from "moleculer";
import { networkIdOfNetwork } from "../shared/config/network";
import { listExtensionService } from "../shared/mesh/list-extension-service";
import { defineRouteActions, internalActions } from "../shared/gateway/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import {
  handleTokenizableBuild,
  TOKENIZABLE,
  TokenizableScripts,
  tokenizableStatus,
  type TokenizableEnv,
} from "../shared/extensions/tokenizable";
import type { CertificateRecord } from "../shared/verifier/certificate-projection";

export default function createTokenizableService(deps: ServiceDeps): ServiceSchema {
  const networkId = networkIdOfNetwork(deps.config.network);
  const scripts = new TokenizableScripts(networkId);
  const ext = listExtensionService<TokenizableEnv>(deps, {
    name: TOKENIZABLE.name,
    build: handleTokenizableBuild,
    status: (env, query) => tokenizableStatus(env.lists, networkId, query),
    env: ({ issuance, lists, broker }) => ({
      issuance,
      lists,
      scripts,
      async certificateMetadata(key, txHash) {
        // The certificate the Insert anchored (the verifier's record); none known yet: no extra fields.
        const records = await broker
          .call<CertificateRecord[], { hash: string }>("verifier.byHash", { hash: key })
          .catch(() => [] as CertificateRecord[]);
        const record = records.find((r) => r.transactionHash === txHash) ?? records[0];
        return record?.metadata ?? "";
      },
    }),
  });
  return {
    ...ext.schema,
    actions: {
      ...defineRouteActions("tokenizable", {
        ...ext.routeActions,
        metadataScript: {
          handler: () => ({ scriptHash: scripts.metadata.hash, address: scripts.metadata.address }),
        },
      }),
      ...internalActions(ext.internalActions),
    },
  };
}
