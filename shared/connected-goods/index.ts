/** Off-chain helpers of the connected-goods extension. */
export { ItemKey, ITEM_KEY_DOMAIN, ITEM_KEY_SCRYPT, deriveItemKey, itemKeySalt } from "./item-key";
export { ConnectedGoodsError, type ConnectedGoodsErrorType } from "./errors";
