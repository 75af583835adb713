/**
 * Typed errors of the store port. Both adapters map their driver's failures to these, so callers match on
 * `type` (stable SCREAMING_SNAKE) and never on a driver's error class or message.
 */
import { TypedError } from "../domain/errors";

export type StoreErrorType =
  /** A unique index (or `_id`) already holds the key. Same type for SQLite (a UNIQUE constraint) and MongoDB (11000). */
  | "DUPLICATE_KEY"
  /** A filter, update, sort, projection or document outside the documented subset, or an update the document's shape forbids. */
  | "INVALID_STORE_QUERY"
  /** The database cannot be reached (retryable). */
  | "STORE_UNAVAILABLE"
  /** An operation ran after `close()`. */
  | "STORE_CLOSED"
  /** A stored document cannot be decoded (unknown header or dictionary, bytes that do not inflate): the file is damaged. */
  | "STORE_CORRUPT"
  /** Another live process (or another open store in this process) holds the embedded store's data directory. */
  | "DATA_DIR_LOCKED";

export class StoreError extends TypedError<StoreErrorType> {
  override readonly name: string = "StoreError";
}

/** A unique index already holds one of the keys written. `data`: `{ collection, key?, index? }`. */
export class DuplicateKeyError extends StoreError {
  override readonly name = "DuplicateKeyError";
  constructor(message: string, data: { collection: string; key?: unknown; index?: string }) {
    super("DUPLICATE_KEY", message, data);
  }
}

/** @throws StoreError of type `INVALID_STORE_QUERY`, with the offending `path` and a `reason`. */
export function invalidQuery(reason: string, data: Record<string, unknown> = {}): never {
  throw new StoreError("INVALID_STORE_QUERY", reason, { reason, ...data });
}

/** True for a DuplicateKeyError, also when it was rebuilt from plain data (e.g. after crossing NATS). */
export function isDuplicateKeyError(err: unknown): err is StoreError {
  return typeof err === "object" && err !== null && (err as { type?: unknown }).type === "DUPLICATE_KEY";
}
