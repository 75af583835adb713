/**
 * The one error the transparency-log library throws, for a caller's mistake (a proof asked for outside the tree, a
 * hash reader returning a wrong-sized hash, a malformed key given to a signer). Parsers and verifiers never throw:
 * they return a Result or a check naming the problem.
 */
import { TypedError } from "../domain/errors";

export type TlogErrorType = "TLOG_BAD_ARGUMENT" | "TLOG_BAD_HASH" | "TLOG_BAD_TILE" | "TLOG_BAD_KEY" | "TLOG_BAD_NOTE";

export class TlogError extends TypedError<TlogErrorType> {
  override readonly name = "TlogError";
}

export function badArgument(message: string, data: Record<string, unknown> = {}): never {
  throw new TlogError("TLOG_BAD_ARGUMENT", message, data);
}
