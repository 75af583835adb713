/**
 * The shape of every error the project's modules throw: a stable SCREAMING_SNAKE `type` and structured `data`.
 * Each module names its own subclass and type union (CslError, ProtocolError, WalletError, DomainError).
 * Services map them to Moleculer errors at their edge; callers match on `type`, never on `instanceof`
 * (errors crossing NATS are rebuilt as plain errors).
 */
export class TypedError<T extends string = string> extends Error {
  constructor(
    readonly type: T,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Errors of the pure domain rules (shared/domain). */
export class DomainError extends TypedError {
  override readonly name = "DomainError";
}

/** @throws DomainError of type `BAD_REQUEST` */
export function badRequest(message: string, data: Record<string, unknown> = {}): never {
  throw new DomainError("BAD_REQUEST", message, data);
}
