import { expect } from "chai";
import { createBrokerOptions } from "../../moleculer.config";
import { ConfigError, describeConfig, ENV_VARS, formatEnvTable, loadConfig } from "../../shared/config/config";

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error("loadConfig accepted an invalid environment");
}

/** The env names moleculer-runner would use to overwrite broker options (src/runner.js overwriteFromEnv). */
function runnerOverrideNames(obj: Record<string, unknown>, prefix?: string): string[] {
  const names: string[] = [];
  for (const [key, value] of Object.entries(obj)) {
    const name = ((prefix ? `${prefix}_` : "") + key).toUpperCase();
    names.push(name);
    if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      names.push(...runnerOverrideNames(value as Record<string, unknown>, (prefix ? `${prefix}_` : "") + key));
    }
  }
  return names;
}

describe("mesh: environment configuration", function () {
  it("defaults to the embedded mode on loopback", () => {
    const c = loadConfig({});
    expect(c).to.deep.include({
      port: 3000,
      host: "127.0.0.1",
      transporter: null,
      services: null,
      namespace: "cert-anchor",
      dataDir: "./data",
      mongoUrl: null,
      ogmiosUrl: null,
      network: "devnet",
      metricsEnabled: true,
      metricsPort: 3030,
      healthPort: 3001,
      logLevel: "info",
      accessLog: true,
      rateLimitPostPerMinute: 20,
      trustProxy: 0,
      corsOrigins: "*",
      adminApiKey: null,
      requestTimeoutMs: 30_000,
      shutdownTimeoutMs: 10_000,
    });
  });

  it("reads ACCESS_LOG as on/off (true/false, yes/no, 1/0), and refuses anything else", () => {
    expect(loadConfig({ ACCESS_LOG: "off" }).accessLog).to.equal(false);
    expect(loadConfig({ ACCESS_LOG: "ON" }).accessLog).to.equal(true);
    expect(() => loadConfig({ ACCESS_LOG: "sometimes" })).to.throw("ACCESS_LOG=sometimes must be true or false.");
  });

  it("binds all interfaces by default in scale mode and parses the service selection", () => {
    const c = loadConfig({ TRANSPORTER: "nats://nats:4222", SERVICES: "gateway, indexer,gateway" });
    expect(c.host).to.equal("0.0.0.0");
    expect(c.transporter).to.equal("nats://nats:4222");
    expect(c.services).to.deep.equal(["gateway", "indexer"]);
  });

  it("reports every problem at once, naming each variable", () => {
    const err = configError({
      PORT: "70000",
      HEALTH_PORT: "x",
      TRANSPORTER: "redis://localhost",
      SERVICES: "gateway,Orders!",
      LOG_LEVEL: "loud",
      RATE_LIMIT_POST_PER_MINUTE: "-1",
      TRUST_PROXY: "maybe",
      ADMIN_API_KEY: "short",
      CORS_ORIGINS: "app.example",
      MONGO_URL: "http://user:pw@db",
    });
    expect(err.type).to.equal("INVALID_CONFIG");
    const text = err.problems.join("\n");
    for (const name of [
      "PORT",
      "HEALTH_PORT",
      "TRANSPORTER",
      "SERVICES",
      "LOG_LEVEL",
      "RATE_LIMIT_POST_PER_MINUTE",
      "TRUST_PROXY",
      "ADMIN_API_KEY",
      "CORS_ORIGINS",
      "MONGO_URL",
    ]) {
      expect(text).to.contain(name);
    }
    expect(err.problems).to.have.length(10);
    expect(text).to.contain("Orders!");
    expect(text, "secrets are not echoed").to.not.contain("pw@");
  });

  it("has one embedded store engine: STORE_ENGINE (NeDB's switch, removed) is an unknown name, ignored like any other", () => {
    expect(ENV_VARS.map((v) => v.name)).to.not.include("STORE_ENGINE");
    expect(loadConfig({ STORE_ENGINE: "nedb" })).to.deep.equal(loadConfig({}));
  });

  it("requires NETWORK with OGMIOS_URL and refuses a public network without it", () => {
    expect(configError({ OGMIOS_URL: "ws://node:1337" }).problems[0]).to.contain("NETWORK must be set");
    expect(loadConfig({ OGMIOS_URL: "ws://node:1337", NETWORK: "preprod" }).network).to.equal("preprod");
    expect(configError({ NETWORK: "mainnet" }).problems[0]).to.contain("needs OGMIOS_URL");
  });

  it("links transactions to Cardanoscan on the public networks, to no explorer on the devnet, and takes EXPLORER_URL with {tx} or none", () => {
    const ogmios = { OGMIOS_URL: "ws://node:1337" };
    expect(loadConfig({}).explorerUrl, "devnet").to.equal(null);
    expect(loadConfig({ ...ogmios, NETWORK: "preview" }).explorerUrl).to.equal("https://preview.cardanoscan.io/transaction/{tx}");
    expect(loadConfig({ ...ogmios, NETWORK: "preprod" }).explorerUrl).to.equal("https://preprod.cardanoscan.io/transaction/{tx}");
    expect(loadConfig({ ...ogmios, NETWORK: "mainnet" }).explorerUrl).to.equal("https://cardanoscan.io/transaction/{tx}");
    expect(loadConfig({ ...ogmios, NETWORK: "mainnet", EXPLORER_URL: "https://cexplorer.io/tx/{tx}" }).explorerUrl).to.equal(
      "https://cexplorer.io/tx/{tx}",
    );
    expect(loadConfig({ ...ogmios, NETWORK: "preview", EXPLORER_URL: "none" }).explorerUrl).to.equal(null);
    expect(loadConfig({ EXPLORER_URL: "http://localhost:8080/tx/{tx}" }).explorerUrl, "a local explorer of the devnet").to.equal(
      "http://localhost:8080/tx/{tx}",
    );
    for (const bad of ["https://cexplorer.io/tx/", "javascript:alert('{tx}')", "explorer/{tx}"])
      expect(configError({ EXPLORER_URL: bad }).problems.join(" "), bad).to.contain(
        "EXPLORER_URL must be an http:// or https:// URL holding {tx}",
      );
  });

  it("parses CORS origins: list, any, none", () => {
    expect(loadConfig({ CORS_ORIGINS: "https://a.example, http://localhost:5173" }).corsOrigins).to.deep.equal([
      "https://a.example",
      "http://localhost:5173",
    ]);
    expect(loadConfig({ CORS_ORIGINS: "*" }).corsOrigins).to.equal("*");
    expect(loadConfig({ CORS_ORIGINS: "none" }).corsOrigins).to.equal(null);
  });

  it("masks secrets when describing the configuration", () => {
    const c = loadConfig({ MONGO_URL: "mongodb://u:p@db/x", ADMIN_API_KEY: "0123456789abcdef", TRANSPORTER: "nats://u:p@nats:4222" });
    const text = JSON.stringify(describeConfig(c));
    expect(text).to.not.contain("u:p");
    expect(text).to.not.contain("0123456789abcdef");
    const keys = describeConfig(loadConfig({ BATCH_API_KEYS: "calendar-key-000000001,calendar-key-000000002" }));
    expect(JSON.stringify(keys)).to.not.contain("calendar-key");
  });

  it("reads the calendar's own API keys, each at least 16 characters", () => {
    expect(loadConfig({ BATCH_API_KEYS: " calendar-key-000000001 , calendar-key-000000002 " }).batchCalendar.apiKeys).to.deep.equal([
      "calendar-key-000000001",
      "calendar-key-000000002",
    ]);
    expect(() => loadConfig({ BATCH_API_KEYS: "calendar-key-000000001,short" })).to.throw(/BATCH_API_KEYS: every key must be at least 16/);
  });

  it("documents every variable in the README table", () => {
    const table = formatEnvTable();
    for (const v of ENV_VARS) expect(table).to.contain(`\`${v.name}\``);
    expect(ENV_VARS.map((v) => v.name)).to.include.members([
      "PORT",
      "HOST",
      "TRANSPORTER",
      "SERVICES",
      "NAMESPACE",
      "DATA_DIR",
      "MONGO_URL",
      "OGMIOS_URL",
      "NETWORK",
      "METRICS_PORT",
      "HEALTH_PORT",
      "LOG_LEVEL",
      "RATE_LIMIT_POST_PER_MINUTE",
      "CORS_ORIGINS",
      "ADMIN_API_KEY",
    ]);
  });

  it("uses no env name that moleculer-runner would read as a broker option, except TRANSPORTER and NAMESPACE", () => {
    const options = createBrokerOptions(loadConfig({})) as unknown as Record<string, unknown>;
    const runnerNames = new Set(runnerOverrideNames(options));
    expect(runnerNames.has("METRICS_ENABLED"), "sanity: nested names are derived").to.equal(true);
    const collisions = ENV_VARS.map((v) => v.name).filter((n) => runnerNames.has(n) || n.startsWith("MOL_"));
    expect(collisions.sort()).to.deep.equal(["NAMESPACE", "TRANSPORTER"]);
  });
});
