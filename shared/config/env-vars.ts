/**
 * Every environment variable the system reads, in one table (`ENV_VARS`): name, default and meaning. `loadConfig`
 * reads only names in it, and the README's configuration table is generated from it (`formatEnvTable`; a test keeps
 * the two equal). Defaults describe the embedded mode (`npm start`: one process, no transporter, embedded devnet
 * and store).
 *
 * Env names never collide with moleculer-runner's option overrides (it overwrites any broker option whose
 * upper-cased path is set, e.g. `METRICS`, `LOGLEVEL`, `METRICS_ENABLED`). Only `TRANSPORTER` and `NAMESPACE`
 * match a broker option, on purpose and with the same meaning (test/mesh/config.spec.ts checks this).
 */
import { CORE_SERVICE_NAMES } from "./service-names";

export const NETWORKS = ["devnet", "preview", "preprod", "mainnet"] as const;
export type Network = (typeof NETWORKS)[number];

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface EnvVarSpec {
  readonly name: string;
  /** Default as shown to humans ("unset" when there is none). */
  readonly default: string;
  readonly meaning: string;
  /** Never printed (startup summary shows "***"). */
  readonly secret?: boolean;
}

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
    meaning: `Comma-separated services this process runs: ${CORE_SERVICE_NAMES.join(", ")}, and the extensions' services (docs/architecture.md#services).`,
  },
  { name: "NAMESPACE", default: "cert-anchor", meaning: "Moleculer namespace; isolates deployments sharing one NATS." },
  { name: "NODE_ID", default: "<hostname>-<pid>", meaning: "Moleculer node id of this process." },
  {
    name: "DATA_DIR",
    default: "./data",
    meaning: "Folder of the embedded store (SQLite, `DATA_DIR/store.sqlite`, when MONGO_URL is unset) and embedded devnet.",
  },
  {
    name: "MONGO_URL",
    default: "unset (embedded SQLite store under DATA_DIR)",
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
    name: "ACCESS_LOG",
    default: "on",
    meaning:
      'One `info` record per HTTP request the gateway answers (`msg` "request": method, path without its query, status, duration in ms, request id); `off` leaves them out. Never bodies, queries or credentials.',
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
    name: "EVENTS_FINALITY_DEPTH",
    default: "15",
    meaning:
      "Depth at which a transaction's last `transaction.confirmed` event says `final: true` (docs/events.md); one event per block the events service sees until then. 15 blocks is about 5 minutes on mainnet, past the depth of the forks Cardano's nodes meet in practice (a few blocks), far below k = 2160, the rollbacks the events still announce.",
  },
  {
    name: "EVENTS_MAX_STREAMS",
    default: "1000",
    meaning:
      "Server-Sent Events streams (`GET /api/v1/events`) one gateway replica keeps open at once; more are answered 429 `TOO_MANY_STREAMS`. Each costs a socket and at most one page of events in memory.",
  },
  {
    name: "EVENTS_MAX_STREAMS_PER_CLIENT",
    default: "10",
    meaning: "Event streams one client (IPv4 address, IPv6 /64; see TRUST_PROXY) may keep open at once on one gateway replica.",
  },
  {
    name: "EVENTS_RETENTION_DAYS",
    default: "30",
    meaning:
      "Days the event log (`events_log`) keeps an event, counted from when it was stored; older ones are deleted every 10 minutes by the events replica holding the producer's lease (the newest event is always kept). Resuming from an id older than what is kept is answered 410 `EVENTS_EXPIRED` (SSE `after`/`Last-Event-ID`, webhook replay). 0 = keep every event.",
  },
  {
    name: "WEBHOOKS_ALLOW_PRIVATE_NETWORKS",
    default: "false",
    meaning:
      "Let webhook endpoints resolve to loopback, private (RFC 1918), CGNAT, link-local (cloud metadata) and unique-local addresses (docs/webhooks.md#ssrf). Off, such an endpoint is refused with 400 `ENDPOINT_ADDRESS_REFUSED` when registered and every delivery attempt checks again. Turn on only for a closed network or a local receiver; unspecified, multicast and broadcast addresses are refused whatever it says.",
  },
  {
    name: "WEBHOOKS_ALLOW_HTTP",
    default: "true on the devnet, else false",
    meaning: "Accept `http:` webhook endpoints (else `https:` only). Deliveries over plain HTTP can be read and replayed on the way.",
  },
  {
    name: "WEBHOOKS_MAX_ENDPOINTS",
    default: "10000",
    meaning: "Webhook endpoints the service holds in total; a registration beyond it is answered 409 `WEBHOOK_LIMIT_REACHED`.",
  },
  {
    name: "WEBHOOKS_MAX_ENDPOINTS_PER_TOKEN",
    default: "20",
    meaning: "Webhook endpoints one management token may hold; a registration beyond it is answered 409 `WEBHOOK_LIMIT_REACHED`.",
  },
  {
    name: "WEBHOOKS_REGISTRATIONS_PER_HOUR",
    default: "20",
    meaning:
      "`POST /api/v1/webhooks` one client (IPv4 address, IPv6 /64; see TRUST_PROXY) may make per hour on one events replica, refused ones included; more are answered 429 `WEBHOOK_REGISTRATIONS_RATE_LIMITED` (with `Retry-After`). 0 = no limit.",
  },
  {
    name: "WEBHOOKS_RETRY_SCHEDULE",
    default: "5s,30s,2m,10m,30m,1h,2h,4h,8h",
    meaning:
      "Delays between a delivery's attempts (each ± 10 %; a number without a unit is milliseconds); one attempt more than delays, then the delivery is dead (the endpoint's dead letters). The default makes ten attempts over 15 h 42 min.",
  },
  {
    name: "WEBHOOKS_DISABLE_AFTER_FAILED_DELIVERIES",
    default: "5",
    meaning:
      "Deliveries in a row that end dead after which an endpoint is disabled (an `endpoint.disabled` event says so); a delivered one resets the count. An endpoint answering 410 Gone is disabled at once.",
  },
  {
    name: "WEBHOOKS_REQUEST_TIMEOUT_MS",
    default: "10000",
    meaning:
      "One delivery attempt, from connecting to the end of reading the (first 4 KiB of the) answer; longer counts as a failed attempt.",
  },
  {
    name: "WEBHOOKS_CONCURRENCY",
    default: "16",
    meaning: "Delivery attempts one events replica has in flight at once (at most 2 to one endpoint, so a slow endpoint holds at most 2).",
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
    name: "EXPLORER_URL",
    default: "Cardanoscan on preview, preprod and mainnet (`https://<network>.cardanoscan.io/transaction/{tx}`); none on the devnet",
    meaning:
      "Transaction page of a public block explorer, `{tx}` standing for the transaction id (e.g. `https://cexplorer.io/tx/{tx}`); the web pages link each transaction there. `none` turns the links off.",
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
      "Serve `POST /batch/submit` (the hashes go to the transparency log) and anchor the log's checkpoints from the service wallet (`SERVICE_MNEMONIC`, else `DATA_DIR/service-wallet.json`).",
  },
  {
    name: "BATCH_INTERVAL_MS",
    default: "60000",
    meaning:
      "How often the calendar anchors the transparency log's latest checkpoint on Cardano (one transaction per round, when the log grew).",
  },
  {
    name: "LOG_ORIGIN",
    default: "localhost/cert-anchor/<NETWORK>",
    meaning:
      "The transparency log's origin (first line of its checkpoints, name of its key): a schema-less URL naming this deployment's log.",
  },
  {
    name: "LOG_SIGNER_KEY",
    default: "unset (the key file `DATA_DIR/log-key`, made on first start)",
    meaning: "The transparency log's Ed25519 signer key, `PRIVATE+KEY+<LOG_ORIGIN>+…` (signed-note format). Never logged.",
    secret: true,
  },
  {
    name: "LOG_INTEGRATE_MS",
    default: "500",
    meaning:
      "How often the transparency log appends the submitted hashes and signs a checkpoint (a hash is in a signed checkpoint within about this time).",
  },
  {
    name: "LOG_WITNESSES",
    default: "unset (no witness)",
    meaning:
      "Witnesses asked to cosign each transparency-log checkpoint (c2sp.org/tlog-witness), comma-separated `<submission prefix URL>=<witness verifier key>`; the log serves their cosignatures with the checkpoint.",
  },
  {
    name: "BATCH_MAX_PENDING",
    default: "1000000",
    meaning: "Hashes waiting for the calendar's next anchoring round in total, across callers; submissions beyond it are answered 429.",
  },
  {
    name: "BATCH_MAX_PENDING_PER_CLIENT",
    default: "100000",
    meaning:
      "Hashes waiting for the calendar's next anchoring round from one client (an API key of `BATCH_API_KEYS`, else the client's address); beyond it 429.",
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

/** The README's configuration table (Markdown), generated so it cannot drift from the code. */
export function formatEnvTable(): string {
  const rows = ENV_VARS.map((v) => `| \`${v.name}\` | ${v.default} | ${v.meaning} |`);
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}
