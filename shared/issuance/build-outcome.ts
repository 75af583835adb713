/**
 * BuildTransactionResponse (interface.md) and the refusal every builder and pre-check throws: a BuildStatus code
 * (decisions.md "Transactions") with a message that says what to do. The service turns it into a response body
 * with the matching HTTP status; nothing a caller sends can end as a 500.
 */
import { httpStatusOfBuild, type BuildStatusCode } from "../domain/build-status";

export const BUILD_TYPES = ["default", "custom", "bootstrap", "init", "deploy", "burn_state", "burn_bootstrap"] as const;
export type BuildType = (typeof BUILD_TYPES)[number];

export interface BuildTransactionResponse {
  unsignedTransaction: string | null;
  type: BuildType | null;
  status: { code: BuildStatusCode; message: string };
  /** `init` only: the one-shot out-ref the proxy is parameterised with */
  proxyTxHash?: string;
  proxyOutputIndex?: number;
}

/** A build that cannot (or need not) produce a transaction; `type` is the BuildStatus code. */
export class BuildRefusal extends Error {
  override readonly name = "BuildRefusal";
  constructor(
    readonly type: Exclude<BuildStatusCode, "SUCCESS">,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** @throws BuildRefusal */
export function refuse(code: Exclude<BuildStatusCode, "SUCCESS">, message: string, data: Record<string, unknown> = {}): never {
  throw new BuildRefusal(code, message, data);
}

export function isBuildRefusal(err: unknown): err is BuildRefusal {
  return err instanceof Error && err.name === "BuildRefusal";
}

export function successResponse(type: BuildType | null, unsignedTransaction: string, message = "Transaction built; sign it and submit it."): BuildTransactionResponse {
  return { unsignedTransaction, type, status: { code: "SUCCESS", message } };
}

export function refusalResponse(type: BuildType | null, err: BuildRefusal): BuildTransactionResponse {
  return { unsignedTransaction: null, type, status: { code: err.type, message: err.message } };
}

export function httpStatusOf(res: BuildTransactionResponse): number {
  return httpStatusOfBuild(res.status.code);
}
