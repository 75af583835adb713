/**
 * `POST /extension/connected-goods/mint/batch`: the mint of a batch of items, each with its claiming password. The
 * issuer is the payment key of the address that asks; nothing is hard-coded. Key derivations (scrypt) are the costly
 * part, so every cheap check runs first — parsing, sizes, password strength, the caller's funds and collateral, a
 * draft build with stand-in key hashes — and the derivations are then reserved from the caller's budget at once.
 */
import type { Metadatum, TxMetadata } from "../../csl/metadata";
import type { OgmiosUtxo } from "../../csl/utxo";
import type { BuildSpec } from "../../issuance/for-extensions";
import { dataToCbor, dataToCborHex } from "../../protocol";
import { encodeBatchDatum, sortBatchItems, type BatchDatum, type BatchItem } from "./batch-datum";
import { ConnectedGoodsError } from "./errors";
import { buildGoods, draftGoodsBuild, loadGoodsWallet, paidBy, type GoodsWallet } from "./goods-build";
import { goodsScript, STAND_IN_KEY_HASH, unmetered, type Body, type GoodsEnv } from "./goods-env";
import { encodeGoodsMintRedeemer } from "./goods-redeemers";
import { assetName, keyAddress, password, tokenNameParam } from "./goods-requests";
import { batchIdOf } from "./goods-token-names";
import { itemIdOf } from "./hub-profile";
import { deriveItemKey } from "./item-key";
import { KDF_PARALLEL } from "./kdf";
import type { KdfAllowance } from "./kdf-budget";
import { MIN_CLAIMING_PASSWORD_BITS, passwordBits } from "./password-strength";

/**
 * Largest batch datum the service mints: a claim carries both scripts inline (about 4.8 KB) besides the recreated
 * batch, so the 14 000 bytes the validators allow with reference scripts shrink to 9 000 (about 200 items with
 * 9-byte names).
 */
const MAX_SERVICE_BATCH_DATUM_BYTES = 9_000;
/** Items per mint request, checked before any key is derived (each costs a memory-hard KDF run). */
const MAX_MINT_ITEMS = 300;

export interface MintBatchResponse {
  unsignedTransaction: string;
  type: "mint_batch";
  status: { code: "SUCCESS"; message: string };
  batch_id: string;
  batchId: string;
  items: number;
  /** the batch token's display name, when the request gave one (CIP-25 metadata of the mint) */
  token_name?: string;
}

/**
 * POST /extension/connected-goods/mint/batch. No key is derived before every cheap check has passed, the last one a
 * draft build with stand-in key hashes (so a wallet that cannot pay costs no derivation); then the derivations the
 * mint needs are reserved from `caller`'s budget at once.
 */
export async function mintBatch(env: GoodsEnv, body: Body, caller: KdfAllowance = unmetered()): Promise<MintBatchResponse> {
  const issuer = keyAddress(body["address"], "address");
  const tokenName = tokenNameParam(body["token_name"] ?? body["tokenName"]);
  const raw = body["items"];
  if (!Array.isArray(raw) || raw.length === 0)
    throw new ConnectedGoodsError("INVALID_ITEMS", "items must be a non-empty list of { asset_name, password }");
  if (raw.length > MAX_MINT_ITEMS) {
    throw new ConnectedGoodsError(
      "INVALID_ITEMS",
      `a batch has at most ${MAX_MINT_ITEMS} items per request; split the goods into several batches`,
      {
        max: MAX_MINT_ITEMS,
      },
    );
  }
  const seen = { names: new Set<string>(), ids: new Set<string>() };
  const items = raw.map((it: unknown, i) => {
    if (typeof it !== "object" || it === null)
      throw new ConnectedGoodsError("INVALID_ITEMS", `items[${i}] must be an object { asset_name, password }`);
    const o = it as Body;
    const tokenName = assetName(o["asset_name"] ?? o["assetName"], `items[${i}].asset_name`);
    const pw = password(o["password"], `items[${i}].password`);
    if (seen.names.has(tokenName))
      throw new ConnectedGoodsError("INVALID_ITEMS", `items[${i}].asset_name repeats an earlier item's name`, { index: i });
    const id = itemIdOf(pw);
    if (seen.ids.has(id))
      throw new ConnectedGoodsError("INVALID_ITEMS", `items[${i}].password repeats an earlier item's password; each item needs its own`, {
        index: i,
      });
    seen.names.add(tokenName);
    seen.ids.add(id);
    return { tokenName, password: pw };
  });
  // The size check first, with placeholder key hashes of the real size: no KDF runs for a batch that cannot be minted.
  const placeholder: BatchDatum = {
    batchId: "00".repeat(32),
    issuer: issuer.keyHash,
    hubPolicy: env.scripts.socialHub.policyId,
    items: items.map((it) => ({ tokenName: it.tokenName, itemKeyHash: "00".repeat(28) })),
  };
  const size = dataToCbor(encodeBatchDatum(placeholder)).length;
  if (size > MAX_SERVICE_BATCH_DATUM_BYTES) {
    throw new ConnectedGoodsError(
      "INVALID_ITEMS",
      `these ${items.length} items make a batch datum of ${size} bytes; the limit is ${MAX_SERVICE_BATCH_DATUM_BYTES} bytes (about 200 items with 9-byte names), so that every item can still be claimed. Split the goods into several batches.`,
      { size, max: MAX_SERVICE_BATCH_DATUM_BYTES },
    );
  }
  items.forEach((it, i) => requireStrongPassword(it.password, i, it.tokenName));
  if (items.length > caller.maxAtOnce) {
    throw new ConnectedGoodsError(
      "INVALID_ITEMS",
      `a mint derives one key per item, and this service derives at most ${caller.maxAtOnce} for one client at once (GOODS_KDF_BURST); split the goods into batches of at most ${caller.maxAtOnce} items`,
      { max: caller.maxAtOnce },
    );
  }

  const wallet = await loadGoodsWallet(env, issuer.address);
  const seed = wallet.funds.payable[0]!;
  const seedRef = { txHash: seed.transaction.id, index: seed.index };
  const batchId = batchIdOf(seedRef);
  const specOf = (keyed: readonly BatchItem[]) => mintSpec(env, { issuer, wallet, seed, batchId, tokenName }, keyed);
  await draftGoodsBuild(env, specOf(items.map((it) => ({ tokenName: it.tokenName, itemKeyHash: STAND_IN_KEY_HASH }))), "mint");

  caller.reserve(items.length);
  const keyed: BatchItem[] = [];
  try {
    for (let i = 0; i < items.length; i += KDF_PARALLEL) {
      const chunk = items.slice(i, i + KDF_PARALLEL);
      const keys = await Promise.all(chunk.map((it) => deriveItemKey(it.password, batchId, it.tokenName, caller)));
      chunk.forEach((it, j) => keyed.push({ tokenName: it.tokenName, itemKeyHash: keys[j]!.keyHash }));
    }
  } finally {
    caller.close();
  }
  return {
    unsignedTransaction: await buildGoods(env, specOf(keyed), "mint"),
    type: "mint_batch",
    status: { code: "SUCCESS", message: `Batch of ${items.length} items built; the issuer signs it and submits it.` },
    batch_id: batchId,
    batchId,
    items: items.length,
    ...(tokenName === undefined ? {} : { token_name: tokenName }),
  };
}

