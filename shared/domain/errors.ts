/**
 * Domain errors: one class, a stable SCREAMING_SNAKE `type` and structured `data`.
 * Services map them to Moleculer errors at their edge; callers match on `type`, never on `instanceof`
 * (errors crossing NATS are rebuilt as plain errors).
 */
export class DomainError extends Error {
  override readonly name = "DomainError";
  constructor(
    readonly type: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** @throws DomainError of type `BAD_REQUEST` */
export function badRequest(message: string, data: Record<string, unknown> = {}): never {
  throw new DomainError("BAD_REQUEST", message, data);
}
