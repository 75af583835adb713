/** What the process runs with: the configuration `loadConfig` builds, and its safe-to-log description. */
import type { KeyHash, TxHash } from "../domain/hex";
import type { LogLevel, Network } from "./env-vars";

/** What the process runs with. Built only by `loadConfig`; tests build it with `loadConfig({ ... })`. */
export interface AppConfig {
  /** Gateway HTTP port (0 = any free port). */
  readonly port: number;
  /** Interface the gateway, health and metrics servers bind to. */
  readonly host: string;
  /** NATS URL(s) for scale mode; null = embedded (every service in one process, no transporter). */
  readonly transporter: string | null;
  /** Services this process runs; null = all of them. */
  readonly services: readonly string[] | null;
  readonly namespace: string;
  readonly nodeId: string | null;
  readonly dataDir: string;
  readonly mongoUrl: string | null;
  readonly ogmiosUrl: string | null;
  readonly network: Network;
  readonly metricsEnabled: boolean;
  readonly metricsPort: number;
  readonly healthPort: number;
  readonly logLevel: LogLevel;
  /** One `info` record per HTTP request the gateway answers (ACCESS_LOG). */
  readonly accessLog: boolean;
  /** POST requests allowed per client (IPv4 address, IPv6 /64) per minute; 0 = no limit. */
  readonly rateLimitPostPerMinute: number;
  /** GETs of the expensive reads (`/verify`, `/proof`, connected-goods reads) per client per minute; 0 = no limit. */
  readonly rateLimitReadPerMinute: number;
  /** Claiming-password key derivations the connected-goods service runs per client (docs/connected-goods.md#limits). */
  readonly goodsKdf: GoodsKdfConfig;
  /** Memory budget of the gateway's whole verify answers, in MiB (0: validators only). */
  readonly verifyCacheMb: number;
  /** The public events (docs/events.md): their finality depth and the gateway's limits on streams. */
  readonly events: EventsConfig;
  /** The webhooks' operator settings (docs/webhooks.md#settings). */
  readonly webhooks: WebhooksConfig;
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
  /** A public explorer's transaction page, `{tx}` standing for the id (shared/config/explorer.ts); null = no links. */
  readonly explorerUrl: string | null;
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

export interface EventsConfig {
  /** The depth of a transaction's last, final, `transaction.confirmed` event. */
  readonly finalityDepth: number;
  /** Event streams one gateway replica keeps open at once. */
  readonly maxStreams: number;
  /** Event streams one client may keep open at once on one gateway replica. */
  readonly maxStreamsPerClient: number;
  /** Days the event log keeps an event (by when it was stored); 0: forever. */
  readonly retentionDays: number;
}

export interface WebhooksConfig {
  /** Endpoints on loopback, private and link-local addresses are allowed (closed networks, tests). */
  readonly allowPrivateNetworks: boolean;
  /** `http:` endpoints are allowed. */
  readonly allowHttp: boolean;
  readonly maxEndpoints: number;
  /** Endpoints one management token holds. */
  readonly maxEndpointsPerToken: number;
  /** Registrations one client makes per hour on one replica (0: no limit). */
  readonly registrationsPerHour: number;
  /** Delays between a delivery's attempts, ms. */
  readonly retryScheduleMs: readonly number[];
  /** Dead deliveries in a row that disable an endpoint. */
  readonly disableAfterFailedDeliveries: number;
  readonly requestTimeoutMs: number;
  /** Attempts in flight on one replica. */
  readonly concurrency: number;
}

export interface GoodsKdfConfig {
  /** Derivations one client may run at once (a token bucket's size): the largest mint it can ask for. */
  readonly burst: number;
  /** Derivations given back per minute; 0 = no budget. */
  readonly perMinute: number;
}

export interface BatchCalendarConfig {
  /** Serve `/batch/submit` and anchor the log's checkpoints (on mainnet only for callers presenting one of `apiKeys`). */
  readonly enabled: boolean;
  /** The log's latest checkpoint is anchored this often (Unix ms between two anchoring rounds). */
  readonly intervalMs: number;
  /** At most this many hashes waiting for an anchoring round in total (submissions beyond it are refused with 429). */
  readonly maxPending: number;
  /** At most this many hashes waiting from one client (an API key, else a client address). */
  readonly maxPendingPerClient: number;
  /** The calendar's own API keys (BATCH_API_KEYS); never logged. */
  readonly apiKeys: readonly string[];
  /** At most this many hashes per `/batch/submit` request. */
  readonly maxHashesPerRequest: number;
  /** The transparency log the calendar's hashes go to (docs/transparency-log.md). */
  readonly log: TransparencyLogConfig;
}

export interface TransparencyLogConfig {
  /** The checkpoints' origin line and the log key's name. */
  readonly origin: string;
  /** The log's signer key (`PRIVATE+KEY+…`); null = the key file DATA_DIR/log-key, made on first start. Never logged. */
  readonly signerKey: string | null;
  /** A submitted hash is in a signed checkpoint within this time (ms between two sequencing rounds). */
  readonly integrateMs: number;
  /** The witnesses asked to cosign each checkpoint (c2sp.org/tlog-witness): submission prefix and cosigner key. */
  readonly witnesses: readonly { readonly url: string; readonly verifierKey: string }[];
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
  readonly proxyOneShot: { txHash: TxHash; index: number };
  /** Key hashes allowed to mint and burn bootstrap datums. */
  readonly bootstrapAdministrators: readonly KeyHash[];
  /** Payment key hash of the service wallet: owner of the proxy pointer and administrator of the library. */
  readonly serviceKeyHash: KeyHash;
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
    batchCalendar: {
      ...config.batchCalendar,
      apiKeys: config.batchCalendar.apiKeys.map(() => "***"),
      log: { ...config.batchCalendar.log, signerKey: config.batchCalendar.log.signerKey === null ? null : "***" },
    },
  };
}
