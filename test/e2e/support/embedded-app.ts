/**
 * The embedded app as `npm start` runs it (scripts/start.ts), in-process so the test can reach the devnet and
 * the broker: fresh DATA_DIR → devnet bootstrap preparation (service wallet, genesis, deployment) → every built
 * service in one broker → init/deploy/default bootstrap through the services. Tests may add genesis funds.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { createBrokerOptions } from "../../../moleculer.config";
import { deploymentPortsFor, prepareDevnetFirstStart } from "../../../shared/first-start/devnet-first-start";
import type { GenesisFundSpec } from "../../../shared/first-start/devnet-deployment";
import { defaultBootstrapTerms, deployProtocol, type DeploymentStepReport } from "../../../shared/first-start/protocol-deployment";
import type { Devnet } from "../../../shared/devnet";
import type { AppConfig } from "../../../shared/config/config";
import { httpUrl, listenAddresses } from "../../../shared/mesh/listen-addresses";
import { createMeshResources } from "../../../shared/mesh/resources";
import type { ServiceDeps } from "../../../shared/mesh/service-deps";
import { loadServices } from "../../../shared/mesh/service-loader";
import type { Wallet } from "../../../shared/wallet";
import { testConfig } from "../../../fixtures/mesh/helpers";

const SERVICES_DIR = join(__dirname, "..", "..", "..", "services");

/** The tx-builder is another issue's work; the flows that need it say so when it is missing. */
export function txBuilderBuilt(): boolean {
  return existsSync(join(SERVICES_DIR, "tx-builder.service.ts"));
}

export interface EmbeddedApp {
  config: AppConfig;
  broker: ServiceBroker;
  api: string;
  devnet: Devnet;
  ogmiosUrl: string;
  serviceWallet: Wallet;
  bootstrap: DeploymentStepReport[];
  dataDir: string;
  /** runs the bootstrap again (idempotence) */
  rerunBootstrap(): Promise<DeploymentStepReport[]>;
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

export async function startEmbeddedApp(
  opts: { extraGenesis?: GenesisFundSpec[]; dataDir?: string; blockTimeMs?: number; env?: Record<string, string> } = {},
): Promise<EmbeddedApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "e2e-app-"));
  const prep = prepareDevnetFirstStart(
    testConfig({ DATA_DIR: dataDir, NAMESPACE: `e2e-${randomUUID()}`, ...opts.env }),
    opts.extraGenesis ?? [],
  );
  if (prep.kind !== "ready") throw new Error(`devnet bootstrap not applicable: ${prep.reason}`);
  const config = prep.config;
  const mesh = createMeshResources(config, {
    ...(prep.genesis ? { devnetGenesis: prep.genesis } : {}),
    devnetBlockTimeMs: opts.blockTimeMs ?? 200,
  });
  const deps: ServiceDeps = { config, now: Date.now, resources: mesh.resources };
  const broker = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }));
  for (const schema of loadServices(null, deps, SERVICES_DIR).schemas) broker.createService(schema);
  await broker.start();
  const chain = await mesh.resources.chain();
  const wallet = prep.service.wallet;
  const run = async () => {
    const ports = deploymentPortsFor((action, params) => broker.call(action, params), chain.ogmiosUrl, Date.now);
    try {
      return await deployProtocol(ports, { wallet, bootstrapName: "default", bootstrapTerms: defaultBootstrapTerms(wallet) });
    } finally {
      await ports.close();
    }
  };
  let bootstrap: DeploymentStepReport[] = [];
  try {
    bootstrap = await run();
  } catch (err) {
    await broker.stop();
    await mesh.close();
    throw err;
  }
  const api = listenAddresses(broker).api;
  return {
    config,
    broker,
    api: api === null ? "" : httpUrl(api, "/api/v1"),
    devnet: chain.devnet!,
    ogmiosUrl: chain.ogmiosUrl,
    serviceWallet: wallet,
    bootstrap,
    dataDir,
    rerunBootstrap: run,
    async stop(stopOpts = {}) {
      await broker.stop();
      await mesh.close();
      if (!stopOpts.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
