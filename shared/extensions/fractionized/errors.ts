/**
 * Refusals of the fractionized extension (docs/api.md#fractionized-certificates): the list refusals every list
 * extension shares (shared/sorted-list/extension-errors.ts) and the claim ones. Each names what to do; the
 * gateway maps every type to 400 (shared/mesh/error-mapping.ts). Build problems of the anchoring certificate
 * transaction keep the issuance's BuildStatus codes (INSUFFICIENT_FUNDS, COLLATERAL_REQUIRED,
 * PENDING_TRANSACTION, …).
 */
import { TypedError } from "../../domain/errors";
import { LIST_ERROR_TYPES } from "../list-kit/list-errors";

export const FRACTIONIZED_ERROR_TYPES = [
  ...LIST_ERROR_TYPES,
  /** the claimer is not among the node's claimants */
  "CLAIMER_NOT_LISTED",
  /** amount ≤ 0 or above what remains */
  "AMOUNT_OUT_OF_RANGE",
  /** every token of the node is claimed */
  "TOKENS_EXHAUSTED",
] as const;

export type FractionizedErrorType = (typeof FRACTIONIZED_ERROR_TYPES)[number];

export class FractionizedError extends TypedError<FractionizedErrorType> {
  override readonly name = "FractionizedError";
}

/** @throws FractionizedError */
export function refuseFractionized(type: FractionizedErrorType, message: string, data: Record<string, unknown> = {}): never {
  throw new FractionizedError(type, message, data);
}
