/**
 * The one base of every error the project's modules throw: a stable SCREAMING_SNAKE `type`, structured `data`,
 * and `retryable` (true when the same call may succeed later — the broker's retry policy reads it).
 * Each module names its own subclass and type union (ChainError, CslError, StoreError, DomainError, …).
 * Callers match on `type`, never on `instanceof`: errors crossing NATS are rebuilt as plain errors that keep
 * name, message, type, data and retryable. The gateway maps `type` to an HTTP status in one table
 * (shared/gateway/error-mapping.ts), so no module below the gateway knows HTTP statuses.
 */
export class TypedError<T extends string = string> extends Error {
  readonly retryable: boolean;

  constructor(
    readonly type: T,
    message: string,
    readonly data: Record<string, unknown> = {},
    options: { retryable?: boolean } = {},
  ) {
    super(message);
    this.retryable = options.retryable ?? false;
  }
}

/** Errors of the domain rules and of service actions (a missing resource, a refused request, …). */
export class DomainError extends TypedError {
  override readonly name = "DomainError";
}

/** @throws DomainError of type `BAD_REQUEST` */
export function badRequest(message: string, data: Record<string, unknown> = {}): never {
  throw new DomainError("BAD_REQUEST", message, data);
}

/** A missing resource (type `NOT_FOUND`). */
export function notFound(message: string, data: Record<string, unknown> = {}): DomainError {
  return new DomainError("NOT_FOUND", message, data);
}

/** A service that cannot answer yet because it is still starting (type `SERVICE_STARTING`, retryable). */
export function stillStarting(service: string): DomainError {
  return new DomainError("SERVICE_STARTING", `${service} is starting; retry shortly.`, { service }, { retryable: true });
}
