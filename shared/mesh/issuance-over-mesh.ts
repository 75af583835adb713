/**
 * The issuance machinery of a service that builds transactions (tx-builder, the list extensions, connected goods):
 * a chain connection of its own, the in-flight registry on the shared store, the indexer's confirmed view asked
 * over the broker, and a readiness check that the chain and the indexer both answer.
 */
import type { ServiceBroker } from "moleculer";
import { createChainClient, type ChainClient } from "../chain";
import { networkIdOfNetwork } from "../config/network";
import { InflightRegistry } from "../inflight";
import { createIssuanceEnv, type IssuanceEnv, type ProtocolSource } from "../issuance";
import type { BootstrapInfo, LibraryEntry, PointerInfo, StateInfo } from "../records/protocol-records";
import { addReadinessCheck } from "./health-middleware";
import type { ServiceDeps } from "./service-deps";

/** The indexer's states, bootstraps and protocol outputs, asked over the broker. */
function indexerProtocolSource(broker: ServiceBroker): ProtocolSource {
  return {
    states: (filter) => broker.call<StateInfo[], typeof filter>("indexer.states", filter),
    bootstraps: (filter) => broker.call<BootstrapInfo[], typeof filter>("indexer.bootstraps", filter),
    protocol: () => broker.call<{ pointer: PointerInfo | null; library: LibraryEntry[] }>("indexer.protocol"),
  };
}

/**
 * Opens a building service's issuance machinery (`serviceName` names its readiness check). The chain connection is
 * closed again if the rest fails to open; otherwise the caller closes `client` when the service stops.
 */
export async function openIssuanceOverMesh(
  broker: ServiceBroker,
  deps: ServiceDeps,
  serviceName: string,
): Promise<{ client: ChainClient; registry: InflightRegistry; issuance: IssuanceEnv }> {
  const store = await deps.resources.store();
  const chain = await deps.resources.chain();
  const client = createChainClient({ url: chain.ogmiosUrl });
  try {
    const registry = await InflightRegistry.open(store, deps.now);
    addReadinessCheck(broker, `${serviceName} reaches the chain and the indexer`, async () => {
      await Promise.all([client.networkTip(), broker.call("indexer.status")]);
      return true;
    });
    const issuance = await createIssuanceEnv({
      chain: client,
      registry,
      protocol: deps.config.protocol,
      networkId: networkIdOfNetwork(deps.config.network),
      now: deps.now,
      source: indexerProtocolSource(broker),
    });
    return { client, registry, issuance };
  } catch (err) {
    await client.close();
    throw err;
  }
}
