/** Typed errors of the CSL facade: a stable SCREAMING_SNAKE `type` and structured `data`. */
import { TypedError } from "../domain/errors";

export type CslErrorType =
  | "INVALID_CBOR"
  | "INVALID_HEX"
  | "INVALID_ADDRESS"
  | "INVALID_SCRIPT"
  | "INVALID_PROTOCOL_PARAMETERS"
  | "INSUFFICIENT_FUNDS"
  | "OUTPUT_BELOW_MIN_UTXO"
  | "TX_BUILD_FAILED"
  | "TX_TOO_LARGE"
  | "EVALUATION_RESULT_UNMATCHED"
  | "EVALUATION_FAILED";

export class CslError extends TypedError<CslErrorType> {
  override readonly name = "CslError";
}

/** Runs a CSL call and turns its untyped throw (often a plain string) into a CslError. */
export function cslCall<T>(type: CslErrorType, what: string, fn: () => T, data: Record<string, unknown> = {}): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof CslError) throw err;
    throw new CslError(type, `${what}: ${describeThrown(err)}`, data);
  }
}

/** CSL throws strings as often as Errors. */
export function describeThrown(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
