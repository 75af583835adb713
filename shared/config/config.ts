/**
 * Every environment variable the system reads, in one place: parsed, validated and documented.
 *
 * `ENV_VARS` is the single source of truth: `loadConfig` walks it, and the README's configuration table is
 * generated from it (`formatEnvTable`). Defaults describe the embedded mode (`npm start`: one process, no
 * transporter, embedded devnet and store).
 *
 * Env names never collide with moleculer-runner's option overrides (it overwrites any broker option whose
 * upper-cased path is set, e.g. `METRICS`, `LOGLEVEL`, `METRICS_ENABLED`). Only `TRANSPORTER` and `NAMESPACE`
 * match a broker option, on purpose and with the same meaning (test/mesh/config.spec.ts checks this).
 */
import { TypedError } from "../domain/errors";
import { isServiceName, SERVICE_NAMES, type ServiceName } from "./service-names";

export const NETWORKS = ["devnet", "preview", "preprod", "mainnet"] as const;
export type Network = (typeof NETWORKS)[number];

/** The embedded store engines (`STORE_ENGINE`), used when `MONGO_URL` is unset. */
export const STORE_ENGINES = ["sqlite", "nedb"] as const;
export type StoreEngine = (typeof STORE_ENGINES)[number];

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What the process runs with. Built only by `loadConfig`; tests build it with `loadConfig({ ... })`. */
export interface AppConfig {
  /** Gateway HTTP port (0 = any free port). */
  readonly port: number;
  /** Interface the gateway, health and metrics servers bind to. */
  readonly host: string;
  /** NATS URL(s) for scale mode; null = embedded (every service in one process, no transporter). */
  readonly transporter: string | null;
  /** Services this process runs; null = all of them. */
  readonly services: readonly ServiceName[] | null;
  readonly namespace: string;
  readonly nodeId: string | null;
  readonly dataDir: string;
  /** The embedded store engine under `dataDir` (without `mongoUrl`). */
  readonly storeEngine: StoreEngine;
  readonly mongoUrl: string | null;
  readonly ogmiosUrl: string | null;
  readonly network: Network;
  readonly metricsEnabled: boolean;
  readonly metricsPort: number;
  readonly healthPort: number;
  readonly logLevel: LogLevel;
  /** POST requests allowed per client (IPv4 address, IPv6 /64) per minute; 0 = no limit. */
  readonly rateLimitPostPerMinute: number;
  /** GETs of the expensive reads (`/verify`, `/proof`, connected-goods reads) per client per minute; 0 = no limit. */
  readonly rateLimitReadPerMinute: number;
  /** Claiming-password key derivations the connected-goods service runs per client (docs/connected-goods.md#limits). */
  readonly goodsKdf: GoodsKdfConfig;
  /** Memory budget of the gateway's whole verify answers, in MiB (0: validators only). */
  readonly verifyCacheMb: number;
  /** Trusted proxies in front of the gateway: the client IP is the X-Forwarded-For entry that many hops from the right (0 = socket peer). */
  readonly trustProxy: number;
  /** Allowed CORS origins: "*" (any, without credentials), a list, or null (CORS headers off). */
  readonly corsOrigins: "*" | readonly string[] | null;
  /** When set, `/api/v1/admin/*` requires `X-Api-Key: <key>` (or `Authorization: Bearer <key>`). */
  readonly adminApiKey: string | null;
  readonly requestTimeoutMs: number;
  readonly shutdownTimeoutMs: number;
  /** The protocol deployment the services build for and the indexer decodes; null = not configured. */
  readonly protocol: ProtocolConfig | null;
  /** Where the indexer starts when it has no checkpoint. */
  readonly indexerStartPoint: { slot: number; id: string } | "origin";
  /** Folder of operator indexer plugins (plain JS modules), or null. */
  readonly pluginsDir: string | null;
  /** Address holding the service wallet's funds (pays library deployments); null = enterprise address of SERVICE_KEY_HASH. */
  readonly serviceAddress: string | null;
  /** Mnemonic of the service wallet for the embedded devnet bootstrap; null = key file under DATA_DIR. */
  readonly serviceMnemonic: string | null;
  /** Embedded devnet without PROXY_TX_HASH: fund the service wallet at genesis and deploy the protocol on first start. */
  readonly devnetBootstrap: boolean;
  /**
   * Base URL of the certificate pages: short links redirect to `{frontendUrl}/verify/{hash}`; null = the gateway's
   * own pages, on whatever origin the short link was opened (the redirect is root-relative).
   */
  readonly frontendUrl: string | null;
  /** Base of the short links shown in previews (`og:url` = `{shortLinkDomain}/{code}`). */
  readonly shortLinkDomain: string;
  /** Mnemonic of the key signing user-action challenges; null = a key file under DATA_DIR. */
  readonly userActionSigningMnemonic: string | null;
  /** The test-funds faucet (never on mainnet). */
  readonly faucet: FaucetConfig;
  /** The aggregated Merkle calendar (`POST /batch/submit`, docs/merkle-batches.md#aggregated-calendar). */
  readonly batchCalendar: BatchCalendarConfig;
  /** `POST /batch/build` leaves one client may have hashed and waiting (docs/merkle-batches.md#limits). */
  readonly batchLeavesPerClient: number;
}

