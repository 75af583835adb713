/**
 * Refusals of the tokenizable extension (docs/api.md#tokenizable-certificates). Each names what to do; the
 * gateway maps every type to 400 (shared/mesh/error-mapping.ts). Build problems of the anchoring certificate
 * transaction keep the issuance's BuildStatus codes (INSUFFICIENT_FUNDS, COLLATERAL_REQUIRED,
 * PENDING_TRANSACTION, …).
 */
import { TypedError } from "../domain/errors";

export const TOKENIZABLE_ERROR_TYPES = [
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
  /** another node of the list has the same asset name */
  "ASSET_NAME_IN_USE",
  /** the init output is not an unspent, spendable output of the sender */
  "INIT_UTXO_UNAVAILABLE",
  /** the node was redeemed already (Redeem happens once) */
  "ALREADY_REDEEMED",
  /** the redeemer is not the node's owner */
  "NOT_OWNER",
  /** the certificate's metadata does not fit the CIP-68 reference datum */
  "METADATA_TOO_LARGE",
] as const;

export type TokenizableErrorType = (typeof TOKENIZABLE_ERROR_TYPES)[number];

export class TokenizableError extends TypedError<TokenizableErrorType> {
  override readonly name = "TokenizableError";
}

/** @throws TokenizableError */
export function refuseTokenizable(type: TokenizableErrorType, message: string, data: Record<string, unknown> = {}): never {
  throw new TokenizableError(type, message, data);
}
