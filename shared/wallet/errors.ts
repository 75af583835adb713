/** Typed wallet errors. Messages and data never carry key material or mnemonics. */

export type WalletErrorType =
  | "INVALID_MNEMONIC"
  | "INVALID_OPTIONS"
  | "ADDRESS_NOT_OWNED"
  | "INVALID_TRANSACTION"
  | "INVALID_PAYLOAD"
  | "KEY_FILE_EXISTS"
  | "KEY_FILE_UNREADABLE";

export class WalletError extends Error {
  override readonly name = "WalletError";
  constructor(
    readonly type: WalletErrorType,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
