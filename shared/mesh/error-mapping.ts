/**
 * Maps any error that reaches the gateway to the wire shape of docs/api.md#errors:
 * `{ "error": "<CODE>", "message": "<words>" }` (+ endpoint fields), never an empty 500.
 *
 * Errors are matched on `type`/`code`/`name` only, never `instanceof`: across NATS Moleculer rebuilds unknown
 * error classes as plain errors carrying just name/message/code/type/data/retryable.
 *
 * Service convention: throw a TypedError (shared/domain/errors.ts) whose `type` is in HTTP_STATUS_OF_TYPE; the
 * table decides the status. For 4xx, the plain-object `data` fields are copied into the body (e.g.
 * `{ rebuiltTransaction }`); 5xx bodies never carry `data`. A route whose error body is a whole response object
 * (e.g. BuildTransactionResponse) returns it normally with `ctx.meta.$statusCode` set from the same table.
 * Errors of Moleculer and moleculer-web themselves carry a numeric `code`, used when the table lacks their type.
 */

export interface ErrorBody {
  error: string;
  message: string;
  [field: string]: unknown;
}

export interface HttpErrorReply {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** How loudly the gateway should log it: unexpected failures are errors, client mistakes are not logged. */
  log: "error" | "warn" | null;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  type?: unknown;
  data?: unknown;
}

interface ValidationItem {
  field?: unknown;
  message?: unknown;
}

const SCREAMING = /^[A-Z][A-Z0-9_]*$/;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

function validationReply(data: unknown): HttpErrorReply {
  const items: ValidationItem[] = Array.isArray(data) ? (data as ValidationItem[]) : [];
  const messages = items.map((i) => (typeof i.message === "string" ? i.message : "")).filter((m) => m !== "");
  const fields = [...new Set(items.map((i) => (typeof i.field === "string" ? i.field : "")).filter((f) => f !== ""))];
  const message =
    messages.length > 0
      ? messages.slice(0, 5).join(" ") + (messages.length > 5 ? ` (+${messages.length - 5} more)` : "")
      : "The request parameters are invalid.";
  return { status: 400, body: { error: "VALIDATION_ERROR", message, fields }, headers: {}, log: null };
}

