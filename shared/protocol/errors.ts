/** Typed errors of the protocol codecs: a stable SCREAMING_SNAKE `type` and structured `data`. */
import { TypedError } from "../domain/errors";

export type ProtocolErrorType =
  "INVALID_PLUTUS_DATA" | "INVALID_DATUM" | "INVALID_REDEEMER" | "INVALID_FIELD" | "INVALID_BLUEPRINT" | "UNKNOWN_VALIDATOR";

export class ProtocolError extends TypedError<ProtocolErrorType> {
  override readonly name = "ProtocolError";
}
