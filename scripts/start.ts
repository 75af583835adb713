/**
 * `npm start`: runs the system. Embedded by default (one process, every built service, no transporter);
 * with TRANSPORTER/SERVICES it runs one scale-mode node. Configuration: shared/mesh/config.ts (ENV_VARS).
 *
 * Order: config → resources (lazy store + chain) → broker + services → start → banner.
 * Shutdown (SIGINT/SIGTERM): broker.stop() (running requests finish, up to SHUTDOWN_TIMEOUT_MS) → resources close.
 */
import { join } from "node:path";
import { ServiceBroker } from "moleculer";
import { createBrokerOptions } from "../moleculer.config";
import { ConfigError, describeConfig, loadConfig } from "../shared/mesh/config";
import { httpUrl, listenAddresses } from "../shared/mesh/listen-addresses";
import { createMeshResources } from "../shared/mesh/resources";
import type { MeshResources, ServiceDeps } from "../shared/mesh/service-deps";
import { loadServices, ServiceLoadError } from "../shared/mesh/service-loader";

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee the configuration table in README.md.\n`);
      process.exit(2);
    }
    throw err;
  }

  // Store (NeDB under DATA_DIR, or MONGO_URL) and chain (embedded devnet, or OGMIOS_URL) open lazily, on the
  // first service that asks (shared/mesh/resources.ts).
  // ── PLUG-IN POINT (wallet/chain issue): genesis funds of a new embedded devnet go in the options here. ──
  const mesh = createMeshResources(config, {});
  const resources: MeshResources = mesh.resources;

  const broker = new ServiceBroker(
    createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }),
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

  broker.logger.info("Configuration", describeConfig(config));
  await broker.start();

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
  if (opened.chain) lines.push(`chain: ${opened.chain.network} via ${opened.chain.devnet ? "embedded devnet " : ""}${opened.chain.ogmiosUrl}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`Startup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
