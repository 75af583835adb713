/** Typed errors of the protocol codecs: a stable SCREAMING_SNAKE `type` and structured `data`. */

export type ProtocolErrorType =
  | "INVALID_PLUTUS_DATA"
  | "INVALID_DATUM"
  | "INVALID_REDEEMER"
  | "INVALID_FIELD"
  | "INVALID_BLUEPRINT"
  | "UNKNOWN_VALIDATOR";

export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  constructor(
    readonly type: ProtocolErrorType,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
