/** Off-chain helpers of the connected-goods extension. */
export { ItemKey, ITEM_KEY_DOMAIN, ITEM_KEY_SCRYPT, deriveItemKey, itemKeySalt } from "./item-key";
export { ConnectedGoodsError, type ConnectedGoodsErrorType } from "./errors";
export { kdfActivity, KDF_PARALLEL, type KdfCaller } from "./kdf";
export { KdfAllowance, KdfBudget } from "./kdf-budget";
export { MIN_CLAIMING_PASSWORD_BITS, passwordBits } from "./password-strength";
export { HubKey, HubKeys, HUB_KEY_DOMAIN, HUB_KEY_SCRYPT, itemIdOf, itemIdFromInput, parseProfile, type PlainProfile } from "./hub-profile";
export {
  claimItem,
  mintBatch,
  readSocialHub,
  transferItem,
  updateItem,
  MAX_ITEMS_SEARCHED,
  MAX_MINT_ITEMS,
  MAX_READ_BATCHES,
  MAX_SERVICE_BATCH_DATUM_BYTES,
  type GoodsEnv,
  type GoodsSource,
  type MintBatchResponse,
  type SocialHubResponse,
} from "./goods-actions";
export { decodeGoodsTransaction, isGoodsRelevant, type BatchFact, type GoodsFact, type GoodsView, type HubFact } from "./goods-decoder";
