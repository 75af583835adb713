/**
 * `POST /extension/connected-goods/claim/item`: the claim of one item with its password, signed here by the item key
 * (then by the buyer's wallet). A claim spends the newest batch output (goods-outputs.ts), so several buyers can claim
 * from one batch in one block; the buyer's funds, collateral and a draft of the claim are checked before any key is
 * derived.
 */
import { randomBytes } from "node:crypto";
import type { BuildSpec } from "../../issuance/for-extensions";
import { constr, dataToCborHex } from "../../protocol";
import { encodeBatchDatum, type BatchItem } from "./batch-datum";
import { alreadyClaimed, ConnectedGoodsError, wrongPassword } from "./errors";
import { buildGoods, draftGoodsBuild, loadGoodsWallet, paidBy, type GoodsWallet } from "./goods-build";
import { goodsScript, hubScript, STAND_IN_KEY_HASH, unmetered, type Body, type GoodsEnv } from "./goods-env";
import { batchAt, firstMatching, hubOpenedBy, type BatchAt } from "./goods-outputs";
import { encodeGoodsSpendRedeemer } from "./goods-redeemers";
import { itemRequest, type ItemRequest } from "./goods-requests";
import { hubTokenNameOf } from "./goods-token-names";
import { HubKey, itemIdOf } from "./hub-profile";
import { deriveItemKey, type ItemKey } from "./item-key";
import type { KdfAllowance } from "./kdf-budget";
import { encodeSocialHubDatum } from "./social-hub-datum";

/** A claim without `asset_name` tries the password on at most this many unclaimed items. */
const MAX_ITEMS_SEARCHED = 32;

/**
 * The unclaimed item `pw` unlocks, with its key; each key tried is paid by `caller`.
 * @throws WRONG_PASSWORD, ITEM_ALREADY_CLAIMED, INVALID_CONTEXT, KDF_BUDGET_EXCEEDED
 */
async function itemUnlockedBy(
  env: GoodsEnv,
  req: ItemRequest,
  batch: BatchAt,
  caller: KdfAllowance,
): Promise<{ item: BatchItem; key: ItemKey }> {
  const tryItem = async (it: BatchItem): Promise<ItemKey | undefined> => {
    const key = await deriveItemKey(req.pw, req.batchId, it.tokenName, caller);
    return key.keyHash === it.itemKeyHash ? key : undefined;
  };
  const open = batch.datum.items;
  const pendingClaimed = batch.confirmed.items.filter((c) => !open.some((o) => o.tokenName === c.tokenName));
  if (req.tokenName !== undefined) {
    const item = open.find((i) => i.tokenName === req.tokenName);
    if (item) {
      const key = await tryItem(item);
      if (!key) throw wrongPassword(req.batchId);
      return { item, key };
    }
    const claimedPending = pendingClaimed.find((i) => i.tokenName === req.tokenName);
    if (claimedPending && (await tryItem(claimedPending))) throw alreadyClaimed(req.batchId, true);
    const hub = (await env.source.hubs(req.batchId)).find((h) => h.itemName === req.tokenName);
    if (hub) throw alreadyClaimed(req.batchId, false);
    throw new ConnectedGoodsError("INVALID_CONTEXT", "the batch has no item of that asset_name", { batch_id: req.batchId });
  }
  if (open.length > MAX_ITEMS_SEARCHED) {
    throw new ConnectedGoodsError(
      "INVALID_CONTEXT",
      `this batch still has ${open.length} unclaimed items; send the item's asset_name with the password (it is found without it only among at most ${MAX_ITEMS_SEARCHED})`,
      { batch_id: req.batchId, max: MAX_ITEMS_SEARCHED },
    );
  }
  const keys = new Map<string, ItemKey>();
  const item = await firstMatching(open, async (it) => {
    const key = await tryItem(it);
    if (key) keys.set(it.tokenName, key);
    return key !== undefined;
  });
  if (item) return { item, key: keys.get(item.tokenName)! };
  if (await firstMatching(pendingClaimed, async (it) => (await tryItem(it)) !== undefined)) throw alreadyClaimed(req.batchId, true);
  throw wrongPassword(req.batchId);
}

/**
 * POST /extension/connected-goods/claim/item: the claim as CBOR hex, already signed by the item key. The buyer's
 * funds, collateral and a draft of the claim (a stand-in item, key hash and profile key of the same sizes) are
 * checked before any key is derived.
 */
export async function claimItem(env: GoodsEnv, body: Body, caller: KdfAllowance = unmetered()): Promise<string> {
  const req = itemRequest(body);
  const batch = await batchAt(env, req.batchId);
  const wallet = await loadGoodsWallet(env, req.user.address);
  const standIn = batch.datum.items.find((i) => i.tokenName === req.tokenName) ?? batch.datum.items[0];
  if (standIn) {
    const sealed = new HubKey(randomBytes(32)).sealProfile(standIn.tokenName, req.profile);
    await draftGoodsBuild(env, claimSpec(env, req, batch, wallet, { item: standIn, keyHash: STAND_IN_KEY_HASH, sealed }), "claim");
  }

  const hubKey = await env.hubKeys.get(itemIdOf(req.pw), req.batchId, caller);
  // An item claimed and confirmed: its hub opens under this password's key (cheaper than the item-key search).
  if (await hubOpenedBy(env, req.batchId, hubKey)) throw alreadyClaimed(req.batchId, false);
  const { item, key } = await itemUnlockedBy(env, req, batch, caller);
  const sealed = hubKey.sealProfile(item.tokenName, req.profile);
  const unsigned = await buildGoods(env, claimSpec(env, req, batch, wallet, { item, keyHash: key.keyHash, sealed }), "claim");
  return key.signTxFull(unsigned);
}

/** The claim of `claimed.item` by `req.user`, signed by the item key `claimed.keyHash`, with its sealed profile. */
function claimSpec(
  env: GoodsEnv,
  req: ItemRequest,
  batch: BatchAt,
  wallet: GoodsWallet,
  claimed: { item: BatchItem; keyHash: string; sealed: ReturnType<HubKey["sealProfile"]> },
): BuildSpec {
  const { item } = claimed;
  const hubName = hubTokenNameOf(req.batchId, item.tokenName);
  const rest = batch.datum.items.filter((i) => i.tokenName !== item.tokenName);
  const hubDatum = encodeSocialHubDatum({
    owner: req.user.keyHash,
    batchId: req.batchId,
    itemName: item.tokenName,
    profile: claimed.sealed,
  });
  const { connectedGoods: goods, socialHub: hub } = env.scripts;
  return {
    ...paidBy(wallet),
    scriptInputs: [
      {
        utxo: batch.utxo,
        script: goodsScript(env),
        redeemer: dataToCborHex(encodeGoodsSpendRedeemer({ type: "Claim", tokenName: item.tokenName })),
      },
    ],
    mints: [{ policy: hubScript(env), redeemer: dataToCborHex(constr(0)), assets: { [hubName]: 1n } }],
    outputs: [
      {
        address: batch.utxo.address,
        lovelace: BigInt(batch.utxo.value.ada.lovelace),
        assets: { [goods.policyId]: { [req.batchId]: 1n } },
        inlineDatum: dataToCborHex(encodeBatchDatum({ ...batch.datum, items: rest })),
      },
      { address: hub.address, assets: { [hub.policyId]: { [hubName]: 1n } }, inlineDatum: dataToCborHex(hubDatum) },
    ],
    requiredSigners: [claimed.keyHash, req.user.keyHash],
  };
}
