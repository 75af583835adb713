/**
 * Reads and validates the environment against the table of `env-vars.ts`: a bad value does not stop the reading,
 * every problem is collected and thrown at once (`ConfigError`), so one start tells the operator everything.
 */
import { TypedError } from "../domain/errors";
import { HEX_PATTERNS, HexBytes, KeyHash, TxHash, type Hex, type HexType } from "../domain/hex";
import type { AppConfig, BatchCalendarConfig, FaucetConfig, ProtocolConfig } from "./app-config";
import { ENV_VARS, LOG_LEVELS, NETWORKS, type Network } from "./env-vars";
import { explorerUrlOf } from "./explorer";
import { SERVICE_NAME_SYNTAX } from "./service-names";

export { describeConfig, type AppConfig, type ProtocolConfig } from "./app-config";
export { ENV_VARS, formatEnvTable, NETWORKS, type Network } from "./env-vars";

/** Thrown by `loadConfig` with every problem found, so one start tells the operator everything. */
export class ConfigError extends TypedError<"INVALID_CONFIG"> {
  override readonly name = "ConfigError";
  constructor(readonly problems: readonly string[]) {
    super("INVALID_CONFIG", `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`, { problems });
  }
}

type Env = Readonly<Record<string, string | undefined>>;

const KNOWN_NAMES = new Set(ENV_VARS.map((v) => v.name));