/** Name of a class such as `ServiceUnavailableError` as a code: `SERVICE_UNAVAILABLE`. */
function codeFromName(name: unknown): string | null {
  if (typeof name !== "string" || name === "" || name === "Error" || name === "MoleculerError") return null;
  const snake = name
    .replace(/Error$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toUpperCase();
  return SCREAMING.test(snake) ? snake : null;
}

/**
 * The HTTP status of every error type (and build outcome code) that can reach the gateway: the one place where
 * a `type` becomes a status. Modules below the gateway throw typed errors without statuses; services that answer
 * a whole response body (build routes, user actions) look their status up here too.
 */
export const HTTP_STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  // build outcomes (BuildTransactionResponse.status.code) that are not failures
  SUCCESS: 200,
  COLLATERAL_ALREADY_AVAILABLE: 200,
  // the request itself is wrong
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  MALFORMED_JSON: 400,
  INVALID_BODY: 400,
  INVALID_REQUEST_BODY: 400,
  UNABLE_DECODE_PARAM: 400,
  MISSING_FIELD: 400,
  MISSING_PARAMETER: 400,
  INVALID_FIELD: 400,
  INVALID_ACTION: 400,
  INVALID_ADDRESS: 400,
  INVALID_MESSAGE: 400,
  INVALID_PAYMENT_CREDENTIAL: 400,
  INVALID_SHORT_CODE: 400,
  INVALID_TRANSACTION: 400,
  STATE_ID_REQUIRED: 400,
  STATE_IS_ORACLE: 400,
  NOT_CONFIGURED: 400,
  LEDGER_REJECTED: 400,
  ERROR: 400,
  UNKNOWN_ERROR: 400,
  INSUFFICIENT_FUNDS: 400,
  COLLATERAL_REQUIRED: 400,
  // fractionized-certificate refusals (shared/extensions/fractionized/extension.ts)
  UNKNOWN_LIST: 400,
  UNKNOWN_KEY: 400,
  DUPLICATE_KEY: 400,
  NOT_ALLOWED_INSERTER: 400,
  CLAIMER_NOT_LISTED: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  TOKENS_EXHAUSTED: 400,
  INIT_UTXO_UNAVAILABLE: 400,
  // tokenizable-certificate refusals (shared/extensions/tokenizable/extension.ts; the shared ones above apply too)
  ALREADY_REDEEMED: 400,
  NOT_OWNER: 400,
  METADATA_TOO_LARGE: 400,
  // connected goods (docs/connected-goods.md#errors)
  INVALID_PASSWORD: 400,
  INVALID_CONTEXT: 400,
  INVALID_ITEMS: 400,
  INVALID_SOCIAL_HUB: 400,
  INVALID_TOKEN_NAME: 400,
  WRONG_PASSWORD: 400,
  UNKNOWN_BATCH: 400,
  ITEM_ALREADY_CLAIMED: 400,
  NOT_ITEM_OWNER: 400,
  WEAK_PASSWORD: 400,
  // who is asking
  UNAUTHORIZED: 401,
  INVALID_SIGNATURE: 401,
  EXPIRED_CHALLENGE: 401,
  FORBIDDEN: 403,
  ORIGIN_NOT_ALLOWED: 403,
  FAUCET_DISABLED: 403,
  CALENDAR_DISABLED: 403,
  // what is asked for
  NOT_FOUND: 404,
  STATE_NOT_FOUND: 404,
  NO_ACTIVE_STATE: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  CHALLENGE_REPLAYED: 409,
  PENDING_TRANSACTION: 409,
  INPUTS_IN_FLIGHT: 409,
  ENTRY_TAKEN: 409,
  AMBIGUOUS_CREDENTIAL: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  RATE_LIMIT_EXCEEDED: 429,
  FAUCET_COOLDOWN: 429,
  FAUCET_IP_LIMIT: 429,
  FAUCET_DAILY_BUDGET: 429,
  CALENDAR_FULL: 429,
  BATCH_QUOTA_EXCEEDED: 429,
  KDF_BUDGET_EXCEEDED: 429,
  // the client left (or was answered 504) before the work ended: nobody reads this answer (request-signals.ts)
  REQUEST_ABANDONED: 499,
  // the service side
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  FAUCET_SUBMIT_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  SERVICE_NOT_FOUND: 503,
  SERVICE_NOT_AVAILABLE: 503,
  REQUEST_REJECTED: 503,
  QUEUE_FULL: 503,
  SERVICE_STARTING: 503,
  PROTOCOL_DEPLOYING: 503,
  CHAIN_UNAVAILABLE: 503,
  CHAIN_TIMEOUT: 503,
  STORE_UNAVAILABLE: 503,
  RESOURCE_UNAVAILABLE: 503,
  FAUCET_EMPTY: 503,
  FAUCET_NOT_CONFIGURED: 503,
  TX_BUILDER_UNAVAILABLE: 503,
  REQUEST_TIMEOUT: 504,
};

/** The HTTP status of an error type or build outcome code; undefined when the table does not know it. */
export function httpStatusOfType(type: string): number | undefined {
  return HTTP_STATUS_OF_TYPE[type];
}

/** The status an error will be answered with: by its type, else (a library's own error) by its numeric code, else 500. */
export function httpStatusOfError(err: unknown): number {
  const e: ErrorLike = typeof err === "object" && err !== null ? (err as ErrorLike) : {};
  const byType = typeof e.type === "string" ? httpStatusOfType(e.type) : undefined;
  if (byType !== undefined) return byType;
  if (e.name === "ValidationError") return 400;
  if (typeof e.code === "number" && Number.isInteger(e.code) && e.code >= 400 && e.code <= 599) return e.code === 422 ? 400 : e.code; // a request whose content is wrong is a 400 (docs/decisions.md#wire-conventions)
  return 500;
}

const GENERIC_CODE_OF_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_ERROR",
  501: "NOT_IMPLEMENTED",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "TIMEOUT",
};

