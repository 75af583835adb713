/**
 * BuildTransactionResponse (docs/api.md#build-response) and the refusal every builder and pre-check throws: a BuildStatus code
 * (docs/decisions.md#build-codes-and-http-statuses) with a message that says what to do. The service turns it into a response body
 * with the matching HTTP status; nothing a caller sends can end as a 500.
 */
import type { BuildStatusCode } from "../domain/build-status";
import { TypedError } from "../domain/errors";

export const BUILD_TYPES = ["default", "custom", "bootstrap", "init", "deploy", "burn_state", "burn_bootstrap"] as const;
export type BuildType = (typeof BUILD_TYPES)[number];

export interface BuildTransactionResponse {
  unsignedTransaction: string | null;
  type: BuildType | null;
  status: { code: BuildStatusCode; message: string };
  /** failures only: the status code and message again, as every error answer has them */
  error?: string;
  message?: string;
  /** `init` only: the one-shot out-ref the proxy is parameterised with */
  proxyTxHash?: string;
  proxyOutputIndex?: number;
}

/** A build that cannot (or need not) produce a transaction; `type` is the BuildStatus code. */
export class BuildRefusal extends TypedError<Exclude<BuildStatusCode, "SUCCESS">> {
  override readonly name = "BuildRefusal";
}

/** @throws BuildRefusal */
export function refuse(code: Exclude<BuildStatusCode, "SUCCESS">, message: string, data: Record<string, unknown> = {}): never {
  throw new BuildRefusal(code, message, data);
}

export function isBuildRefusal(err: unknown): err is BuildRefusal {
  return err instanceof Error && err.name === "BuildRefusal";
}

export function successResponse(
  type: BuildType | null,
  unsignedTransaction: string,
  message = "Transaction built; sign it and submit it.",
): BuildTransactionResponse {
  return { unsignedTransaction, type, status: { code: "SUCCESS", message } };
}

/**
 * A build that produced no transaction. A failure carries the top-level `error` (its code) and `message` every error
 * answer of the API has, beside the BuildTransactionResponse fields; COLLATERAL_ALREADY_AVAILABLE is no failure.
 */
export function refusalResponse(type: BuildType | null, err: BuildRefusal): BuildTransactionResponse {
  const status = { code: err.type, message: err.message };
  if (err.type === "COLLATERAL_ALREADY_AVAILABLE") return { unsignedTransaction: null, type, status };
  return { error: err.type, message: err.message, unsignedTransaction: null, type, status };
}
