/**
 * The HTTP status of every error type (and build outcome code) that can reach the gateway: the one place where a
 * `type` becomes a status. Modules below the gateway throw typed errors without statuses (shared/domain/errors.ts);
 * services that answer a whole response body (build routes, user actions) set `ctx.meta.$statusCode` from here.
 */
import { BUILD_STATUS_CODES, type BuildStatusCode } from "../domain/build-status";
import { EXTENSION_ERROR_STATUSES } from "../extensions/registry";

/** What the gateway reads of an error: errors crossing NATS keep only these (never their class). */
export interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  type?: unknown;
  data?: unknown;
}

/** Status by error type or build outcome code, the core's; the extensions' join it below. */
const CORE_STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  // build outcomes (BuildTransactionResponse.status.code) that are not failures
  SUCCESS: 200,
  COLLATERAL_ALREADY_AVAILABLE: 200,
  // the request itself is wrong
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  MALFORMED_JSON: 400,
  INVALID_BODY: 400,
  UNABLE_DECODE_PARAM: 400,
  MISSING_FIELD: 400,
  MISSING_PARAMETER: 400,
  INVALID_FIELD: 400,
  INVALID_ACTION: 400,
  INVALID_ADDRESS: 400,
  INVALID_MESSAGE: 400,
  INVALID_PAYMENT_CREDENTIAL: 400,
  INVALID_SHORT_CODE: 400,
  INVALID_EVENT_FILTER: 400,
  INVALID_TRANSACTION: 400,
  STATE_ID_REQUIRED: 400,
  STATE_IS_ORACLE: 400,
  NOT_CONFIGURED: 400,
  LEDGER_REJECTED: 400,
  ERROR: 400,
  UNKNOWN_ERROR: 400,
  INSUFFICIENT_FUNDS: 400,
  COLLATERAL_REQUIRED: 400,
  // webhooks (docs/webhooks.md#errors)
  INVALID_WEBHOOK_REQUEST: 400,
  INVALID_WEBHOOK_FILTER: 400,
  INVALID_ENDPOINT_URL: 400,
  ENDPOINT_ADDRESS_REFUSED: 400,
  INVALID_EVENT_ID: 400,
  ADDRESS_PROOF_REQUIRED: 400,
  // who is asking
  UNAUTHORIZED: 401,
  INVALID_SIGNATURE: 401,
  EXPIRED_CHALLENGE: 401,
  WEBHOOK_TOKEN_REQUIRED: 401,
  INVALID_WEBHOOK_TOKEN: 401,
  FORBIDDEN: 403,
  ORIGIN_NOT_ALLOWED: 403,
  FAUCET_DISABLED: 403,
  CALENDAR_DISABLED: 403,
  WEBHOOK_TOKEN_REJECTED: 403,
  // what is asked for
  NOT_FOUND: 404,
  STATE_NOT_FOUND: 404,
  NO_ACTIVE_STATE: 404,
  WEBHOOK_ENDPOINT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  CHALLENGE_REPLAYED: 409,
  PENDING_TRANSACTION: 409,
  INPUTS_IN_FLIGHT: 409,
  ENTRY_TAKEN: 409,
  AMBIGUOUS_CREDENTIAL: 409,
  WEBHOOK_ENDPOINT_DISABLED: 409,
  WEBHOOK_LIMIT_REACHED: 409,
  // a resume id older than the event log keeps (EVENTS_RETENTION_DAYS)
  EVENTS_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNSUPPORTED_CONTENT_ENCODING: 415,
  UNSUPPORTED_CHARSET: 415,
  RATE_LIMITED: 429,
  RATE_LIMIT_EXCEEDED: 429,
  FAUCET_COOLDOWN: 429,
  FAUCET_IP_LIMIT: 429,
  FAUCET_DAILY_BUDGET: 429,
  CALENDAR_FULL: 429,
  BATCH_QUOTA_EXCEEDED: 429,
  TOO_MANY_STREAMS: 429,
  WEBHOOK_REGISTRATIONS_RATE_LIMITED: 429,
  // Node's HTTP parser, before the gateway (client-error.ts)
  HEADERS_TOO_LARGE: 431,
  // the client left (or was answered 504) before the work ended: nobody reads this answer (shared/mesh/request-signals.ts)
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
  SERVICE_BUSY: 503,
  SERVICE_STARTING: 503,
  PROTOCOL_DEPLOYING: 503,
  CHAIN_UNAVAILABLE: 503,
  CHAIN_TIMEOUT: 503,
  STORE_UNAVAILABLE: 503,
  RESOURCE_UNAVAILABLE: 503,
  FAUCET_EMPTY: 503,
  FAUCET_NOT_CONFIGURED: 503,
  REQUEST_TIMEOUT: 504,
  TIMEOUT: 504,
};

/** Every status: the extensions' (from their registry) and the core's, which must agree where both name a type. */
const HTTP_STATUS_OF_TYPE: Readonly<Record<string, number>> = { ...EXTENSION_ERROR_STATUSES, ...CORE_STATUS_OF_TYPE };
for (const [type, status] of Object.entries(EXTENSION_ERROR_STATUSES)) {
  const core = CORE_STATUS_OF_TYPE[type];
  if (core !== undefined && core !== status) throw new Error(`An extension answers ${type} with ${status}, the core with ${core}.`);
}

/** Every type (and build outcome code) the table gives a status: what the error mapping lets reach a client. */
export const LISTED_ERROR_TYPES: readonly string[] = Object.keys(HTTP_STATUS_OF_TYPE);

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

/** The build outcome codes that answer a failure (every one but SUCCESS and COLLATERAL_ALREADY_AVAILABLE). */
export const BUILD_FAILURE_CODES: readonly BuildStatusCode[] = BUILD_STATUS_CODES.filter(
  (code) => (HTTP_STATUS_OF_TYPE[code] ?? 500) >= 400,
);
