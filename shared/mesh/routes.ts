/**
 * THE route table of the public HTTP API (docs/api.md#route-index). The gateway's aliases, its action
 * whitelist and the OpenAPI document are all generated from this one list, so they cannot drift apart.
 *
 * Conventions:
 * - `path` is relative to `/api/v1` and written in OpenAPI form (`/verify/{hash}`).
 * - `action` is `<service>.<action>` (services are not versioned, see service-names.ts).
 * - `implemented: false` makes the gateway answer 501 `NOT_IMPLEMENTED` without calling anything. A service's
 *   issue flips it to `true`; from then on `defineRouteActions` (route-actions.ts) makes the service file fail to
 *   compile until it declares that action, and test/mesh/route-actions.spec.ts checks it is registered.
 */
import type { ServiceName } from "../config/service-names";
import type { SchemaName } from "./response-schemas";
import type { CacheKind } from "./read-caching";
import { BATCH_BINARY_BODY_LIMIT_BYTES, BATCH_JSON_BODY_LIMIT_BYTES } from "../merkle/batch-limits";
import { EXTENSION_ROUTES } from "../extensions/registry";

export type HttpMethod = "GET" | "POST";

export interface QueryParamSpec {
  readonly name: string;
  readonly required: boolean;
  readonly description: string;
}

export interface RouteSpec {
  readonly method: HttpMethod;
  /** Relative to `/api/v1`, OpenAPI form: `/txs/{txHash}/scripts`. */
  readonly path: string;
  /** `<service>.<action>` the gateway calls. */
  readonly action: string;
  /** OpenAPI tag (group). */
  readonly tag: string;
  readonly summary: string;
  /** What the body carries (POST), in words. */
  readonly request?: string;
  /** What a 200 (or `successStatus`) answers, in words. */
  readonly response: string;
  /** The status of a successful answer when it is not 200 (the action sets it in `ctx.meta.$statusCode`). */
  readonly successStatus?: 202;
  /** Content type of a 200 (default application/json). */
  readonly responseType?: "application/json" | "text/html" | "text/plain";
  /** Schema of a 200 JSON body (response-schemas.ts). */
  readonly responseSchema?: SchemaName;
  /** A `text/plain` route whose 200 is JSON of this schema instead for some bodies (the request form decides). */
  readonly alsoJson?: SchemaName;
  /** The error codes the route's service answers (their statuses come from HTTP_STATUS_OF_TYPE). */
  readonly errors?: readonly string[];
  /** Schema of those errors' bodies, when they carry the route's own fields beside `error` and `message`. */
  readonly failureSchema?: SchemaName;
  /** Error codes of a route with a `failureSchema` that answer the plain error body all the same. */
  readonly plainErrors?: readonly string[];
  /** Content type of an error status other than JSON (an HTML page). */
  readonly errorResponseType?: Readonly<Record<number, "text/html">>;
  /** Descriptions of error statuses, in words (default: a generic one). */
  readonly statuses?: Readonly<Record<number, string>>;
  readonly query?: readonly QueryParamSpec[];
  /** Regex patterns of path parameters. */
  readonly pathPatterns?: Readonly<Record<string, string>>;
  readonly implemented: boolean;
  /** "admin": needs ADMIN_API_KEY when it is configured. */
  readonly auth?: "admin";
  /** Needs the deployed protocol: answers 503 while the embedded first start is still deploying it. */
  readonly requiresProtocol?: true;
  /** The whole body (any JSON value, or raw text) is passed to the action as this param. */
  readonly wholeBodyAs?: string;
  /**
   * An `application/octet-stream` body is accepted too and passed to the action, as bytes, in this param (the
   * other params then come from the query string).
   */
  readonly binaryBodyAs?: string;
  /** This route's body limits, above the gateway's default (raised only for routes that need it). */
  readonly bodyLimitBytes?: { readonly json: number; readonly binary?: number };
  /** Params the gateway adds to every call of this route (one action serving several paths). */
  readonly fixedParams?: Readonly<Record<string, string>>;
  /** Answers carry `ETag` and `Cache-Control` and may answer 304 (read-caching.ts, docs/api.md#caching). */
  readonly cache?: CacheKind;
  /** A GET that costs the services work: counted against the per-client read budget (RATE_LIMIT_READ_PER_MINUTE). */
  readonly readBudget?: true;
  /** The action stops its work when the client leaves before the answer (request-signals.ts). */
  readonly abandonable?: true;
}

