/**
 * Refusals of the tokenizable extension (docs/api.md#tokenizable-certificates): the list refusals every list
 * extension shares (shared/sorted-list/extension-errors.ts) and the redeem ones. Each names what to do; the
 * gateway maps every type to 400 (shared/mesh/error-mapping.ts). Build problems of the anchoring certificate
 * transaction keep the issuance's BuildStatus codes (INSUFFICIENT_FUNDS, COLLATERAL_REQUIRED,
 * PENDING_TRANSACTION, …).
 */
import { TypedError } from "../../domain/errors";
import { LIST_ERROR_TYPES } from "../list-kit/list-errors";

export const TOKENIZABLE_ERROR_TYPES = [
  ...LIST_ERROR_TYPES,
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
