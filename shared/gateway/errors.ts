/**
 * Errors the gateway itself raises. Each is a TypedError with a stable SCREAMING_SNAKE `type` (its HTTP status
 * comes from http-status.ts) and structured `data`.
 */
import { TypedError } from "../domain/errors";

/** The route exists in the table but its service is not built yet (501). */
export class NotImplementedError extends TypedError<"NOT_IMPLEMENTED"> {
  override readonly name = "NotImplementedError";
  constructor(method: string, path: string, service: string) {
    super("NOT_IMPLEMENTED", `${method} ${path} is not implemented yet (the ${service} service is not built).`, { method, path, service });
  }
}

/** The body is not valid JSON (400). */
export class MalformedJsonError extends TypedError<"MALFORMED_JSON"> {
  override readonly name = "MalformedJsonError";
  constructor(reason: string) {
    super("MALFORMED_JSON", `Request body is not valid JSON: ${reason}`);
  }
}

/** The JSON body has the wrong shape for this route, e.g. an array where an object is expected (400). */
export class InvalidBodyError extends TypedError<"INVALID_BODY"> {
  override readonly name = "InvalidBodyError";
  constructor(message: string) {
    super("INVALID_BODY", message);
  }
}

/** The body is larger than the gateway accepts (413). */
export class PayloadTooLargeError extends TypedError<"PAYLOAD_TOO_LARGE"> {
  override readonly name = "PayloadTooLargeError";
  constructor(limitBytes: number) {
    super("PAYLOAD_TOO_LARGE", `Request body exceeds the ${Math.round(limitBytes / 1024)} KiB limit.`, { limitBytes });
  }
}

/** The body is not JSON (415): the routes take `application/json`, except those that accept raw text or bytes. */
export class UnsupportedMediaTypeError extends TypedError<"UNSUPPORTED_MEDIA_TYPE"> {
  override readonly name = "UnsupportedMediaTypeError";
  constructor(contentType: string | undefined, octetStreamToo = false) {
    super(
      "UNSUPPORTED_MEDIA_TYPE",
      `Request bodies must be JSON: send Content-Type: application/json${octetStreamToo ? " (or application/octet-stream)" : ""}${contentType ? ` (got ${JSON.stringify(contentType.slice(0, 80))})` : " (none was sent)"}.`,
      { contentType: contentType?.slice(0, 80) ?? null },
    );
  }
}

/** The body is compressed (415): bodies are read only as sent, `Content-Encoding: identity` or none. */
export class UnsupportedContentEncodingError extends TypedError<"UNSUPPORTED_CONTENT_ENCODING"> {
  override readonly name = "UnsupportedContentEncodingError";
  constructor(codings: string) {
    super(
      "UNSUPPORTED_CONTENT_ENCODING",
      `Request bodies are read as sent: drop the Content-Encoding header and send the body uncompressed (got ${JSON.stringify(codings.slice(0, 40))}).`,
      { contentEncoding: codings.slice(0, 40) },
    );
  }
}

/** The body's Content-Type names a character set other than UTF-8 (415). */
export class UnsupportedCharsetError extends TypedError<"UNSUPPORTED_CHARSET"> {
  override readonly name = "UnsupportedCharsetError";
  constructor(charset: string) {
    super(
      "UNSUPPORTED_CHARSET",
      `Request bodies are read as UTF-8: send charset=utf-8 or no charset (got ${JSON.stringify(charset.slice(0, 40))}).`,
      { charset: charset.slice(0, 40) },
    );
  }
}

/**
 * Too many POST requests from one client, or too many GETs of the expensive reads (429); `retryAfterSeconds`
 * becomes the `Retry-After` header.
 */
export class RateLimitedError extends TypedError<"RATE_LIMITED"> {
  override readonly name = "RateLimitedError";
  constructor(retryAfterSeconds: number, limit: number, budget: "POST" | "GET" = "POST") {
    super(
      "RATE_LIMITED",
      budget === "POST"
        ? `Rate limit exceeded. Retry after ${retryAfterSeconds} seconds.`
        : `Read rate limit exceeded: at most ${limit} GET requests per minute to /verify, /proof and connected-goods reads. Retry after ${retryAfterSeconds} seconds.`,
      { retryAfterSeconds, limit, budget },
    );
  }
}

/** An admin route was called without the configured API key (401). */
export class UnauthorizedError extends TypedError<"UNAUTHORIZED"> {
  override readonly name = "UnauthorizedError";
  constructor() {
    super("UNAUTHORIZED", "This route needs the admin API key (header X-Api-Key).");
  }
}

/** Admin routes against a real network with no ADMIN_API_KEY configured (403). */
export class AdminDisabledError extends TypedError<"FORBIDDEN"> {
  override readonly name = "AdminDisabledError";
  constructor() {
    super(
      "FORBIDDEN",
      "The admin API is disabled on this network: set ADMIN_API_KEY (at least 16 characters) to enable it, then send it in the X-Api-Key header.",
    );
  }
}

/** An event stream's filter or resume id is none (400); the message names the problem. */
export class InvalidEventFilterError extends TypedError<"INVALID_EVENT_FILTER"> {
  override readonly name = "InvalidEventFilterError";
  constructor(problem: string) {
    super("INVALID_EVENT_FILTER", `The event stream's query is not valid: ${problem}.`);
  }
}

/** Too many event streams open, from this client or on this gateway (429). */
export class TooManyStreamsError extends TypedError<"TOO_MANY_STREAMS"> {
  override readonly name = "TooManyStreamsError";
  constructor(scope: "client" | "gateway", limit: number) {
    super(
      "TOO_MANY_STREAMS",
      scope === "client"
        ? `This client has ${limit} event streams open, the most one client may; close one (or filter one stream by several subjects) and retry.`
        : `This gateway serves ${limit} event streams, its most; retry shortly.`,
      { scope, limit, retryAfterSeconds: scope === "client" ? 30 : 10 },
    );
  }
}