const TX_HASH = "^[0-9a-fA-F]{64}$";
const BATCH_BODY_LIMITS = { json: BATCH_JSON_BODY_LIMIT_BYTES, binary: BATCH_BINARY_BODY_LIMIT_BYTES } as const;

const pluginListRoutes = (segment: string, label: string) =>
  [
    {
      method: "GET",
      path: `/admin/plugins/${segment}`,
      action: "plugin-monitor.list",
      tag: "plugins",
      summary: `List the indexer's ${label} plugins`,
      response: "PluginListResponse",
      responseSchema: "PluginList",
      fixedParams: { type: segment },
      auth: "admin",
      implemented: true,
    },
    {
      method: "GET",
      path: `/admin/plugins/${segment}/{name}`,
      action: "plugin-monitor.detail",
      tag: "plugins",
      summary: `Details and execution metrics of one ${label} plugin`,
      response: "PluginDetailResponse",
      responseSchema: "PluginDetail",
      errors: ["NOT_FOUND"],
      statuses: { 404: "no plugin of that type and name" },
      fixedParams: { type: segment },
      auth: "admin",
      implemented: true,
    },
  ] as const;

export const ROUTES = [
  // ── meta (served by the gateway itself) ─────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/openapi.json",
    action: "gateway.openapi",
    tag: "meta",
    summary: "This API as an OpenAPI 3 document",
    response: "OpenAPI 3.0 document generated from the gateway's route table",
    responseSchema: "OpenApiDocument",
    implemented: true,
  },
  {
    method: "GET",
    path: "/extensions",
    action: "gateway.extensions",
    tag: "meta",
    summary: "Which extensions this instance runs",
    response: "object: extension identifier → enabled (connected-goods, fractionized-certificate, tokenizable-certificate)",
    responseSchema: "Extensions",
    implemented: true,
  },

  // ── transactions ────────────────────────────────────────────────────────────────────────────────
  {
    method: "POST",
    path: "/transaction/build",
    requiresProtocol: true,
    action: "tx-builder.build",
    tag: "transaction",
    summary: "Build an unsigned transaction (certificates, bootstrap, init, burn, deploy)",
    request: "BuildTransactionRequest { type, address, certificates[], bootstrapDatum?, stateId? }",
    response: "BuildTransactionResponse { unsignedTransaction, type, status { code, message } }",
    statuses: { 409: "PENDING_TRANSACTION (BuildTransactionResponse)" },
    responseSchema: "BuildTransactionResponse",
    errors: ["ERROR", "UNKNOWN_ERROR", "INSUFFICIENT_FUNDS", "COLLATERAL_REQUIRED", "PENDING_TRANSACTION"],
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "POST",
    path: "/batch/build",
    requiresProtocol: true,
    action: "tx-builder.buildBatch",
    tag: "batch",
    summary: "Build the anchoring of a Merkle batch of up to 1,000,000 hashes (one certificate: the tree's root)",
    request:
      "BatchBuildRequest { address, hashes: [64-hex…], algorithm?: merkle-sha256-rfc9162, metadata?, stateId? } as JSON, or the hashes as application/octet-stream (32 bytes each, back to back) with address, metadata and stateId in the query string",
    response: "BuildTransactionResponse plus merkleRoot, treeId, leafCount",
    statuses: {
      400: "malformed hashes, empty batch, more than 1,000,000 hashes (maxHashes), or a refused build",
      409: "PENDING_TRANSACTION",
      429: "BATCH_QUOTA_EXCEEDED: this client has BATCH_LEAVES_PER_CLIENT leaves hashed and waiting (leavesPerClient, retryAfterSeconds)",
    },
    query: [
      { name: "address", required: false, description: "with an application/octet-stream body: the wallet address that pays and signs" },
      {
        name: "metadata",
        required: false,
        description: "with an application/octet-stream body: the certificate metadata (JSON object text)",
      },
      { name: "stateId", required: false, description: "with an application/octet-stream body: the state to use" },
    ],
    responseSchema: "BatchBuildResponse",
    errors: ["ERROR", "UNKNOWN_ERROR", "INSUFFICIENT_FUNDS", "COLLATERAL_REQUIRED", "PENDING_TRANSACTION"],
    failureSchema: "BuildFailure",
    plainErrors: ["BATCH_QUOTA_EXCEEDED"],
    binaryBodyAs: "hashes",
    bodyLimitBytes: BATCH_BODY_LIMITS,
    implemented: true,
  },
  {
    method: "POST",
    path: "/transaction/submit",
    action: "submitter.submit",
    tag: "transaction",
    summary: "Submit a signed transaction (optionally merging a witness set)",
    request: "SubmitTransactionRequest { transaction (CBOR hex), witnessSet? }",
    response: "{ transactionHash }",
    statuses: {
      400: "malformed CBOR (INVALID_TRANSACTION) or rejected by the ledger (LEDGER_REJECTED: the reason in `message`, the Ogmios `code`)",
      409: "an input is already spent by a transaction still in flight (INPUTS_IN_FLIGHT), or a confirmed one took the list entry an extension transaction spends (ENTRY_TAKEN); for extension transactions that lost a race the body carries rebuiltTransaction",
    },
    responseSchema: "SubmitResponse",
    errors: ["INVALID_TRANSACTION", "LEDGER_REJECTED", "INPUTS_IN_FLIGHT", "ENTRY_TAKEN", "CHAIN_UNAVAILABLE"],
    implemented: true,
  },
  {
    method: "POST",
    path: "/transaction/prepare-collateral",
    requiresProtocol: true,
    action: "tx-builder.prepareCollateral",
    tag: "transaction",
    summary: "Build a transaction creating a dedicated 5 ADA collateral UTxO",
    request: "PrepareCollateralRequest { senderAddress }",
    response: "BuildTransactionResponse (COLLATERAL_ALREADY_AVAILABLE when nothing is to be signed)",
    statuses: { 409: "all UTxOs locked by in-flight transactions" },
    responseSchema: "BuildTransactionResponse",
    errors: ["ERROR", "UNKNOWN_ERROR", "INSUFFICIENT_FUNDS", "COLLATERAL_REQUIRED", "PENDING_TRANSACTION"],
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/transaction/confirm/{hash}",
    action: "submitter.confirm",
    tag: "transaction",
    summary: "Is the transaction on chain?",
    response: "200 once included",
    statuses: { 404: "not (yet) on chain" },
    pathPatterns: { hash: TX_HASH },
    responseSchema: "Confirmation",
    errors: ["NOT_FOUND"],
    implemented: true,
  },

  // ── verification ────────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/verify/{hash}",
    action: "verifier.byHash",
    readBudget: true,
    cache: "certificate-list",
    tag: "verify",
    summary: "Certificates anchoring this data hash (oldest first)",
    response: "array of certificate records",
    statuses: { 404: "no certificate for this hash" },
    responseSchema: "CertificateRecords",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/verify/by-transaction-hash/{transactionHash}/{dataHash}",
    action: "verifier.byTransactionHash",
    readBudget: true,
    cache: "certificate-record",
    tag: "verify",
    summary: "The certificate of this data hash in this transaction",
    response: "one certificate record",
    statuses: { 404: "not found" },
    pathPatterns: { transactionHash: TX_HASH },
    responseSchema: "CertificateRecord",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "POST",
    path: "/batch/submit",
    requiresProtocol: true,
    action: "tx-builder.submitToCalendar",
    tag: "batch",
    summary: "Hand hashes to the aggregated calendar: the service anchors them in its next Merkle batch, from its own wallet",
    request: "CalendarSubmitRequest { hashes: [64-hex…] } (at most BATCH_SUBMIT_MAX_HASHES)",
    response:
      "CalendarSubmitResponse { status: pending, submittedAt, expectedAnchorBy, receiptUrl: /api/v1/batch/receipt/{receiptId}, receipts: [{ receiptId, hash }], pending }",
    successStatus: 202,
    statuses: {
      400: "malformed, missing or empty hashes, or more than BATCH_SUBMIT_MAX_HASHES (maxHashes)",
      401: "on mainnet: the API key (X-Api-Key) is missing or wrong",
      403: "the calendar is disabled (BATCH_CALENDAR_ENABLED=false)",
      429: "CALENDAR_FULL: BATCH_MAX_PENDING hashes already wait (maxPending, retryAfterSeconds)",
    },
    responseSchema: "CalendarSubmitResponse",
    errors: ["BAD_REQUEST", "UNAUTHORIZED", "CALENDAR_DISABLED", "CALENDAR_FULL"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/batch/receipt/{receiptId}",
    action: "tx-builder.calendarReceipt",
    tag: "batch",
    summary: "Status of a calendar receipt: pending, submitted (its batch's transaction is sent) or anchored",
    response:
      "CalendarReceipt { receiptId, hash, status, submittedAt, statusUrl, expectedAnchorBy? (pending), merkleRoot?, treeId?, transactionHash?, proofUrl? (anchored) }",
    statuses: { 403: "the calendar is disabled (BATCH_CALENDAR_ENABLED=false)", 404: "no receipt with this id" },
    pathPatterns: { receiptId: "^[0-9a-f]{32}$" },
    responseSchema: "CalendarReceipt",
    errors: ["NOT_FOUND", "CALENDAR_DISABLED"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/proof/{hash}",
    action: "verifier.proof",
    readBudget: true,
    tag: "verify",
    summary: "Inclusion proof of a hash anchored inside a Merkle batch, checkable offline",
    response:
      "array of proofs (one per anchored batch holding the hash): scheme, leaf, leafIndex, treeSize, path, root, treeId, the anchoring transaction's id and signed CBOR (transactionCbor), its block (blockHash, blockNumber, slot) and the point of the block before it (previousBlock)",
    statuses: { 404: "no anchored batch holds this hash (or its anchoring transaction is not on chain)" },
    pathPatterns: { hash: TX_HASH },
    responseSchema: "BatchProofs",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/resolve/{code}",
    action: "verifier.resolve",
    tag: "verify",
    summary: "Resolve a short link",
    response: "HTML page",
    responseType: "text/html",
    errors: ["INVALID_SHORT_CODE", "NOT_FOUND"],
    errorResponseType: { 404: "text/html" },
    implemented: true,
  },
  {
    method: "GET",
    path: "/short-link/{hash}",
    action: "verifier.shortLink",
    tag: "verify",
    summary: "The short link of a certificate hash, when its code is bound to this hash",
    response: "ShortLink { hash, code, url }",
    statuses: { 404: "no short link: the hash is not anchored, shorter than 16 bytes, or its code belongs to an earlier hash" },
    responseSchema: "ShortLink",
    errors: ["NOT_FOUND"],
    implemented: true,
  },

  // ── user state ──────────────────────────────────────────────────────────────────────────────────
  {
    method: "POST",
    path: "/user/request/action",
    requiresProtocol: true,
    action: "user-state.requestAction",
    tag: "user",
    summary: "Step 1 of a user action: get the message to sign",
    request: "UserActionRequest { address, action: USER_INFO|INVALIDATE_STATE|OPT_OUT, stateId? }",
    response: "UserActionResponse { address, action, message, signature, timestamp, status }",
    responseSchema: "UserActionChallenge",
    errors: ["MISSING_FIELD", "INVALID_FIELD", "INVALID_ACTION", "INVALID_ADDRESS", "STATE_ID_REQUIRED"],
    failureSchema: "UserActionFailure",
    implemented: true,
  },
  {
    method: "POST",
    path: "/user/state/action",
    requiresProtocol: true,
    action: "user-state.executeAction",
    tag: "user",
    summary: "Step 2 of a user action: execute it with the wallet's signature",
    request: "ExecuteUserActionRequest { address, action, stateId?, message, signature, userSignature, userPublicKey, timestamp }",
    response: "ExecuteUserActionResponse { state?, unsignedTransaction?, status, error? }",
    responseSchema: "UserActionResult",
    errors: [
      "MISSING_FIELD",
      "INVALID_FIELD",
      "INVALID_ACTION",
      "INVALID_ADDRESS",
      "STATE_ID_REQUIRED",
      "INVALID_MESSAGE",
      "INVALID_SIGNATURE",
      "EXPIRED_CHALLENGE",
      "CHALLENGE_REPLAYED",
      "STATE_NOT_FOUND",
      "NO_ACTIVE_STATE",
      "STATE_IS_ORACLE",
      "ERROR",
      "UNKNOWN_ERROR",
      "INSUFFICIENT_FUNDS",
      "COLLATERAL_REQUIRED",
      "PENDING_TRANSACTION",
    ],
    failureSchema: "UserActionFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/user/bootstrap-access",
    action: "user-state.bootstrapAccess",
    tag: "user",
    summary: "Does the address hold an active state forked from this bootstrap token?",
    response: "boolean",
    query: [
      { name: "address", required: true, description: "wallet address (bech32)" },
      { name: "tokenName", required: true, description: "bootstrap token name" },
    ],
    responseSchema: "Boolean",
    errors: ["MISSING_PARAMETER", "INVALID_ADDRESS"],
    implemented: true,
  },

  // ── faucet (devnet and testnets only, docs/decisions.md#faucet) ─────────────────────────────────────────────
  {
    method: "POST",
    path: "/faucet/request",
    requiresProtocol: true,
    action: "user-state.faucetRequest",
    tag: "faucet",
    summary: "Step 1 of a faucet claim: get the message to sign (devnet/testnets only)",
    request: "{ address }",
    response: "challenge message and service signature",
    responseSchema: "FaucetChallenge",
    errors: ["MISSING_FIELD", "INVALID_FIELD", "INVALID_ADDRESS", "FAUCET_DISABLED", "FAUCET_COOLDOWN", "FAUCET_NOT_CONFIGURED"],
    failureSchema: "UserActionFailure",
    implemented: true,
  },
  {
    method: "POST",
    path: "/faucet/claim",
    requiresProtocol: true,
    action: "user-state.faucetClaim",
    tag: "faucet",
    summary: "Step 2 of a faucet claim: receive test funds (devnet/testnets only)",
    request: "signed challenge (as user actions)",
    response: "{ transactionHash }",
    responseSchema: "FaucetClaim",
    errors: [
      "MISSING_FIELD",
      "INVALID_FIELD",
      "INVALID_ADDRESS",
      "FAUCET_DISABLED",
      "FAUCET_COOLDOWN",
      "FAUCET_NOT_CONFIGURED",
      "INVALID_MESSAGE",
      "INVALID_SIGNATURE",
      "EXPIRED_CHALLENGE",
      "CHALLENGE_REPLAYED",
      "FAUCET_IP_LIMIT",
      "FAUCET_DAILY_BUDGET",
      "FAUCET_EMPTY",
      "FAUCET_SUBMIT_FAILED",
      "CHAIN_UNAVAILABLE",
    ],
    failureSchema: "UserActionFailure",
    implemented: true,
  },

  // ── credentials ─────────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/credential/{paymentCredential}",
    action: "credential.byPaymentCredential",
    tag: "credential",
    summary: "Active credentials of a payment credential (or bech32 address)",
    response: "credentials (one object when `type` is given)",
    query: [{ name: "type", required: false, description: "only credentials of this type" }],
    statuses: { 404: "no active credential" },
    responseSchema: "Credentials",
    errors: ["INVALID_PAYMENT_CREDENTIAL", "NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/credential/by-hash/{authHash}",
    action: "credential.byAuthHash",
    tag: "credential",
    summary: "The credential registered by this AUTH certificate (active or revoked)",
    response: "credential",
    query: [
      {
        name: "issuer",
        required: false,
        description:
          "the issuer you trust (payment credential or bech32 address); its registration, with every other issuer of the same hash in `alsoRegisteredBy`. Without it, the hash's registration when one issuer registered it, else 409",
      },
    ],
    statuses: {
      404: "not found",
      409: "AMBIGUOUS_CREDENTIAL: several issuers registered this hash and no `issuer` was named (`issuers` lists them, oldest first)",
    },
    responseSchema: "Credential",
    errors: ["NOT_FOUND", "AMBIGUOUS_CREDENTIAL"],
    failureSchema: "CredentialLookupFailure",
    implemented: true,
  },

  // ── library ─────────────────────────────────────────────────────────────────────────────────────
  {
    method: "POST",
    path: "/library/deploy/proxy",
    requiresProtocol: true,
    action: "library.deployProxy",
    tag: "library",
    summary: "Build the deployment of the proxy script (signed by the service wallet)",
    request: "none",
    response: "BuildTransactionResponse",
    responseSchema: "BuildTransactionResponse",
    errors: ["ERROR", "UNKNOWN_ERROR", "INSUFFICIENT_FUNDS", "COLLATERAL_REQUIRED", "PENDING_TRANSACTION", "NOT_CONFIGURED"],
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "POST",
    path: "/library/upgrade/proxy",
    requiresProtocol: true,
    action: "library.upgradeProxy",
    tag: "library",
    summary: "Build an upgrade of the proxy script",
    request: "a JSON string (or raw text): the new script reference",
    response: "BuildTransactionResponse",
    wholeBodyAs: "scriptReference",
    query: [
      {
        name: "bootstrapAdministrators",
        required: false,
        description: "comma-separated key hashes the new state script is applied with (default: the deployment's)",
      },
      { name: "force", required: false, description: "true: upgrade to a script that is not a state script for this proxy" },
    ],
    responseSchema: "BuildTransactionResponse",
    errors: ["ERROR", "UNKNOWN_ERROR", "INSUFFICIENT_FUNDS", "COLLATERAL_REQUIRED", "PENDING_TRANSACTION", "NOT_CONFIGURED"],
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/library/undeploy/{transactionHash}/{outputIndex}",
    requiresProtocol: true,
    action: "library.undeploy",
    tag: "library",
    summary: "Build a transaction removing one library script UTxO",
    response: "BuildTransactionResponse",
    pathPatterns: { transactionHash: TX_HASH, outputIndex: "^\\d+$" },
    responseSchema: "BuildTransactionResponse",
    errors: ["ERROR", "UNKNOWN_ERROR", "INSUFFICIENT_FUNDS", "COLLATERAL_REQUIRED", "PENDING_TRANSACTION", "NOT_CONFIGURED"],
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/library/undeploy/unused",
    requiresProtocol: true,
    action: "library.undeployUnused",
    tag: "library",
    summary: "Build a transaction reclaiming every unused library script UTxO",
    response: "BuildTransactionResponse",
    responseSchema: "BuildTransactionResponse",
    errors: ["ERROR", "UNKNOWN_ERROR", "INSUFFICIENT_FUNDS", "COLLATERAL_REQUIRED", "PENDING_TRANSACTION", "NOT_CONFIGURED"],
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/library/deployments",
    action: "library.deployments",
    tag: "library",
    summary: "Current on-chain deployment state of the library scripts",
    response: "LibraryDeploymentResponse",
    responseSchema: "LibraryDeploymentResponse",
    errors: ["NOT_CONFIGURED"],
    implemented: true,
  },

  // ── extensions (each extension's slice, shared/extensions/registry.ts) ─────────────────────────
  ...EXTENSION_ROUTES,

  // ── statistics ──────────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/statistic/tx-fees",
    action: "stats.txFees",
    tag: "statistic",
    summary: "Accumulated service fees in lovelace",
    response: "integer",
    responseSchema: "Lovelace",
    implemented: true,
  },
  {
    method: "GET",
    path: "/statistic/certificate/by-category",
    action: "stats.certificatesByCategory",
    tag: "statistic",
    summary: "Certificate count per category",
    response: "object: category → count",
    responseSchema: "CertificatesByCategory",
    implemented: true,
  },

  // ── scripts, datums and transactions (indexer) ──────────────────────────────────────────────────
  {
    method: "GET",
    path: "/scripts/{scriptHash}",
    action: "indexer.script",
    cache: "lookup",
    tag: "scripts",
    summary: "A script seen on chain",
    response: "ScriptDto",
    statuses: { 404: "unknown script" },
    responseSchema: "ScriptDto",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/scripts/{scriptHash}/json",
    action: "indexer.scriptJson",
    cache: "lookup",
    tag: "scripts",
    summary: "A native script as JSON",
    response: "ScriptJsonDto",
    statuses: { 404: "unknown script" },
    responseSchema: "ScriptJsonDto",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/scripts/{scriptHash}/details",
    action: "indexer.scriptDetails",
    cache: "lookup",
    tag: "scripts",
    summary: "Script details",
    response: "ScriptDetailDto",
    statuses: { 404: "unknown script" },
    responseSchema: "ScriptDetailDto",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/scripts/{scriptHash}/cbor",
    action: "indexer.scriptCbor",
    cache: "lookup",
    tag: "scripts",
    summary: "Script CBOR",
    response: "ScriptCborDto",
    statuses: { 404: "unknown script" },
    responseSchema: "CborDto",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/scripts/datum/{datumHash}",
    action: "indexer.datum",
    cache: "lookup",
    tag: "scripts",
    summary: "A datum as JSON",
    response: "JSON datum",
    statuses: { 404: "unknown datum" },
    responseSchema: "DatumJson",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/scripts/datum/{datumHash}/cbor",
    action: "indexer.datumCbor",
    cache: "lookup",
    tag: "scripts",
    summary: "A datum's CBOR",
    response: "{ cbor }",
    statuses: { 404: "unknown datum" },
    responseSchema: "CborDto",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/txs/{txHash}/scripts",
    action: "indexer.txScripts",
    cache: "lookup",
    tag: "txs",
    summary: "Scripts run by a transaction",
    response: "array of TxContractDetails",
    pathPatterns: { txHash: TX_HASH },
    responseSchema: "TxContractDetails",
    implemented: true,
  },
  {
    method: "GET",
    path: "/txs/{txHash}/redeemers",
    action: "indexer.txRedeemers",
    cache: "lookup",
    tag: "txs",
    summary: "Redeemers of a transaction",
    response: "array of TxRedeemerDto",
    pathPatterns: { txHash: TX_HASH },
    responseSchema: "TxRedeemers",
    implemented: true,
  },

  // ── plugin monitoring (read-only) ───────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/admin/plugins",
    action: "plugin-monitor.overview",
    tag: "plugins",
    summary: "All plugin types with summary statistics",
    response: "PluginOverviewResponse",
    auth: "admin",
    responseSchema: "PluginOverview",
    implemented: true,
  },
  {
    method: "GET",
    path: "/admin/plugins/schedulers",
    action: "plugin-monitor.schedulers",
    tag: "plugins",
    summary: "The indexer's schedulers",
    response: "SchedulerListResponse",
    auth: "admin",
    responseSchema: "SchedulerList",
    implemented: true,
  },
  {
    method: "GET",
    path: "/admin/plugins/schedulers/{name}",
    action: "plugin-monitor.scheduler",
    tag: "plugins",
    summary: "Status of one scheduler",
    response: "SchedulerStatusResponse",
    statuses: { 404: "no such scheduler" },
    auth: "admin",
    responseSchema: "SchedulerStatus",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
  ...pluginListRoutes("pre-actions", "pre-action"),
  ...pluginListRoutes("post-actions", "post-action"),
  ...pluginListRoutes("filters", "filter"),
  ...pluginListRoutes("event-handlers", "event-handler"),
] as const satisfies readonly RouteSpec[];

type RouteEntry = (typeof ROUTES)[number];

/** Every action id the gateway can call. */
export type RouteActionId = RouteEntry["action"];

type ActionNamesOf<R, S extends string> = R extends { readonly action: `${S}.${infer N}` } ? N : never;

/** Action names of service S that some route targets. */
export type RouteActionName<S extends ServiceName> = ActionNamesOf<RouteEntry, S>;

/** Action names of service S that an implemented route targets (the service MUST declare these). */
export type ImplementedRouteActionName<S extends ServiceName> = ActionNamesOf<Extract<RouteEntry, { readonly implemented: true }>, S>;

/** `<service>` part of an action id. */
export function serviceOfAction(action: string): string {
  const dot = action.indexOf(".");
  return dot < 0 ? action : action.slice(0, dot);
}
