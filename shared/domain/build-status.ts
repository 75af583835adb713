/** Build result codes of BuildTransactionResponse and their HTTP statuses (decisions.md "Transactions"). */
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

export function httpStatusOfBuild(code: BuildStatusCode): number {
  switch (code) {
    case "SUCCESS":
    case "COLLATERAL_ALREADY_AVAILABLE":
      return 200;
    case "PENDING_TRANSACTION":
      return 409;
    default:
      return 400;
  }
}
