/** Typed wallet errors. Messages and data never carry key material or mnemonics. */
import { TypedError } from "../domain/errors";

export type WalletErrorType =
  | "INVALID_MNEMONIC"
  | "INVALID_OPTIONS"
  | "ADDRESS_NOT_OWNED"
  | "INVALID_TRANSACTION"
  | "INVALID_PAYLOAD"
  | "KEY_FILE_EXISTS"
  | "KEY_FILE_UNREADABLE";

export class WalletError extends TypedError<WalletErrorType> {
  override readonly name = "WalletError";
}
