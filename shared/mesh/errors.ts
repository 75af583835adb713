/**
 * Errors the gateway itself raises. Each has a stable SCREAMING_SNAKE `type`, an HTTP-like `code` and
 * structured `data`. Code elsewhere matches them on `type`, never `instanceof` (errors crossing NATS are
 * rebuilt as plain errors with only name/message/code/type/data/retryable).
 */
import { Errors } from "moleculer";

/** 501: the route exists in the table but its service is not built yet. */
export class NotImplementedError extends Errors.MoleculerError {
  constructor(method: string, path: string, service: string) {
    super(
      `${method} ${path} is not implemented yet (the ${service} service is not built).`,
      501,
      "NOT_IMPLEMENTED",
      { method, path, service },
    );
    this.name = "NotImplementedError";
  }
}

/** 400: the body is not valid JSON. */
export class MalformedJsonError extends Errors.MoleculerClientError {
  constructor(reason: string) {
    super(`Request body is not valid JSON: ${reason}`, 400, "MALFORMED_JSON", {});
    this.name = "MalformedJsonError";
  }
}

/** 400: the JSON body has the wrong shape for this route (e.g. an array where an object is expected). */
export class InvalidBodyError extends Errors.MoleculerClientError {
  constructor(message: string) {
    super(message, 400, "INVALID_BODY", {});
    this.name = "InvalidBodyError";
  }
}

/** 413: the body is larger than the gateway accepts. */
export class PayloadTooLargeError extends Errors.MoleculerClientError {
  constructor(limitBytes: number) {
    super(`Request body exceeds the ${Math.round(limitBytes / 1024)} KiB limit.`, 413, "PAYLOAD_TOO_LARGE", {
      limitBytes,
    });
    this.name = "PayloadTooLargeError";
  }
}

/** 429: too many POST requests from one client; `retryAfterSeconds` becomes the `Retry-After` header. */
export class RateLimitedError extends Errors.MoleculerClientError {
  constructor(retryAfterSeconds: number, limit: number) {
    super(`Rate limit exceeded. Retry after ${retryAfterSeconds} seconds.`, 429, "RATE_LIMITED", {
      retryAfterSeconds,
      limit,
    });
    this.name = "RateLimitedError";
  }
}

/** 401: an admin route was called without the configured API key. */
export class UnauthorizedError extends Errors.MoleculerClientError {
  constructor() {
    super("This route needs the admin API key (header X-Api-Key).", 401, "UNAUTHORIZED", {});
    this.name = "UnauthorizedError";
  }
}

/** 403: admin routes against a real network with no ADMIN_API_KEY configured. */
export class AdminDisabledError extends Errors.MoleculerClientError {
  constructor() {
    super("The admin API is disabled on this network: set ADMIN_API_KEY (at least 16 characters) to enable it, then send it in the X-Api-Key header.", 403, "FORBIDDEN", {});
    this.name = "AdminDisabledError";
  }
}