/**
 * A mint password must reach MIN_CLAIMING_PASSWORD_BITS (password-strength.ts): its key hash goes on chain, where
 * guesses can be tested offline.
 * @throws ConnectedGoodsError WEAK_PASSWORD naming the item
 */
function requireStrongPassword(pw: string, index: number, tokenName: string): void {
  const bits = passwordBits(pw);
  if (bits >= MIN_CLAIMING_PASSWORD_BITS) return;
  const name = Buffer.from(tokenName, "hex").toString("utf8");
  throw new ConnectedGoodsError(
    "WEAK_PASSWORD",
    `items[${index}].password (item ${JSON.stringify(name)}) is too weak: about ${bits} bits estimated, a claiming password needs at least ${MIN_CLAIMING_PASSWORD_BITS} — e.g. 22 random lowercase letters and digits (rule: docs/connected-goods.md#claiming-passwords)`,
    { field: `items[${index}].password`, index, asset_name: name, bits, min_bits: MIN_CLAIMING_PASSWORD_BITS },
  );
}

interface MintParts {
  issuer: { address: string; keyHash: string };
  wallet: GoodsWallet;
  seed: OgmiosUtxo;
  batchId: string;
  tokenName: string | undefined;
}

/** The mint of batch `batchId` holding `keyed` (sorted here). */
function mintSpec(env: GoodsEnv, m: MintParts, keyed: readonly BatchItem[]): BuildSpec {
  const { issuer, wallet, seed, batchId, tokenName } = m;
  const seedRef = { txHash: seed.transaction.id, index: seed.index };
  const datum: BatchDatum = { batchId, issuer: issuer.keyHash, hubPolicy: env.scripts.socialHub.policyId, items: sortBatchItems(keyed) };
  const goods = env.scripts.connectedGoods;
  return {
    ...paidBy(
      wallet,
      wallet.funds.payable.filter((u) => u !== seed),
    ),
    keyInputs: [seed],
    mints: [
      {
        policy: goodsScript(env),
        redeemer: dataToCborHex(encodeGoodsMintRedeemer({ type: "MintBatch", seed: seedRef })),
        assets: { [batchId]: 1n },
      },
    ],
    outputs: [
      { address: goods.address, assets: { [goods.policyId]: { [batchId]: 1n } }, inlineDatum: dataToCborHex(encodeBatchDatum(datum)) },
    ],
    requiredSigners: [issuer.keyHash],
    ...(tokenName === undefined ? {} : { metadata: batchTokenMetadata(goods.policyId, batchId, tokenName) }),
  };
}

/** CIP-25 version 2 metadata naming the batch token: policy and asset name as bytes (the batch id is not text). */
function batchTokenMetadata(policyId: string, batchId: string, name: string): TxMetadata {
  const asset = new Map<Metadatum, Metadatum>([[Buffer.from(batchId, "hex"), { name }]]);
  return {
    721: new Map<Metadatum, Metadatum>([
      [Buffer.from(policyId, "hex"), asset],
      ["version", 2],
    ]),
  };
}
