/**
 * The refusals of a list extension (fractionized, tokenizable): the ones every list extension has, then its own,
 * thrown as its own TypedError class. The kit's request, list and build helpers refuse through the extension's
 * `refuse`, so every refusal keeps the extension's class. The gateway maps every type to 400
 * (shared/mesh/error-mapping.ts); build problems of the anchoring certificate transaction keep the issuance's
 * BuildStatus codes (INSUFFICIENT_FUNDS, COLLATERAL_REQUIRED, PENDING_TRANSACTION, …).
 */
import { TypedError } from "../../domain/errors";

const LIST_ERROR_TYPES = [
  /** a field is missing or malformed (hex, integer, address, …) */
  "INVALID_FIELD",
  /** no list with that policy id or init output reference */
  "UNKNOWN_LIST",
  /** no node with that key in the list */
  "UNKNOWN_KEY",
  /** the key is already in the list */
  "DUPLICATE_KEY",
  /** the caller is not an allowed inserter of the list */
  "NOT_ALLOWED_INSERTER",
  /** the init output is not an unspent, spendable output of the sender (or it is, and no other output can be the collateral) */
  "INIT_UTXO_UNAVAILABLE",
] as const;

type ListErrorType = (typeof LIST_ERROR_TYPES)[number];

/** An extension's refusal of a list problem: throws its own TypedError subclass. */
export type ListRefuse = (type: ListErrorType, message: string, data?: Record<string, unknown>) => never;

/** An extension's refusals: the list's and `own`, as the class `errorName` (errors are matched on their type and name). */
export function listRefusals<const Own extends readonly string[]>(errorName: string, own: Own) {
  type Type = ListErrorType | Own[number];
  class ListExtensionError extends TypedError<Type> {
    override readonly name = errorName;
  }
  return {
    /** the class name of its refusals */
    errorName,
    /** every type the extension refuses with, the list's first */
    types: [...LIST_ERROR_TYPES, ...own] as const,
    /** their HTTP status: each is a problem of the request (400) */
    statuses: Object.fromEntries([...LIST_ERROR_TYPES, ...own].map((t) => [t, 400])) as Readonly<Record<Type, number>>,
    ErrorClass: ListExtensionError,
    /** @throws the extension's error */
    refuse(type: Type, message: string, data: Record<string, unknown> = {}): never {
      throw new ListExtensionError(type, message, data);
    },
  };
}

/** An extension's refusals, as `listRefusals` makes them. */
export type ListRefusals<Own extends readonly string[]> = ReturnType<typeof listRefusals<Own>>;