export interface GoodsKdfConfig {
  /** Derivations one client may run at once (a token bucket's size): the largest mint it can ask for. */
  readonly burst: number;
  /** Derivations given back per minute; 0 = no budget. */
  readonly perMinute: number;
}

export interface BatchCalendarConfig {
  /** Serve `/batch/submit` and anchor pending leaves (on mainnet only for callers presenting one of `apiKeys`). */
  readonly enabled: boolean;
  /** Pending leaves are anchored this often (Unix ms between two anchoring rounds). */
  readonly intervalMs: number;
  /** At most this many leaves per anchoring transaction; reaching it anchors at once. */
  readonly maxLeaves: number;
  /** At most this many leaves waiting in total (submissions beyond it are refused with 429). */
  readonly maxPending: number;
  /** At most this many leaves waiting from one client (an API key, else a client address). */
  readonly maxPendingPerClient: number;
  /** The calendar's own API keys (BATCH_API_KEYS); never logged. */
  readonly apiKeys: readonly string[];
  /** At most this many hashes per `/batch/submit` request. */
  readonly maxHashesPerRequest: number;
}

export interface FaucetConfig {
  readonly enabled: boolean;
  /** Mnemonic of the faucet wallet; null = the embedded devnet's genesis-funded faucet key file under DATA_DIR. */
  readonly mnemonic: string | null;
  readonly utxoCount: number;
  /** Lovelace per output (a safe integer; domain code converts it to bigint). */
  readonly utxoLovelace: number;
  readonly cooldownMs: number;
  /** Claims one client IP may make per UTC day. */
  readonly claimsPerIpPerDay: number;
  /** Lovelace paid out per UTC day in total (a safe integer). */
  readonly dailyBudgetLovelace: number;
}

/** Parameters of a deployment of the on-chain protocol (see shared/protocol/scripts.ts). */
export interface ProtocolConfig {
  /** The proxy's one-shot output reference: it fixes the proxy policy id and every script hash after it. */
  readonly proxyOneShot: { txHash: string; index: number };
  /** Key hashes allowed to mint and burn bootstrap datums. */
  readonly bootstrapAdministrators: readonly string[];
  /** Payment key hash of the service wallet: owner of the proxy pointer and administrator of the library. */
  readonly serviceKeyHash: string;
}

/** Thrown by `loadConfig` with every problem found, so one start tells the operator everything. */
export class ConfigError extends TypedError<"INVALID_CONFIG"> {
  override readonly name = "ConfigError";
  constructor(readonly problems: readonly string[]) {
    super("INVALID_CONFIG", `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`, { problems });
  }
}

