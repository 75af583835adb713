/**
 * The refusals every list extension (fractionized, tokenizable) shares. Each extension lists these first and its
 * own after them (shared/fractionized/errors.ts, shared/tokenizable/errors.ts); the generic request, list and
 * build helpers of this module refuse through the extension's own `refuse`, so the error keeps the extension's
 * class.
 */
export const LIST_ERROR_TYPES = [
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

export type ListErrorType = (typeof LIST_ERROR_TYPES)[number];

/** An extension's refusal: throws its own TypedError subclass. */
export type ListRefuse = (type: ListErrorType, message: string, data?: Record<string, unknown>) => never;
