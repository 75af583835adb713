/**
 * The usual world of an integration test: a fresh devnet with the protocol deployed by the fixture (init,
 * library, stake registration, and by default the `default` bootstrap), an Ogmios server on it, an in-memory
 * store, and the chosen services in one broker configured for that deployment.
 */
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import type { ServiceName } from "../../shared/mesh/service-names";
import { createStore, type Store } from "../../shared/store";
import { http, type HttpResult } from "../../fixtures/mesh/helpers";
import { defaultBootstrap, ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";

export interface DeployedMesh {
  f: ProtocolFixture;
  server: DevnetServer;
  store: Store;
  mesh: RunningMesh;
  /** GET `<api><path>` */
  get(path: string): Promise<HttpResult>;
  close(): Promise<void>;
}

/** The environment that points services at the fixture's deployment. */
export function deploymentEnv(f: ProtocolFixture): Record<string, string> {
  return {
    PROXY_TX_HASH: f.oneShot.transaction.id,
    PROXY_OUTPUT_INDEX: String(f.oneShot.index),
    SERVICE_KEY_HASH: f.actors.service.paymentKeyHash,
    SERVICE_ADDRESS: f.actors.service.address,
  };
}

export async function startDeployedMesh(opts: {
  services: readonly ServiceName[];
  env?: Record<string, string>;
  /** mint the `default` bootstrap datum (default true) */
  bootstrap?: boolean;
  /** the services' clock (default: the devnet's) */
  now?: (f: ProtocolFixture) => number;
}): Promise<DeployedMesh> {
  const f = await ProtocolFixture.create("shipped");
  if (opts.bootstrap !== false) await f.mintBootstrap(defaultBootstrap(f.actors));
  const server = await startDevnetServer(f.chain.devnet, { port: 0 });
  const store = await createStore({ inMemory: true });
  const mesh = await startMesh({
    services: opts.services,
    store,
    chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
    env: { ...deploymentEnv(f), ...opts.env },
    now: opts.now ? () => opts.now!(f) : () => f.chain.now(),
  });
  return {
    f,
    server,
    store,
    mesh,
    get: (path) => http(`${mesh.api}${path}`),
    async close() {
      await mesh.stop();
      await store.close();
      await server.close();
      await f.chain.devnet.close();
    },
  };
}
