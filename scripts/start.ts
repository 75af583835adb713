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
import { hostname } from "node:os";
import { join } from "node:path";
import { ServiceBroker } from "moleculer";
import pino from "pino";
import { createBrokerOptions } from "../moleculer.config";
import { deployDefaultProtocol, prepareDevnetFirstStart } from "../shared/first-start/devnet-first-start";
import { faucetGenesisFunds } from "../shared/faucet/faucet-wallet";
import {
  readyLines,
  readyRecord,
  summaryLines,
  summaryRecord,
  type DevnetBootstrapSummary,
  type ReadySummary,
  type StartRecord,
  type StartSummary,
} from "../shared/first-start/start-summary";
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

  broker.logger.info("Configuration", { config: describeConfig(config) });
  await broker.start();

  // First start on the devnet: init → deploy → `default` bootstrap through the services (skips what is on chain).
  let bootstrap: DevnetBootstrapSummary | undefined;
  if (prep.kind === "ready" && !services.loaded.includes("tx-builder")) {
    bootstrap = { outcome: "waits", reason: "this process does not run the tx-builder service (not built yet or not in SERVICES)" };
  } else if (prep.kind === "ready") {
    const wallet = prep.service.wallet;
    const keySource =
      prep.service.source === "SERVICE_MNEMONIC"
        ? "SERVICE_MNEMONIC"
        : `${prep.service.keyFile} (${prep.service.source === "created" ? "created now, mode 0600" : "existing"})`;
    const serviceWallet = { address: wallet.address, paymentKeyHash: wallet.paymentKeyHash, keySource };
    try {
      const steps = await deployDefaultProtocol(
        (action, params) => broker.call(action, params),
        (await mesh.resources.chain()).ogmiosUrl,
        await mesh.resources.store(),
        wallet,
      );
      const p = config.protocol!;
      bootstrap = {
        outcome: "done",
        serviceWallet,
        steps,
        deployment: { proxyTxHash: p.proxyOneShot.txHash, proxyOutputIndex: p.proxyOneShot.index, serviceKeyHash: p.serviceKeyHash },
      };
    } catch (err) {
      bootstrap = { outcome: "failed", serviceWallet, steps: [], error: err instanceof Error ? err.message : String(err) };
    } finally {
      deploying = false;
    }
  } else if (prep.kind === "unfunded-chain") {
    bootstrap = { outcome: "skipped", reason: prep.reason };
  }

  const where = listenAddresses(broker);
  const opened = mesh.opened();
  const summary: StartSummary = {
    mode: config.transporter === null ? "embedded (single process)" : "scale (NATS)",
    services: services.loaded,
    notBuilt: services.notBuilt,
    ...(where.api ? { api: httpUrl(where.api, "/api/v1"), openapi: httpUrl(where.api, "/api/v1/openapi.json") } : {}),
    ...(where.health ? { probes: { live: httpUrl(where.health, "/live"), ready: httpUrl(where.health, "/ready") } } : {}),
    ...(where.metrics ? { metrics: httpUrl(where.metrics, "/metrics") } : {}),
    ...(opened.store ? { store: { kind: opened.store, ...(opened.store === "mongodb" ? {} : { dataDir: config.dataDir }) } } : {}),
    ...(opened.chain
      ? { chain: { network: opened.chain.network, devnet: opened.chain.devnet !== null, ogmiosUrl: opened.chain.ogmiosUrl } }
      : {}),
    ...(bootstrap ? { bootstrap } : {}),
  };
  // On a terminal a banner for a person; piped or collected, one JSON record like every other line of the log.
  const startLog = process.stdout.isTTY === true ? undefined : startRecords(broker, config);
  if (startLog) startLog.write(summaryRecord(summary));
  else process.stdout.write(`${summaryLines(summary).join("\n")}\n`);

  const ready: ReadySummary = {
    failing: await waitUntilReady(broker),
    ...(where.api ? { api: httpUrl(where.api, "/api/v1") } : {}),
    // where a person goes next
    ...(where.api && services.loaded.includes("gateway") ? { pages: httpUrl(browsable(where.api), "/") } : {}),
  };
  if (startLog) startLog.write(readyRecord(ready));
  else process.stdout.write(`${readyLines(ready).join("\n")}\n`);
}

/**
 * The start-up records, written whatever LOG_LEVEL says (like the banner they stand for), synchronously to stdout
 * and with the fields of the broker's own records.
 */
function startRecords(broker: ServiceBroker, config: AppConfig) {
  const log = pino(
    { base: { pid: process.pid, hostname: hostname(), nodeID: broker.nodeID, ns: config.namespace, mod: "start" } },
    pino.destination({ fd: 1, sync: true }),
  );
  return { write: ({ level, facts, msg }: StartRecord) => log[level](facts, msg) };
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

main().catch((err: unknown) => {
  process.stderr.write(`Startup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
