/** Typed errors of the connected-goods helpers. Messages and data never carry passwords or keys. */
import { TypedError } from "../domain/errors";

export type ConnectedGoodsErrorType = "INVALID_PASSWORD" | "INVALID_CONTEXT";

export class ConnectedGoodsError extends TypedError<ConnectedGoodsErrorType> {
  override readonly name = "ConnectedGoodsError";
}
