/**
 * Runs a set of real services in one broker, on free ports, against a given chain endpoint and store: the
 * embedded mode as `npm start` runs it, with the test in control of the devnet and the clock.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { ServiceBroker } from "moleculer";
import { createBrokerOptions } from "../../moleculer.config";
import type { AppConfig } from "../../shared/mesh/config";
import { httpUrl, listenAddresses } from "../../shared/mesh/listen-addresses";
import type { ChainEndpoint } from "../../shared/mesh/resources";
import type { ServiceDeps } from "../../shared/mesh/service-deps";
import { loadServices } from "../../shared/mesh/service-loader";
import type { ServiceName } from "../../shared/mesh/service-names";
import type { Store } from "../../shared/store";
import { testConfig } from "../mesh/helpers";

export interface RunningMesh {
  broker: ServiceBroker;
  config: AppConfig;
  /** `http://127.0.0.1:<port>/api/v1`, when the gateway runs */
  api: string;
  stop(): Promise<void>;
}

export async function startMesh(opts: {
  services: readonly ServiceName[];
  store: Store;
  chain: ChainEndpoint;
  env?: Record<string, string>;
  now?: () => number;
}): Promise<RunningMesh> {
  const config = testConfig({ NAMESPACE: `it-${randomUUID()}`, ...opts.env });
  const now = opts.now ?? Date.now;
  const deps: ServiceDeps = { config, now, resources: { store: async () => opts.store, chain: async () => opts.chain } };
  const broker = new ServiceBroker(createBrokerOptions(config, { now, overrides: { skipProcessEventRegistration: true } }));
  for (const schema of loadServices(opts.services, deps, join(__dirname, "..", "..", "services")).schemas) broker.createService(schema);
  await broker.start();
  const api = listenAddresses(broker).api;
  return { broker, config, api: api === null ? "" : httpUrl(api, "/api/v1"), stop: () => broker.stop() };
}
