/**
 * Maps any error that reaches the gateway to the wire shape of docs/api.md#errors:
 * `{ "error": "<CODE>", "message": "<words>" }` (+ endpoint fields), never an empty 500.
 *
 * Errors are matched on `type`/`code`/`name` only, never `instanceof`: across NATS Moleculer rebuilds unknown
 * error classes as plain errors carrying just name/message/code/type/data/retryable.
 *
 * Service convention: throw a TypedError (shared/domain/errors.ts) whose `type` has a status in http-status.ts; the
 * table decides the status. For 4xx, the plain-object `data` fields are copied into the body (e.g.
 * `{ rebuiltTransaction }`); 5xx bodies never carry `data`. A route whose error body is a whole response object
 * (e.g. BuildTransactionResponse) returns it normally with `ctx.meta.$statusCode` set from the same table.
 * Errors of Moleculer and moleculer-web themselves carry a numeric `code`, used when the table lacks their type; they
 * are answered with their status's generic code (GENERIC_CODE_OF_STATUS), so no code outside the table reaches a client.
 */
import { httpStatusOfError, httpStatusOfType, type ErrorLike } from "./http-status";

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

/** The code of an error whose type the table does not list, by its status. */
const GENERIC_CODE_OF_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
  501: "NOT_IMPLEMENTED",
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

  // A call given up because its deadline passed on the way (Moleculer's RequestSkippedError, 514).
  if (type === "REQUEST_SKIPPED") {
    return { status: 504, body: { error: "TIMEOUT", message: "The service did not answer in time." }, headers: {}, log: "warn" };
  }

  // Only the codes of the table (and the gateway's generic ones) reach the wire, so the OpenAPI document can list
  // every code a status carries: a library's own type is answered with its status's generic code.
  const status = httpStatusOfError(err);
  const listed = type !== undefined && SCREAMING.test(type) && httpStatusOfType(type) === status;
  if (status >= 500) {
    // A listed type's message, or a Moleculer error's, is safe to show; anything else may leak internals.
    const known = listed || (type !== undefined && code !== undefined);
    // an unlisted 502 (the broker's transporter is down) is the service being unreachable
    const generic = listed ? status : status === 502 || status === 503 ? 503 : status === 504 ? 504 : 500;
    const errorCode = listed ? type : GENERIC_CODE_OF_STATUS[generic]!;
    return {
      status: generic,
      body: { error: errorCode, message: known && message ? message : "Internal server error." },
      // 503 is temporary by definition: say when to come back.
      headers: generic === 503 ? { "Retry-After": "5" } : {},
      log: generic === 501 ? null : known ? "warn" : "error",
    };
  }
  if (status >= 400) {
    const generic = listed || GENERIC_CODE_OF_STATUS[status] !== undefined ? status : 400;
    const errorCode = listed ? type : GENERIC_CODE_OF_STATUS[generic]!;
    const body: ErrorBody = { error: errorCode, message: message ?? "The request was rejected." };
    if (isPlainObject(e.data)) {
      for (const [k, v] of Object.entries(e.data)) if (k !== "error" && k !== "message") body[k] = v;
    }
    // Every 429 that says when to come back says it in the header too.
    const headers: Record<string, string> = {};
    if (generic === 429 && typeof body["retryAfterSeconds"] === "number") headers["Retry-After"] = String(body["retryAfterSeconds"]);
    return { status: generic, body, headers, log: null };
  }

  return {
    status: 500,
    body: { error: "INTERNAL_ERROR", message: "Internal server error." },
    headers: {},
    log: "error",
  };
}