/** The non-empty entries of a comma-separated value, trimmed. */
function commaList(raw: string): string[] {
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/** Reads and validates the environment. @throws ConfigError listing every problem. */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    if (!KNOWN_NAMES.has(name)) throw new Error(`${name} is read but missing from ENV_VARS`);
    const raw = env[name];
    return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
  };

  const port = (name: string, fallback: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
      problems.push(`${name}=${raw} is not a port number (0-65535).`);
      return fallback;
    }
    return Number(raw);
  };
  const integer = (name: string, fallback: number, min: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
      problems.push(`${name}=${raw} must be an integer >= ${min}.`);
      return fallback;
    }
    return Number(raw);
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (["true", "1", "yes", "on"].includes(raw)) return true;
    if (["false", "0", "no", "off"].includes(raw)) return false;
    problems.push(`${name}=${raw} must be true or false.`);
    return fallback;
  };
  const proxyHops = (name: string): number => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined || ["false", "no", "off"].includes(raw)) return 0;
    if (["true", "yes", "on"].includes(raw)) return 1;
    if (/^\d{1,2}$/.test(raw)) return Number(raw);
    problems.push(`${name}=${raw} must be false, true or the number of trusted proxies (0-99).`);
    return 0;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name}=${raw} must be one of: ${allowed.join(", ")}.`);
    return fallback;
  };
  const url = (name: string, schemes: readonly string[]): string | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    const parts = raw.split(",").map((p) => p.trim());
    for (const part of parts) {
      let ok = false;
      try {
        ok = schemes.includes(new URL(part).protocol.replace(/:$/, ""));
      } catch {
        ok = false;
      }
      // Secrets (credentials inside the URL) are never echoed back.
      if (!ok) problems.push(`${name} must be a ${schemes.map((s) => `${s}://`).join(" or ")} URL.`);
    }
    return raw;
  };

  const transporter = url("TRANSPORTER", ["nats"]);

  let services: string[] | null = null;
  const servicesRaw = read("SERVICES");
  if (servicesRaw !== undefined) {
    const names = commaList(servicesRaw);
    const malformed = names.filter((n) => !SERVICE_NAME_SYNTAX.test(n));
    if (malformed.length > 0) problems.push(`SERVICES names must be kebab-case service names; not: ${malformed.join(", ")}.`);
    services = [...new Set(names.filter((n) => SERVICE_NAME_SYNTAX.test(n)))];
    if (services.length === 0 && malformed.length === 0) services = null;
  }

  const ogmiosUrl = url("OGMIOS_URL", ["ws", "wss", "http", "https"]);
  let network: Network = "devnet";
  if (ogmiosUrl !== null && read("NETWORK") === undefined) {
    problems.push(`NETWORK must be set when OGMIOS_URL is set (one of: ${NETWORKS.join(", ")}).`);
  } else {
    network = oneOf("NETWORK", NETWORKS, "devnet");
  }
  if (ogmiosUrl === null && network !== "devnet") {
    problems.push(`NETWORK=${network} needs OGMIOS_URL (without it the embedded devnet runs).`);
  }

  let corsOrigins: AppConfig["corsOrigins"] = "*";
  const corsRaw = read("CORS_ORIGINS");
  if (corsRaw !== undefined) {
    const list = commaList(corsRaw);
    if (list.length === 1 && list[0]!.toLowerCase() === "none") corsOrigins = null;
    else if (list.includes("*")) corsOrigins = "*";
    else {
      const bad = list.filter((o) => !/^https?:\/\/[^\s/]+$/.test(o));
      if (bad.length > 0) problems.push(`CORS_ORIGINS entries must look like https://host[:port]: ${bad.join(", ")}.`);
      corsOrigins = list;
    }
  }

  const adminApiKey = read("ADMIN_API_KEY") ?? null;
  if (adminApiKey !== null && adminApiKey.length < 16) problems.push("ADMIN_API_KEY must be at least 16 characters.");

  /** A hex variable: `given` when set; `value` when set and of the type. */
  const hex = <T extends Hex>(type: HexType<T>, name: string, bytes: number): { given: boolean; value: T | undefined } => {
    const raw = read(name);
    const value = type.parse(raw);
    if (raw !== undefined && value === undefined) problems.push(`${name} must be ${bytes * 2} hex digits.`);
    return { given: raw !== undefined, value };
  };
  let protocol: ProtocolConfig | null = null;
  const proxyTxHash = hex(TxHash, "PROXY_TX_HASH", 32);
  const serviceKeyHash = hex(KeyHash, "SERVICE_KEY_HASH", 28);
  const adminsRaw = read("BOOTSTRAP_ADMINS");
  const admins = adminsRaw === undefined ? undefined : commaList(adminsRaw).map((a) => KeyHash.parse(a) ?? a);
  const adminKeys = admins?.filter((a) => KeyHash.is(a));
  for (const a of admins ?? []) if (!KeyHash.is(a)) problems.push(`BOOTSTRAP_ADMINS entry ${a} is not a 56-hex key hash.`);
  if (proxyTxHash.given) {
    if (!serviceKeyHash.given) problems.push("SERVICE_KEY_HASH must be set with PROXY_TX_HASH.");
    else {
      const index = integer("PROXY_OUTPUT_INDEX", 0, 0);
      if (proxyTxHash.value !== undefined && serviceKeyHash.value !== undefined)
        protocol = {
          proxyOneShot: { txHash: proxyTxHash.value, index },
          bootstrapAdministrators: adminKeys ?? [serviceKeyHash.value],
          serviceKeyHash: serviceKeyHash.value,
        };
    }
  }
  let indexerStartPoint: AppConfig["indexerStartPoint"] = "origin";
  const startRaw = read("INDEXER_START_POINT");
  if (startRaw !== undefined && startRaw !== "origin") {
    const dot = startRaw.indexOf(".");
    const [slot, id] = [startRaw.slice(0, dot), startRaw.slice(dot + 1)];
    if (dot > 0 && /^\d+$/.test(slot) && HEX_PATTERNS.hash32.test(id)) indexerStartPoint = { slot: Number(slot), id: HexBytes(id) };
    else problems.push("INDEXER_START_POINT must be `origin` or `<slot>.<64-hex block id>`.");
  }

  function explorerUrl(): string | null {
    const found = explorerUrlOf(network, read("EXPLORER_URL"));
    if ("problem" in found) {
      problems.push(found.problem);
      return null;
    }
    return found.url;
  }

  function faucetConfig(): FaucetConfig {
    const enabled = bool("FAUCET_ENABLED", network !== "mainnet");
    if (enabled && network === "mainnet") problems.push("FAUCET_ENABLED=true is not allowed on mainnet.");
    const utxoLovelace = integer("FAUCET_UTXO_AMOUNT_LOVELACE", 10_000_000, 1_000_000);
    return {
      enabled: enabled && network !== "mainnet",
      mnemonic: read("FAUCET_MNEMONIC") ?? null,
      utxoCount: integer("FAUCET_UTXO_COUNT", 3, 1),
      utxoLovelace,
      cooldownMs: integer("FAUCET_COOLDOWN_MS", 120_000, 0),
      claimsPerIpPerDay: integer("FAUCET_CLAIMS_PER_IP_PER_DAY", 10, 1),
      dailyBudgetLovelace: integer("FAUCET_DAILY_BUDGET_LOVELACE", 3_000_000_000, 1_000_000),
    };
  }

  function calendarApiKeys(): string[] {
    const keys = (read("BATCH_API_KEYS") ?? "")
      .split(",")
      .map((k) => k.trim())
      .filter((k) => k !== "");
    if (keys.some((k) => k.length < 16)) problems.push("BATCH_API_KEYS: every key must be at least 16 characters.");
    return keys;
  }

  function logOrigin(): string {
    const origin = read("LOG_ORIGIN") ?? `localhost/cert-anchor/${read("NETWORK") ?? "devnet"}`;
    // c2sp.org/tlog-checkpoint: a schema-less URL naming the log; signed-note: a key name has no space or "+"
    if (!/^[^\s+]+$/u.test(origin) || /^[a-z]+:\/\//i.test(origin))
      problems.push(`LOG_ORIGIN=${origin} must be a schema-less URL without spaces or "+" (e.g. example.com/log).`);
    return origin;
  }

  /** `LOG_WITNESSES`: comma-separated `<submission prefix URL>=<cosigner verifier key>` (a key holds no "="). */
  function logWitnesses(): { url: string; verifierKey: string }[] {
    return commaList(read("LOG_WITNESSES") ?? "").flatMap((entry) => {
      const at = entry.lastIndexOf("=");
      const url = entry.slice(0, at).trim();
      const verifierKey = entry.slice(at + 1).trim();
      if (at < 0 || !/^https?:\/\/[^\s]+$/.test(url) || !/^[^\s+]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/.test(verifierKey)) {
        problems.push(`LOG_WITNESSES entry "${entry}" is not <http(s) URL>=<witness verifier key name+hex8+base64>.`);
        return [];
      }
      return [{ url, verifierKey }];
    });
  }

  function batchCalendarConfig(): BatchCalendarConfig {
    const atMost = (name: string, value: number, max: number): number => {
      if (value <= max) return value;
      problems.push(`${name}=${value} must be at most ${max}.`);
      return max;
    };
    return {
      enabled: bool("BATCH_CALENDAR_ENABLED", true),
      intervalMs: integer("BATCH_INTERVAL_MS", 60_000, 100),
      maxPending: integer("BATCH_MAX_PENDING", 1_000_000, 1),
      maxPendingPerClient: integer("BATCH_MAX_PENDING_PER_CLIENT", 100_000, 1),
      apiKeys: calendarApiKeys(),
      log: {
        origin: logOrigin(),
        signerKey: read("LOG_SIGNER_KEY") ?? null,
        integrateMs: integer("LOG_INTEGRATE_MS", 500, 50),
        witnesses: logWitnesses(),
      },
      // a request must fit the gateway's default body limit (512 KiB: about 68 bytes per quoted hash)
      maxHashesPerRequest: atMost("BATCH_SUBMIT_MAX_HASHES", integer("BATCH_SUBMIT_MAX_HASHES", 5_000, 1), 7_000),
    };
  }

  // confirmations are followed no deeper than Cardano's rollbacks reach (k = 2160 blocks)
  function finalityDepth(): number {
    const depth = integer("EVENTS_FINALITY_DEPTH", 15, 1);
    if (depth <= 2160) return depth;
    problems.push(`EVENTS_FINALITY_DEPTH=${depth} must be at most 2160 (Cardano's security parameter k).`);
    return 15;
  }

  /** `WEBHOOKS_RETRY_SCHEDULE`: comma-separated durations, each a whole number of ms, s, m or h (no unit: ms). */
  function retrySchedule(): number[] {
    const raw = read("WEBHOOKS_RETRY_SCHEDULE") ?? "5s,30s,2m,10m,30m,1h,2h,4h,8h";
    const unit: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
    const delays = commaList(raw).map((entry) => {
      const m = /^(\d{1,9})(ms|s|m|h)?$/.exec(entry);
      return m ? Number(m[1]) * unit[m[2] ?? "ms"]! : NaN;
    });
    if (delays.some((d) => !Number.isSafeInteger(d) || d > 24 * 3_600_000) || delays.length > 20) {
      problems.push(
        `WEBHOOKS_RETRY_SCHEDULE=${raw} must be up to 20 comma-separated delays, each a whole number of ms, s, m or h up to 24h.`,
      );
      return [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000];
    }
    return delays;
  }

  const config: AppConfig = {
    port: port("PORT", 3000),
    host: read("HOST") ?? (transporter === null ? "127.0.0.1" : "0.0.0.0"),
    transporter,
    services,
    namespace: read("NAMESPACE") ?? "cert-anchor",
    nodeId: read("NODE_ID") ?? null,
    dataDir: read("DATA_DIR") ?? "./data",
    mongoUrl: url("MONGO_URL", ["mongodb", "mongodb+srv"]),
    ogmiosUrl,
    network,
    metricsEnabled: bool("ENABLE_METRICS", true),
    metricsPort: port("METRICS_PORT", 3030),
    healthPort: port("HEALTH_PORT", 3001),
    logLevel: oneOf("LOG_LEVEL", LOG_LEVELS, "info"),
    accessLog: bool("ACCESS_LOG", true),
    rateLimitPostPerMinute: integer("RATE_LIMIT_POST_PER_MINUTE", 20, 0),
    rateLimitReadPerMinute: integer("RATE_LIMIT_READ_PER_MINUTE", 600, 0),
    goodsKdf: { burst: integer("GOODS_KDF_BURST", 300, 1), perMinute: integer("GOODS_KDF_PER_MINUTE", 60, 0) },
    verifyCacheMb: integer("VERIFY_CACHE_MB", 128, 0),
    events: {
      finalityDepth: finalityDepth(),
      maxStreams: integer("EVENTS_MAX_STREAMS", 1_000, 1),
      maxStreamsPerClient: integer("EVENTS_MAX_STREAMS_PER_CLIENT", 10, 1),
      retentionDays: integer("EVENTS_RETENTION_DAYS", 30, 0),
    },
    webhooks: {
      allowPrivateNetworks: bool("WEBHOOKS_ALLOW_PRIVATE_NETWORKS", false),
      allowHttp: bool("WEBHOOKS_ALLOW_HTTP", network === "devnet"),
      maxEndpoints: integer("WEBHOOKS_MAX_ENDPOINTS", 10_000, 1),
      maxEndpointsPerToken: integer("WEBHOOKS_MAX_ENDPOINTS_PER_TOKEN", 20, 1),
      registrationsPerHour: integer("WEBHOOKS_REGISTRATIONS_PER_HOUR", 20, 0),
      retryScheduleMs: retrySchedule(),
      disableAfterFailedDeliveries: integer("WEBHOOKS_DISABLE_AFTER_FAILED_DELIVERIES", 5, 1),
      requestTimeoutMs: integer("WEBHOOKS_REQUEST_TIMEOUT_MS", 10_000, 100),
      concurrency: integer("WEBHOOKS_CONCURRENCY", 16, 1),
    },
    trustProxy: proxyHops("TRUST_PROXY"),
    corsOrigins,
    adminApiKey,
    requestTimeoutMs: integer("REQUEST_TIMEOUT_MS", 30_000, 1),
    shutdownTimeoutMs: integer("SHUTDOWN_TIMEOUT_MS", 10_000, 0),
    protocol,
    indexerStartPoint,
    pluginsDir: read("PLUGINS_DIR") ?? null,
    serviceAddress: serviceAddressOf(read("SERVICE_ADDRESS"), problems),
    serviceMnemonic: read("SERVICE_MNEMONIC") ?? null,
    devnetBootstrap: bool("DEVNET_BOOTSTRAP", true),
    frontendUrl: url("FRONTEND_URL", ["http", "https"])?.replace(/\/+$/, "") ?? null,
    explorerUrl: explorerUrl(),
    shortLinkDomain: (
      url("SHORT_LINK_DOMAIN", ["http", "https"]) ?? `http://${read("HOST") ?? "localhost"}:${read("PORT") ?? "3000"}/api/v1/resolve`
    ).replace(/\/+$/, ""),
    userActionSigningMnemonic: read("USER_ACTION_SIGNING_MNEMONIC") ?? null,
    faucet: faucetConfig(),
    batchCalendar: batchCalendarConfig(),
    batchLeavesPerClient: integer("BATCH_LEAVES_PER_CLIENT", 2_000_000, 1),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function serviceAddressOf(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  if (!/^addr(_test)?1[02-9ac-hj-np-z]+$/.test(raw))
    problems.push("SERVICE_ADDRESS must be a bech32 payment address (addr1… or addr_test1…).");
  return raw;
}
