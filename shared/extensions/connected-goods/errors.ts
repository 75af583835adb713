/** Typed errors of the connected-goods helpers. Messages and data never carry passwords or keys. */
import { TypedError } from "../../domain/errors";

export type ConnectedGoodsErrorType =
  /** a wallet address is missing, malformed or a script's */
  | "INVALID_ADDRESS"
  | "INVALID_PASSWORD"
  | "INVALID_CONTEXT"
  /** a mint request's items are malformed (names, passwords, duplicates, too many) */
  | "INVALID_ITEMS"
  | "INVALID_SOCIAL_HUB"
  /** a mint request's token_name is not a short text */
  | "INVALID_TOKEN_NAME"
  /** the password opens no item of the batch */
  | "WRONG_PASSWORD"
  | "UNKNOWN_BATCH"
  | "ITEM_ALREADY_CLAIMED"
  | "NOT_ITEM_OWNER"
  /** a mint password below the strength rule (password-strength.ts) */
  | "WEAK_PASSWORD"
  /** the client's budget of key derivations is spent (429, retryAfterSeconds) */
  | "KDF_BUDGET_EXCEEDED";

/** The HTTP status of each (docs/connected-goods.md#errors): problems of the request, and a spent budget. */
export const GOODS_ERROR_STATUSES = {
  INVALID_ADDRESS: 400,
  INVALID_PASSWORD: 400,
  INVALID_CONTEXT: 400,
  INVALID_ITEMS: 400,
  INVALID_SOCIAL_HUB: 400,
  INVALID_TOKEN_NAME: 400,
  WRONG_PASSWORD: 400,
  UNKNOWN_BATCH: 400,
  ITEM_ALREADY_CLAIMED: 400,
  NOT_ITEM_OWNER: 400,
  WEAK_PASSWORD: 400,
  KDF_BUDGET_EXCEEDED: 429,
} as const satisfies Record<ConnectedGoodsErrorType, number>;

export class ConnectedGoodsError extends TypedError<ConnectedGoodsErrorType> {
  override readonly name = "ConnectedGoodsError";
}

export const alreadyClaimed = (batchId: string, pending: boolean) =>
  new ConnectedGoodsError(
    "ITEM_ALREADY_CLAIMED",
    pending
      ? "this item was just claimed by a transaction waiting for a block; it cannot be claimed again"
      : "this item has already been claimed; its owner can update its social hub",
    { batch_id: batchId },
  );

export const wrongPassword = (batchId: string) =>
  new ConnectedGoodsError("WRONG_PASSWORD", "the password does not open any item of this batch", { batch_id: batchId });