export interface EnvVarSpec {
  readonly name: string;
  /** Default as shown to humans ("unset" when there is none). */
  readonly default: string;
  readonly meaning: string;
  /** Never printed (startup summary shows "***"). */
  readonly secret?: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The configuration table (name, default, meaning). Order = README order. */
export const ENV_VARS: readonly EnvVarSpec[] = [
  { name: "PORT", default: "3000", meaning: "Gateway HTTP port (`/api/v1`); 0 picks a free port." },
  {
    name: "HOST",
    default: "127.0.0.1 (embedded), 0.0.0.0 when TRANSPORTER is set",
    meaning: "Interface the gateway, health and metrics servers bind to.",
  },
  {
    name: "TRANSPORTER",
    default: "unset (embedded: all services in one process)",
    meaning: "NATS URL for scale mode, e.g. `nats://nats:4222` (comma-separate several servers).",
  },
  {
    name: "SERVICES",
    default: "unset (all services)",
    meaning: `Comma-separated services this process runs: ${SERVICE_NAMES.join(", ")}.`,
  },
  { name: "NAMESPACE", default: "cert-anchor", meaning: "Moleculer namespace; isolates deployments sharing one NATS." },
  { name: "NODE_ID", default: "<hostname>-<pid>", meaning: "Moleculer node id of this process." },
  { name: "DATA_DIR", default: "./data", meaning: "Folder of the embedded store and embedded devnet." },
  {
    name: "STORE_ENGINE",
    default: "sqlite",
    meaning: `Embedded store engine under DATA_DIR when MONGO_URL is unset: ${STORE_ENGINES.join(", ")} (\`sqlite\`: \`DATA_DIR/store.sqlite\`, documents on disk; \`nedb\`: one file per collection, every document held in memory).`,
  },
  {
    name: "MONGO_URL",
    default: "unset (embedded store under DATA_DIR, see STORE_ENGINE)",
    meaning: "MongoDB connection string (`mongodb://` or `mongodb+srv://`) for scale mode.",
    secret: true,
  },
  {
    name: "OGMIOS_URL",
    default: "unset (embedded devnet in-process)",
    meaning: "Ogmios v6 endpoint (`ws://host:1337`) of a real Cardano node.",
  },
  {
    name: "NETWORK",
    default: "devnet (required when OGMIOS_URL is set)",
    meaning: `Cardano network: ${NETWORKS.join(", ")}.`,
  },
  { name: "ENABLE_METRICS", default: "true", meaning: "Serve Prometheus metrics on METRICS_PORT." },
  { name: "METRICS_PORT", default: "3030", meaning: "Prometheus `/metrics` port; 0 picks a free port." },
  { name: "HEALTH_PORT", default: "3001", meaning: "Kubernetes probes `/live` and `/ready`; 0 picks a free port." },
  {
    name: "LOG_LEVEL",
    default: "info",
    meaning: `Log level: ${LOG_LEVELS.join(", ")}. JSON lines (pino); human-readable lines when stdout is a terminal.`,
  },
  {
    name: "RATE_LIMIT_POST_PER_MINUTE",
    default: "20",
    meaning: "POST requests per client (IPv4 address, IPv6 /64) per minute before 429 (with `Retry-After`); 0 = no limit.",
  },
  {
    name: "RATE_LIMIT_READ_PER_MINUTE",
    default: "600",
    meaning:
      "GET requests per client per minute to the reads that cost the services work (`/verify/...`, `/proof/...`, connected-goods reads) before 429 `RATE_LIMITED`; 0 = no limit. A client is an IPv4 address or an IPv6 /64, for every limit.",
  },
  {
    name: "GOODS_KDF_BURST",
    default: "300",
    meaning:
      "Claiming-password key derivations (scrypt) the connected-goods service runs for one client at once; also the largest mint (items) a client can ask for.",
  },
  {
    name: "GOODS_KDF_PER_MINUTE",
    default: "60",
    meaning:
      "Key derivations a client's budget regains per minute; a request that needs more than is left is answered 429 `KDF_BUDGET_EXCEEDED` (with `Retry-After`). 0 = no budget.",
  },
  {
    name: "VERIFY_CACHE_MB",
    default: "128",
    meaning:
      "Memory the gateway may give to whole `GET /verify` answers it serves without the verifier (≈ 1.2 KB per one-certificate answer, the oldest unused out first; an answer is forgotten when its hash is anchored again or the chain rolls back); 0 = validators for 304 answers only.",
  },
  {
    name: "TRUST_PROXY",
    default: "false (0: the socket peer is the client)",
    meaning:
      "How many proxies of your own stand in front of the gateway: the client IP is the `X-Forwarded-For` entry that many hops from the right (`true` = 1); the socket peer when the header has fewer entries.",
  },
  {
    name: "CORS_ORIGINS",
    default: "*",
    meaning: "Comma-separated allowed origins (`https://app.example`, wildcards allowed), `*`, or `none`.",
  },
  {
    name: "ADMIN_API_KEY",
    default: "unset (admin routes open)",
    meaning: "At least 16 characters; when set, `/api/v1/admin/*` needs header `X-Api-Key`.",
    secret: true,
  },
  {
    name: "PROXY_TX_HASH",
    default: "unset (no deployment: the indexer records transactions only)",
    meaning:
      "Transaction id of the proxy's one-shot output (the `init` transaction's spent input); with PROXY_OUTPUT_INDEX it fixes every script hash.",
  },
  { name: "PROXY_OUTPUT_INDEX", default: "0", meaning: "Output index of the proxy's one-shot output." },
  {
    name: "SERVICE_KEY_HASH",
    default: "unset (required with PROXY_TX_HASH)",
    meaning: "Payment key hash (56 hex) of the service wallet: proxy owner and library administrator.",
  },
  {
    name: "BOOTSTRAP_ADMINS",
    default: "SERVICE_KEY_HASH",
    meaning: "Comma-separated key hashes allowed to create and burn bootstrap datums (a parameter of the state script).",
  },
  {
    name: "SERVICE_ADDRESS",
    default: "enterprise address of SERVICE_KEY_HASH",
    meaning: "Address (bech32, payment key = SERVICE_KEY_HASH) whose funds pay the library deployment built by `/library/deploy/proxy`.",
  },
  {
    name: "SERVICE_MNEMONIC",
    default: "unset (embedded devnet: `DATA_DIR/service-wallet.json` is created, mode 0600)",
    meaning: "Mnemonic of the service wallet the embedded devnet bootstrap funds at genesis and signs init/deploy/bootstrap with.",
    secret: true,
  },
  {
    name: "DEVNET_BOOTSTRAP",
    default: "true",
    meaning: "Embedded devnet without PROXY_TX_HASH: deploy the protocol (init, library, `default` bootstrap) on first start.",
  },
  {
    name: "INDEXER_START_POINT",
    default: "origin",
    meaning: "Where the indexer starts without a checkpoint: `origin` or `<slot>.<block id>`.",
  },
  { name: "PLUGINS_DIR", default: "unset", meaning: "Folder of operator indexer plugins (`.js`/`.cjs` modules)." },
  {
    name: "FRONTEND_URL",
    default: "unset (the gateway's own pages: short links redirect to `/verify/<hash>` on the origin they were opened on)",
    meaning: "Base URL of the certificate pages when they are hosted elsewhere; short links redirect to `<FRONTEND_URL>/verify/<hash>`.",
  },
  {
    name: "SHORT_LINK_DOMAIN",
    default: "http://<HOST>:<PORT>/api/v1/resolve",
    meaning: "Base of the short links (`<SHORT_LINK_DOMAIN>/<code>`) the pages show and link previews name (`og:url`).",
  },
  {
    name: "USER_ACTION_SIGNING_MNEMONIC",
    default: "unset (a key file `DATA_DIR/user-action-signing-key.json` is created)",
    meaning: "Mnemonic of the Ed25519 key that signs user-action and faucet challenges (share it between replicas).",
    secret: true,
  },
  {
    name: "FAUCET_ENABLED",
    default: "true on devnet/preview/preprod, false on mainnet",
    meaning: "Serve `/faucet/request` and `/faucet/claim` (refused on mainnet).",
  },
  {
    name: "FAUCET_MNEMONIC",
    default: "unset (embedded devnet: `DATA_DIR/faucet-wallet.json`, funded at genesis)",
    meaning: "Mnemonic of the faucet wallet that pays test funds.",
    secret: true,
  },
  { name: "FAUCET_UTXO_COUNT", default: "3", meaning: "Outputs sent per faucet claim." },
  { name: "FAUCET_UTXO_AMOUNT_LOVELACE", default: "10000000", meaning: "Lovelace per faucet output." },
  { name: "FAUCET_COOLDOWN_MS", default: "120000", meaning: "Minimum time between two faucet claims of one payment credential." },
  {
    name: "FAUCET_CLAIMS_PER_IP_PER_DAY",
    default: "10",
    meaning: "Faucet claims one client IP may make per UTC day (payment credentials are free to make).",
  },
  {
    name: "FAUCET_DAILY_BUDGET_LOVELACE",
    default: "3000000000",
    meaning: "Lovelace the faucet pays out per UTC day in total, across every replica (shared through the store).",
  },
  {
    name: "BATCH_LEAVES_PER_CLIENT",
    default: "2000000",
    meaning:
      "`POST /batch/build` leaves one client may have waiting in built, not yet anchored batches, and have hashed per 10 minutes; beyond it 429.",
  },
  {
    name: "BATCH_CALENDAR_ENABLED",
    default: "true (on mainnet: only for callers presenting one of `BATCH_API_KEYS`)",
    meaning:
      "Serve `POST /batch/submit` and anchor the pending leaves from the service wallet (`SERVICE_MNEMONIC`, else `DATA_DIR/service-wallet.json`).",
  },
  {
    name: "BATCH_INTERVAL_MS",
    default: "60000",
    meaning: "How often the calendar anchors its pending leaves (one transaction per round).",
  },
  {
    name: "BATCH_MAX_LEAVES",
    default: "100000",
    meaning: "Leaves per calendar anchoring (at most 1,000,000, the batch limit); reaching it anchors at once, before the interval ends.",
  },
  {
    name: "BATCH_MAX_PENDING",
    default: "1000000",
    meaning: "Leaves waiting for the calendar in total, across callers; submissions beyond it are answered 429.",
  },
  {
    name: "BATCH_MAX_PENDING_PER_CLIENT",
    default: "100000",
    meaning: "Leaves waiting for the calendar from one client (an API key of `BATCH_API_KEYS`, else the client's address); beyond it 429.",
  },
  {
    name: "BATCH_API_KEYS",
    default: "unset (on mainnet nobody may submit to the calendar)",
    meaning:
      "Comma-separated calendar API keys (header `X-Api-Key`, at least 16 characters each): on mainnet only their holders may submit; each key has its own pending quota.",
    secret: true,
  },
  {
    name: "BATCH_SUBMIT_MAX_HASHES",
    default: "5000",
    meaning: "Hashes per `POST /batch/submit` request at most (at most 7,000: the request must fit the default 512 KiB body).",
  },
  { name: "REQUEST_TIMEOUT_MS", default: "30000", meaning: "Timeout of one service call (broker requestTimeout)." },
  {
    name: "SHUTDOWN_TIMEOUT_MS",
    default: "10000",
    meaning: "On SIGTERM, how long running requests may finish (keep below terminationGracePeriodSeconds).",
  },
];

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

