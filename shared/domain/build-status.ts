/** Build result codes of BuildTransactionResponse (docs/api.md#buildstatus-codes; their HTTP statuses: HTTP_STATUS_OF_TYPE in the gateway). */
export const BUILD_STATUS_CODES = [
  "SUCCESS",
  "ERROR",
  "UNKNOWN_ERROR",
  "INSUFFICIENT_FUNDS",
  "PENDING_TRANSACTION",
  "COLLATERAL_REQUIRED",
  "COLLATERAL_ALREADY_AVAILABLE",
] as const;
export type BuildStatusCode = (typeof BUILD_STATUS_CODES)[number];
