/**
 * The connected-goods extension off chain (docs/connected-goods.md): the mint of a batch (mint-batch.ts), the claim
 * of an item with its password (claim-item.ts), the update and transfer of a claimed item's social hub
 * (hub-changes.ts), the read of a hub, decrypted (social-hub-read.ts), and the indexer's decoding of batches and hubs
 * (goods-decoder.ts, goods-state.ts). Key derivations (scrypt) are the costly part: each is paid from the caller's
 * budget and skipped once its request is gone (`KdfAllowance`, kdf.ts), and every cheap check runs before them.
 */
export { ItemKey, ITEM_KEY_DOMAIN, ITEM_KEY_SCRYPT, deriveItemKey, itemKeySalt } from "./item-key";
export { ConnectedGoodsError, type ConnectedGoodsErrorType } from "./errors";
export { kdfActivity, KDF_PARALLEL, type KdfCaller } from "./kdf";
export { KdfAllowance, KdfBudget } from "./kdf-budget";
export { MIN_CLAIMING_PASSWORD_BITS, passwordBits } from "./password-strength";
export { HubKey, HubKeys, itemIdOf, itemIdFromInput, parseProfile, type PlainProfile } from "./hub-profile";
export type { GoodsEnv, GoodsSource } from "./goods-env";
export { mintBatch, type MintBatchResponse } from "./mint-batch";
export { claimItem } from "./claim-item";
export { transferItem, updateItem } from "./hub-changes";
export { readSocialHub, MAX_READ_BATCHES, type SocialHubResponse } from "./social-hub-read";
export {
  decodeGoodsTransaction,
  goodsFactDecoder,
  goodsFactDecoderOf,
  type BatchFact,
  type GoodsFact,
  type GoodsView,
  type HubFact,
} from "./goods-decoder";
