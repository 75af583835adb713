/**
 * `npm start`: runs the system. Embedded by default (one process, every built service, no transporter);
 * with TRANSPORTER/SERVICES it runs one scale-mode node. Configuration: shared/mesh/config.ts (ENV_VARS).
 *
 * Order: config → devnet bootstrap preparation (embedded devnet without PROXY_TX_HASH: service wallet, genesis
 * funds, deployment fixed up front) → resources (lazy store + chain) → broker + services → start → protocol
 * bootstrap (init, deploy, `default` bootstrap; skips what is on chain) → banner.
 * Shutdown (SIGINT/SIGTERM): broker.stop() (running requests finish, up to SHUTDOWN_TIMEOUT_MS) → resources close.
 */
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { ServiceBroker } from "moleculer";
import { createBrokerOptions } from "../moleculer.config";
import { prepareDevnetFirstStart, deploymentPortsFor } from "../shared/first-start/devnet-first-start";
import { faucetGenesisFunds } from "../shared/faucet/faucet-wallet";
import { defaultBootstrapTerms, deployProtocol, type DeploymentStepReport } from "../shared/first-start/protocol-deployment";
import { ConfigError, describeConfig, loadConfig, type AppConfig } from "../shared/config/config";
import { addReadinessCheck, findHealthMiddleware, PROTOCOL_DEPLOYMENT_CHECK } from "../shared/mesh/health-middleware";
import { httpUrl, listenAddresses } from "../shared/mesh/listen-addresses";
import { createMeshResources } from "../shared/mesh/resources";
import type { MeshResources, ServiceDeps } from "../shared/mesh/service-deps";
import { loadServices, ServiceLoadError } from "../shared/mesh/service-loader";

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee the configuration table in README.md.\n`);
      process.exit(2);
    }
    throw err;
  }

  // Store (SQLite under DATA_DIR, or MONGO_URL) and chain (embedded devnet, or OGMIOS_URL) open lazily, on the
  // first service that asks (shared/mesh/resources.ts).
  // Embedded devnet without a deployment: the service wallet is funded at genesis and the deployment derived
  // from its genesis output, so `config.protocol` is known before any service starts (shared/first-start/).
  // The faucet wallet is funded at genesis too, so the embedded faucet works from the first start.
  const prep = prepareDevnetFirstStart(config, faucetGenesisFunds(config));
  config = prep.config;
  const mesh = createMeshResources(config, prep.genesis ? { devnetGenesis: prep.genesis } : {});
  const resources: MeshResources = mesh.resources;

  // On a terminal the logs are for a person (pino-pretty); piped or collected, they stay JSON lines.
  const broker = new ServiceBroker(
    createBrokerOptions(config, { prettyLogs: process.stdout.isTTY === true, overrides: { skipProcessEventRegistration: true } }),
  );
  const deps: ServiceDeps = { config, now: Date.now, resources };
  let services;
  try {
    services = loadServices(config.services, deps, join(__dirname, "..", "services"));
  } catch (err) {
    if (err instanceof ServiceLoadError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  for (const schema of services.schemas) broker.createService(schema);

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) {
      broker.logger.warn(`${signal} again: exiting now.`);
      process.exit(1);
    }
    stopping = true;
    broker.logger.info(`${signal}: stopping…`);
    broker
      .stop()
      .then(() => mesh.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          broker.logger.error("Shutdown failed", err);
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));

  // On a fresh embedded devnet the protocol is deployed right after the services start: until that is done and
  // indexed, /ready answers 503 and the routes that need the protocol answer 503 with Retry-After.
  const deploysOnStart = prep.kind === "ready" && services.loaded.includes("tx-builder");
  let deploying = deploysOnStart;
  if (deploysOnStart) addReadinessCheck(broker, PROTOCOL_DEPLOYMENT_CHECK, () => !deploying);

  broker.logger.info("Configuration", describeConfig(config));
  await broker.start();

  // First start on the devnet: init → deploy → `default` bootstrap through the services (skips what is on chain).
  const bootstrapLines: string[] = [];
  if (prep.kind === "ready" && !services.loaded.includes("tx-builder")) {
    bootstrapLines.push("devnet bootstrap waits: this process does not run the tx-builder service (not built yet or not in SERVICES)");
  } else if (prep.kind === "ready") {
    const wallet = prep.service.wallet;
    const from =
      prep.service.source === "SERVICE_MNEMONIC"
        ? "SERVICE_MNEMONIC"
        : `${prep.service.keyFile} (${prep.service.source === "created" ? "created now, mode 0600" : "existing"})`;
    bootstrapLines.push(`service wallet ${wallet.address} (key hash ${wallet.paymentKeyHash}) from ${from}`);
    const ports = deploymentPortsFor(
      (action, params) => broker.call(action, params),
      (await mesh.resources.chain()).ogmiosUrl,
      await mesh.resources.store(),
      Date.now,
    );
    try {
      const steps = await deployProtocol(ports, { wallet, bootstrapName: "default", bootstrapTerms: defaultBootstrapTerms(wallet) });
      bootstrapLines.push(...steps.map(describeStep));
      const p = config.protocol!;
      bootstrapLines.push(
        `deployment: PROXY_TX_HASH=${p.proxyOneShot.txHash} PROXY_OUTPUT_INDEX=${p.proxyOneShot.index} SERVICE_KEY_HASH=${p.serviceKeyHash}`,
      );
    } catch (err) {
      bootstrapLines.push(
        `devnet bootstrap FAILED (the API still runs; restart to retry): ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      await ports.close();
      deploying = false;
    }
  } else if (prep.kind === "unfunded-chain") {
    bootstrapLines.push(`devnet bootstrap skipped: ${prep.reason}`);
  }

  const where = listenAddresses(broker);
  const lines = [
    `mode: ${config.transporter === null ? "embedded (single process)" : "scale (NATS)"}; services: ${services.loaded.join(", ") || "none"}`,
  ];
  if (services.notBuilt.length > 0) lines.push(`not built yet (their routes answer 501): ${services.notBuilt.join(", ")}`);
  if (where.api) lines.push(`API listening on ${httpUrl(where.api, "/api/v1")} (OpenAPI: ${httpUrl(where.api, "/api/v1/openapi.json")})`);
  if (where.health) lines.push(`probes on ${httpUrl(where.health, "/live")} and ${httpUrl(where.health, "/ready")}`);
  if (where.metrics) lines.push(`metrics on ${httpUrl(where.metrics, "/metrics")}`);
  const opened = mesh.opened();
  if (opened.store) lines.push(`store: ${opened.store}${opened.store === "mongodb" ? "" : ` under ${config.dataDir}`}`);
  if (opened.chain)
    lines.push(`chain: ${opened.chain.network} via ${opened.chain.devnet ? "embedded devnet " : ""}${opened.chain.ogmiosUrl}`);
  lines.push(...bootstrapLines);
  process.stdout.write(`${lines.join("\n")}\n`);
  const failing = await waitUntilReady(broker);
  process.stdout.write(
    failing.length === 0
      ? `ready: ${where.api ? httpUrl(where.api, "/api/v1") : "the services"} ${where.api ? "answers" : "answer"} requests\n`
      : `not ready yet (${failing.join(", ")}); /ready answers 503 until these pass\n`,
  );
  // The last line: where a person goes next.
  if (where.api && services.loaded.includes("gateway"))
    process.stdout.write(`open ${httpUrl(browsable(where.api), "/")} in a browser to verify and issue certificates\n`);
}

/** A listening address a browser can open: the unspecified address (every interface) becomes localhost. */
function browsable(address: AddressInfo): AddressInfo {
  return address.address === "0.0.0.0" || address.address === "::" ? { ...address, address: "localhost", family: "IPv4" } : address;
}

/** Waits (up to 30 s) until every readiness check of this process passes; returns the ones still failing. */
async function waitUntilReady(broker: ServiceBroker): Promise<string[]> {
  const health = findHealthMiddleware(broker);
  if (!health) return [];
  const deadline = Date.now() + 30_000;
  for (;;) {
    const failing = await health.failingChecks();
    if (failing.length === 0 || Date.now() > deadline) return failing;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function describeStep(s: DeploymentStepReport): string {
  return s.outcome === "skipped"
    ? `bootstrap ${s.step}: ${s.detail}`
    : `bootstrap ${s.step}: ${s.detail} in tx ${s.transactionHash} (${s.ms} ms)`;
}

main().catch((err: unknown) => {
  process.stderr.write(`Startup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