  let services: ServiceName[] | null = null;
  const servicesRaw = read("SERVICES");
  if (servicesRaw !== undefined) {
    const names = commaList(servicesRaw);
    const unknown = names.filter((n) => !isServiceName(n));
    if (unknown.length > 0) {
      problems.push(`SERVICES names unknown service(s) ${unknown.join(", ")}; known: ${SERVICE_NAMES.join(", ")}.`);
    }
    services = [...new Set(names.filter(isServiceName))];
    if (services.length === 0 && unknown.length === 0) services = null;
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

  const hex = (name: string, bytes: number): string | undefined => {
    const raw = read(name)?.toLowerCase();
    if (raw !== undefined && !new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(raw)) problems.push(`${name} must be ${bytes * 2} hex digits.`);
    return raw;
  };
  let protocol: ProtocolConfig | null = null;
  const proxyTxHash = hex("PROXY_TX_HASH", 32);
  const serviceKeyHash = hex("SERVICE_KEY_HASH", 28);
  const adminsRaw = read("BOOTSTRAP_ADMINS");
  const admins = adminsRaw === undefined ? undefined : commaList(adminsRaw).map((a) => a.toLowerCase());
  for (const a of admins ?? []) if (!/^[0-9a-f]{56}$/.test(a)) problems.push(`BOOTSTRAP_ADMINS entry ${a} is not a 56-hex key hash.`);
  if (proxyTxHash !== undefined) {
    if (serviceKeyHash === undefined) problems.push("SERVICE_KEY_HASH must be set with PROXY_TX_HASH.");
    else
      protocol = {
        proxyOneShot: { txHash: proxyTxHash, index: integer("PROXY_OUTPUT_INDEX", 0, 0) },
        bootstrapAdministrators: admins ?? [serviceKeyHash],
        serviceKeyHash,
      };
  }
  let indexerStartPoint: AppConfig["indexerStartPoint"] = "origin";
  const startRaw = read("INDEXER_START_POINT");
  if (startRaw !== undefined && startRaw !== "origin") {
    const m = /^(\d+)\.([0-9a-fA-F]{64})$/.exec(startRaw);
    if (m) indexerStartPoint = { slot: Number(m[1]), id: m[2]!.toLowerCase() };
    else problems.push("INDEXER_START_POINT must be `origin` or `<slot>.<64-hex block id>`.");
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

  function batchCalendarConfig(): BatchCalendarConfig {
    const atMost = (name: string, value: number, max: number): number => {
      if (value <= max) return value;
      problems.push(`${name}=${value} must be at most ${max}.`);
      return max;
    };
    return {
      enabled: bool("BATCH_CALENDAR_ENABLED", true),
      intervalMs: integer("BATCH_INTERVAL_MS", 60_000, 100),
      // one anchoring is one Merkle batch: the batch limit holds
      maxLeaves: atMost("BATCH_MAX_LEAVES", integer("BATCH_MAX_LEAVES", 100_000, 1), 1_000_000),
      maxPending: integer("BATCH_MAX_PENDING", 1_000_000, 1),
      maxPendingPerClient: integer("BATCH_MAX_PENDING_PER_CLIENT", 100_000, 1),
      apiKeys: calendarApiKeys(),
      // a request must fit the gateway's default body limit (512 KiB: about 68 bytes per quoted hash)
      maxHashesPerRequest: atMost("BATCH_SUBMIT_MAX_HASHES", integer("BATCH_SUBMIT_MAX_HASHES", 5_000, 1), 7_000),
    };
  }

  const config: AppConfig = {
    port: port("PORT", 3000),
    host: read("HOST") ?? (transporter === null ? "127.0.0.1" : "0.0.0.0"),
    transporter,
    services,
    namespace: read("NAMESPACE") ?? "cert-anchor",
    nodeId: read("NODE_ID") ?? null,
    dataDir: read("DATA_DIR") ?? "./data",
    storeEngine: oneOf("STORE_ENGINE", STORE_ENGINES, "sqlite"),
    mongoUrl: url("MONGO_URL", ["mongodb", "mongodb+srv"]),
    ogmiosUrl,
    network,
    metricsEnabled: bool("ENABLE_METRICS", true),
    metricsPort: port("METRICS_PORT", 3030),
    healthPort: port("HEALTH_PORT", 3001),
    logLevel: oneOf("LOG_LEVEL", LOG_LEVELS, "info"),
    rateLimitPostPerMinute: integer("RATE_LIMIT_POST_PER_MINUTE", 20, 0),
    rateLimitReadPerMinute: integer("RATE_LIMIT_READ_PER_MINUTE", 600, 0),
    goodsKdf: { burst: integer("GOODS_KDF_BURST", 300, 1), perMinute: integer("GOODS_KDF_PER_MINUTE", 60, 0) },
    verifyCacheMb: integer("VERIFY_CACHE_MB", 128, 0),
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

/** The configuration as safe-to-log text: secrets and URL credentials masked. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  const maskUrl = (u: string | null): string | null => (u === null ? null : u.replace(/\/\/[^@/]*@/g, "//***@"));
  return {
    ...config,
    transporter: maskUrl(config.transporter),
    mongoUrl: config.mongoUrl === null ? null : "***",
    ogmiosUrl: maskUrl(config.ogmiosUrl),
    adminApiKey: config.adminApiKey === null ? null : "***",
    serviceMnemonic: config.serviceMnemonic === null ? null : "***",
    userActionSigningMnemonic: config.userActionSigningMnemonic === null ? null : "***",
    faucet: { ...config.faucet, mnemonic: config.faucet.mnemonic === null ? null : "***" },
    batchCalendar: { ...config.batchCalendar, apiKeys: config.batchCalendar.apiKeys.map(() => "***") },
  };
}

/** The README's configuration table (Markdown), generated so it cannot drift from the code. */
export function formatEnvTable(): string {
  const rows = ENV_VARS.map((v) => `| \`${v.name}\` | ${v.default} | ${v.meaning} |`);
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}
