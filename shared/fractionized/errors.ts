/**
 * Refusals of the fractionized extension (docs/api.md#fractionized-certificates). Each names what to do; the
 * gateway maps every type to 400 (shared/mesh/error-mapping.ts). Build problems of the anchoring certificate
 * transaction keep the issuance's BuildStatus codes (INSUFFICIENT_FUNDS, COLLATERAL_REQUIRED,
 * PENDING_TRANSACTION, …).
 */
import { TypedError } from "../domain/errors";

export const FRACTIONIZED_ERROR_TYPES = [
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
  /** the claimer is not among the node's claimants */
  "CLAIMER_NOT_LISTED",
  /** amount ≤ 0 or above what remains */
  "AMOUNT_OUT_OF_RANGE",
  /** every token of the node is claimed */
  "TOKENS_EXHAUSTED",
  /** another node of the list mints the same asset name */
  "ASSET_NAME_IN_USE",
  /** the init output is not an unspent, spendable output of the sender */
  "INIT_UTXO_UNAVAILABLE",
] as const;

export type FractionizedErrorType = (typeof FRACTIONIZED_ERROR_TYPES)[number];

export class FractionizedError extends TypedError<FractionizedErrorType> {
  override readonly name = "FractionizedError";
}

/** @throws FractionizedError */
export function refuseFractionized(type: FractionizedErrorType, message: string, data: Record<string, unknown> = {}): never {
  throw new FractionizedError(type, message, data);
}