/** Maps an error to status, JSON body and headers. Pure: no I/O, no clock. */
export function toHttpErrorReply(err: unknown): HttpErrorReply {
  const e: ErrorLike = typeof err === "object" && err !== null ? (err as ErrorLike) : {};
  const type = typeof e.type === "string" ? e.type : undefined;
  const message = typeof e.message === "string" && e.message !== "" ? e.message : undefined;
  const code = typeof e.code === "number" ? e.code : undefined;

  if (type === "VALIDATION_ERROR" || e.name === "ValidationError") return validationReply(e.data);

  if (type === "RATE_LIMITED" || type === "RATE_LIMIT_EXCEEDED" || e.name === "RateLimitExceeded") {
    const retryAfter = isPlainObject(e.data) && typeof e.data.retryAfterSeconds === "number" ? e.data.retryAfterSeconds : 60;
    return {
      status: 429,
      body: { error: "RATE_LIMITED", message: message ?? "Rate limit exceeded.", retryAfterSeconds: retryAfter },
      headers: { "Retry-After": String(retryAfter) },
      log: null,
    };
  }

  if (type === "UNABLE_DECODE_PARAM") {
    return { status: 400, body: { error: type, message: "A path parameter is not valid percent-encoding." }, headers: {}, log: null };
  }
  if (type === "ORIGIN_NOT_ALLOWED") {
    return {
      status: 403,
      body: { error: type, message: "Requests from this origin are not allowed (CORS_ORIGINS)." },
      headers: {},
      log: null,
    };
  }

  // A call whose params exceed the NATS server's max_payload (Merkle batches are streamed in chunks instead, see
  // batch-stream-middleware.ts): the request is too large for this deployment, not a server failure.
  if (e.name === "NatsError" && e.code === "MAX_PAYLOAD_EXCEEDED") {
    return {
      status: 413,
      body: {
        error: "PAYLOAD_TOO_LARGE",
        message:
          "The request is larger than the message bus between the gateway and the services accepts (NATS max_payload): send a smaller batch, or raise max_payload.",
      },
      headers: {},
      log: "warn",
    };
  }

  if (type === "QUEUE_FULL") {
    return {
      status: 503,
      body: { error: "SERVICE_BUSY", message: "The service is busy; retry shortly." },
      headers: { "Retry-After": "1" },
      log: "warn",
    };
  }

  if (
    type === "SERVICE_NOT_FOUND" ||
    type === "SERVICE_NOT_AVAILABLE" ||
    type === "REQUEST_REJECTED" ||
    e.name === "ServiceUnavailableError"
  ) {
    const action = isPlainObject(e.data) && typeof e.data.action === "string" ? e.data.action : undefined;
    const what = action !== undefined ? `The service behind '${action}'` : "The service behind this route";
    return {
      status: 503,
      body: { error: "SERVICE_UNAVAILABLE", message: `${what} is not available right now.` },
      headers: { "Retry-After": "5" },
      log: "warn",
    };
  }

  if (type === "REQUEST_TIMEOUT") {
    return {
      status: 504,
      body: { error: "TIMEOUT", message: "The service did not answer in time." },
      headers: {},
      log: "warn",
    };
  }

  const status = httpStatusOfError(err);
  if (status >= 500) {
    // A listed type's message, or a Moleculer error's, is safe to show; anything else may leak internals.
    const known = type !== undefined && (httpStatusOfType(type) !== undefined || code !== undefined);
    const errorCode =
      known && SCREAMING.test(type)
        ? type
        : status === 500
          ? "INTERNAL_ERROR"
          : (codeFromName(e.name) ?? GENERIC_CODE_OF_STATUS[status] ?? "SERVER_ERROR");
    return {
      status,
      body: { error: errorCode, message: known && message ? message : "Internal server error." },
      // 503 is temporary by definition: say when to come back.
      headers: status === 503 ? { "Retry-After": "5" } : {},
      log: status === 501 ? null : known ? "warn" : "error",
    };
  }
  if (status >= 400) {
    const errorCode =
      (type !== undefined && SCREAMING.test(type) ? type : null) ?? codeFromName(e.name) ?? GENERIC_CODE_OF_STATUS[status] ?? "BAD_REQUEST";
    const body: ErrorBody = { error: errorCode, message: message ?? "The request was rejected." };
    if (isPlainObject(e.data)) {
      for (const [k, v] of Object.entries(e.data)) if (k !== "error" && k !== "message") body[k] = v;
    }
    // Every 429 that says when to come back says it in the header too.
    const headers: Record<string, string> = {};
    if (status === 429 && typeof body["retryAfterSeconds"] === "number") headers["Retry-After"] = String(body["retryAfterSeconds"]);
    return { status, body, headers, log: null };
  }

  return {
    status: 500,
    body: { error: "INTERNAL_ERROR", message: "Internal server error." },
    headers: {},
    log: "error",
  };
}
