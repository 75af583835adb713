/**
 * `POST /extension/connected-goods/update/item` and `.../transfer/item`: the owner of a claimed item changes its
 * social hub's profile, or gives the item to a new owner; either spends the hub and re-creates it, for the owner to
 * sign. The owner's funds and collateral are checked before the hub key is derived.
 */
import { outputFrom } from "../../csl/outputs";
import type { OgmiosUtxo } from "../../csl/utxo";
import type { BuildSpec } from "../../issuance/for-extensions";
import { dataFromCborHex, dataToCborHex } from "../../protocol";
import { ConnectedGoodsError, wrongPassword } from "./errors";
import { buildGoods, loadGoodsWallet, paidBy, type GoodsWallet } from "./goods-build";
import type { HubFact } from "./goods-decoder";
import { hubScript, unmetered, type Body, type GoodsEnv } from "./goods-env";
import { hubOpenedBy, hubUtxo } from "./goods-outputs";
import { batchIdParam, itemRequest, keyAddress, password, type ItemRequest } from "./goods-requests";
import { itemIdOf } from "./hub-profile";
import type { KdfAllowance } from "./kdf-budget";
import { decodeSocialHubDatum, encodeSocialHubDatum } from "./social-hub-datum";
import { encodeHubSpendRedeemer } from "./social-hub-redeemer";

/**
 * The confirmed hub `req.pw` opens in its batch, its newest output and datum; `req.user` must own it. The user's
 * funds and collateral are checked before the hub key is derived (paid by `caller`).
 */
async function ownedHub(env: GoodsEnv, req: Omit<ItemRequest, "profile">, caller: KdfAllowance) {
  if (!(await env.source.batch(req.batchId)) && (await env.source.hubs(req.batchId)).length === 0) {
    throw new ConnectedGoodsError("UNKNOWN_BATCH", `no batch ${req.batchId} is known`, { batch_id: req.batchId });
  }
  const wallet = await loadGoodsWallet(env, req.user.address);
  const hubKey = await env.hubKeys.get(itemIdOf(req.pw), req.batchId, caller);
  const found = await hubOpenedBy(env, req.batchId, hubKey);
  if (!found) throw wrongPassword(req.batchId);
  const utxo = await hubUtxo(env, found.hub);
  const current = decodeSocialHubDatum(dataFromCborHex(String(utxo.datum)));
  if (current.owner !== req.user.keyHash) {
    throw new ConnectedGoodsError(
      "NOT_ITEM_OWNER",
      "user_address is not the owner of this item; only its owner can change its social hub",
      {
        batch_id: req.batchId,
      },
    );
  }
  return { hub: found.hub, hubKey, utxo, current, wallet };
}

/** The one-hub-spend transaction: the owner spends the hub with `redeemer` and recreates it with `datum`. */
async function hubSpend(
  env: GoodsEnv,
  owned: { wallet: GoodsWallet; utxo: OgmiosUtxo; hub: HubFact },
  owner: ItemRequest["user"],
  datum: string,
  redeemer: string,
) {
  const { wallet, utxo: spent } = owned;
  const hubName = owned.hub.hubName;
  const hub = env.scripts.socialHub;
  const out = { address: spent.address, assets: { [hub.policyId]: { [hubName]: 1n } }, inlineDatum: datum };
  const minimum = await minLovelace(env, out);
  const old = BigInt(spent.value.ada.lovelace);
  const spec: BuildSpec = {
    ...paidBy(wallet),
    scriptInputs: [{ utxo: spent, script: hubScript(env), redeemer }],
    // the validator lets a hub's ADA grow, never shrink
    outputs: [{ ...out, lovelace: old > minimum ? old : minimum }],
    requiredSigners: [owner.keyHash],
  };
  return buildGoods(env, spec, "hub");
}

/** POST /extension/connected-goods/update/item: the update as CBOR hex, for the owner to sign. */
export async function updateItem(env: GoodsEnv, body: Body, caller: KdfAllowance = unmetered()): Promise<string> {
  const req = itemRequest(body);
  const owned = await ownedHub(env, req, caller);
  const datum = encodeSocialHubDatum({ ...owned.current, profile: owned.hubKey.sealProfile(owned.current.itemName, req.profile) });
  return hubSpend(env, owned, req.user, dataToCborHex(datum), dataToCborHex(encodeHubSpendRedeemer({ type: "Update" })));
}

/**
 * POST /extension/connected-goods/transfer/item: the owner gives the item to `new_owner_address` (the profile stays;
 * whoever holds the password can still read it, and the new owner, who gets the password with the good, can update it).
 */
export async function transferItem(env: GoodsEnv, body: Body, caller: KdfAllowance = unmetered()): Promise<string> {
  const req = {
    pw: password(body["password"]),
    batchId: batchIdParam(body["batch_id"] ?? body["batchId"]),
    user: keyAddress(body["user_address"] ?? body["userAddress"], "user_address"),
  };
  const to = keyAddress(body["new_owner_address"] ?? body["newOwnerAddress"], "new_owner_address");
  const owned = await ownedHub(env, req, caller);
  if (to.keyHash === owned.current.owner) {
    throw new ConnectedGoodsError("INVALID_CONTEXT", "new_owner_address already owns this item", { batch_id: req.batchId });
  }
  const datum = encodeSocialHubDatum({ ...owned.current, owner: to.keyHash });
  return hubSpend(
    env,
    owned,
    req.user,
    dataToCborHex(datum),
    dataToCborHex(encodeHubSpendRedeemer({ type: "Transfer", newOwner: to.keyHash })),
  );
}

async function minLovelace(env: GoodsEnv, out: { address: string; assets: Record<string, Record<string, bigint>>; inlineDatum: string }) {
  const pp = await env.issuance.protocolParameters();
  return BigInt(outputFrom(out, BigInt(pp.minUtxoDepositCoefficient)).amount().coin().to_str());
}
