/**
 * The connected-goods service's work (docs/connected-goods.md): build the mint of a batch, the claim of an item
 * with its password (signed here by the item key, then by the buyer's wallet), the update of a claimed item's
 * social hub (signed by its owner), and the read of a hub, decrypted.
 *
 * - The issuer of a batch is the payment key of the address that asks for the mint; nothing is hard-coded.
 * - Claims of one batch chain: a claim spends the newest pending batch output a submitted claim created (the
 *   in-flight registry knows it), else the batch output the indexer confirmed, so several buyers can claim in one
 *   block.
 * - Both scripts travel inline in the transactions (the deployment publishes no reference scripts for them); that
 *   costs a claim about 4.8 KB, so batch datums are capped at MAX_SERVICE_BATCH_DATUM_BYTES.
 * - Key derivations (scrypt) are the costly part, so every cheap check runs first — parsing, sizes, password
 *   strength, the caller's funds and collateral, a draft build with stand-in key hashes — and each derivation is
 *   paid from the caller's budget and skipped once its request is gone (`KdfAllowance`, kdf.ts).
 */
import { randomBytes } from "node:crypto";
import { enterpriseAddressOfKeyHash, paymentCredentialOf } from "../../csl/address";
import type { Metadatum, TxMetadata } from "../../csl/metadata";
import { outputFrom } from "../../csl/outputs";
import type { OgmiosUtxo } from "../../csl/utxo";
import { DomainError } from "../../domain/errors";
import { buildEvaluatedAndClaim, draftBuild, type BuildSpec } from "../../issuance/evaluated-build";
import { refuse } from "../../issuance/build-outcome";
import type { IssuanceEnv } from "../../issuance/issuance-env";
import { loadWalletFunds, requireCollateral, type WalletFunds } from "../../issuance/wallet-funds";
import { type NetworkId, constr, dataFromCborHex, dataToCbor, dataToCborHex } from "../../protocol";
import { type BatchDatum, type BatchItem, decodeBatchDatum, encodeBatchDatum, sortBatchItems } from "./batch-datum";
import { type ConnectedGoodsScripts } from "./goods-scripts";
import { batchIdOf, hubTokenNameOf, MAX_ITEM_NAME_BYTES } from "./goods-token-names";
import { decodeSocialHubDatum, encodeSocialHubDatum, PROFILE_FIELDS } from "./social-hub-datum";
import { encodeGoodsMintRedeemer, encodeGoodsSpendRedeemer } from "./goods-redeemers";
import { encodeHubSpendRedeemer } from "./social-hub-redeemer";
import { ConnectedGoodsError } from "./errors";
import type { BatchFact, HubFact } from "./goods-decoder";
import type { HubKeys } from "./hub-profile";
import { HubKey, itemIdFromInput, itemIdOf, parseProfile, PROFILE_JSON_NAMES, type PlainProfile } from "./hub-profile";
import { deriveItemKey, type ItemKey } from "./item-key";
import { KDF_PARALLEL } from "./kdf";
import { KdfAllowance } from "./kdf-budget";
import { MIN_CLAIMING_PASSWORD_BITS, passwordBits } from "./password-strength";

/**
 * Largest batch datum the service mints: a claim carries both scripts inline (about 4.8 KB) besides the recreated
 * batch, so the 14 000 bytes the validators allow with reference scripts shrink to 9 000 (about 200 items with
 * 9-byte names).
 */
export const MAX_SERVICE_BATCH_DATUM_BYTES = 9_000;
/** Longest `token_name`: a transaction-metadata text holds at most 64 bytes (ledger rule). */
export const MAX_TOKEN_NAME_BYTES = 64;
/** Items per mint request, checked before any key is derived (each costs a memory-hard KDF run). */
export const MAX_MINT_ITEMS = 300;
/** A claim without `asset_name` tries the password on at most this many unclaimed items. */
export const MAX_ITEMS_SEARCHED = 32;
/** A read lists at most this many batch ids: each batch with claimed items may cost one hub-key derivation. */
export const MAX_READ_BATCHES = 8;
export const MIN_PASSWORD_CHARS = 8;
export const MAX_PASSWORD_CHARS = 256;
/** Placeholder of a 28-byte key hash, for the draft build before the keys are derived (same size on chain). */
const STAND_IN_KEY_HASH = "00".repeat(28);

/** Derivations for a caller with no budget and no request to lose (scripts, benchmarks, tests of the functions). */
const unmetered = (): KdfAllowance => new KdfAllowance(undefined, "local");

/** What the indexer confirmed (indexer.goodsBatch / goodsHubs). */
export interface GoodsSource {
  batch(batchId: string): Promise<BatchFact | null>;
  hubs(batchId: string): Promise<HubFact[]>;
}

export interface GoodsEnv {
  issuance: IssuanceEnv;
  source: GoodsSource;
  scripts: ConnectedGoodsScripts;
  hubKeys: HubKeys;
  networkId: NetworkId;
}

/** The API's SocialHub: every profile field decrypted ("" when unset). */
export interface SocialHubResponse {
  owner: string;
  batch_id: string;
  item_name: string;
  [field: string]: string;
}

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

type Body = Record<string, unknown>;

// ---- request parsing ---------------------------------------------------------------------------------------------

const invalid = (type: "INVALID_ITEMS" | "INVALID_PASSWORD" | "INVALID_CONTEXT", message: string, data: Record<string, unknown> = {}) =>
  new ConnectedGoodsError(type, message, data);

function keyAddress(value: unknown, field: string): { address: string; keyHash: string } {
  if (typeof value !== "string" || value.trim() === "")
    throw new DomainError("INVALID_ADDRESS", `${field} must be a bech32 address`, { field });
  const address = value.trim();
  let cred;
  try {
    cred = paymentCredentialOf(address);
  } catch {
    cred = undefined;
  }
  if (!cred) throw new DomainError("INVALID_ADDRESS", `${field} is not a valid Cardano address`, { field });
  if (cred.kind !== "key")
    throw new DomainError("INVALID_ADDRESS", `${field} must be a key address (a wallet), not a script address`, { field });
  return { address, keyHash: cred.hash };
}

function password(value: unknown, field = "password"): string {
  if (typeof value !== "string") throw invalid("INVALID_PASSWORD", `${field} must be a string`, { field });
  const chars = [...value.normalize("NFKC")].length;
  if (chars < MIN_PASSWORD_CHARS || chars > MAX_PASSWORD_CHARS) {
    throw invalid("INVALID_PASSWORD", `${field} must be ${MIN_PASSWORD_CHARS} to ${MAX_PASSWORD_CHARS} characters long`, { field });
  }
  return value;
}

function batchIdParam(value: unknown, field = "batch_id"): string {
  if (typeof value !== "string" || !/^[0-9a-fA-F]{64}$/.test(value.trim())) {
    throw invalid("INVALID_CONTEXT", `${field} must be a batch id: 64 hex characters`, { field });
  }
  return value.trim().toLowerCase();
}

/** An item's name as the request gives it (text, 1..32 UTF-8 bytes) → token name hex. */
function assetName(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "") throw invalid("INVALID_ITEMS", `${field} must be a non-empty string`, { field });
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > MAX_ITEM_NAME_BYTES) {
    throw invalid("INVALID_ITEMS", `${field} is ${bytes.length} bytes long in UTF-8; the limit is ${MAX_ITEM_NAME_BYTES}`, { field });
  }
  return bytes.toString("hex");
}

/**
 * `token_name`: the batch token's display name. The token's on-chain name must be the batch id (the validator
 * derives it from the seed input, which is what makes batch ids unique), so the name travels as CIP-25 metadata
 * (label 721) of the mint, where wallets and explorers read token names. Absent, null or "" → no metadata.
 */
function tokenNameParam(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") {
    throw new ConnectedGoodsError("INVALID_TOKEN_NAME", "token_name must be a string: the batch token's display name", {
      field: "token_name",
    });
  }
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > MAX_TOKEN_NAME_BYTES) {
    throw new ConnectedGoodsError(
      "INVALID_TOKEN_NAME",
      `token_name is ${bytes} bytes long in UTF-8; the limit is ${MAX_TOKEN_NAME_BYTES} (one transaction-metadata text)`,
      { field: "token_name", max: MAX_TOKEN_NAME_BYTES },
    );
  }
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new ConnectedGoodsError("INVALID_TOKEN_NAME", "token_name must not contain control characters", { field: "token_name" });
  }
  return value;
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

// ---- chain reads ------------------------------------------------------------------------------------------------

interface BatchAt {
  utxo: OgmiosUtxo;
  datum: BatchDatum;
  /** the datum the indexer confirmed (differs from `datum` when claims are pending) */
  confirmed: BatchDatum;
}

/** The batch's newest output: a pending claim's, else the confirmed one. @throws UNKNOWN_BATCH, BuildRefusal */
async function batchAt(env: GoodsEnv, batchId: string): Promise<BatchAt> {
  const fact = await env.source.batch(batchId);
  const pending = await env.issuance.registry.pendingOutputWith(env.scripts.connectedGoods.policyId, batchId);
  if (!fact && !pending) {
    throw new ConnectedGoodsError("UNKNOWN_BATCH", `no open batch ${batchId} is known (not minted, not confirmed yet, or closed)`, {
      batch_id: batchId,
    });
  }
  const confirmed: BatchDatum | undefined = fact ? { ...fact, items: fact.items } : undefined;
  if (pending?.datum) {
    const datum = decodeBatchDatum(dataFromCborHex(pending.datum));
    // a pending mint is not indexed yet: the indexer's rule (this deployment's hub policy only) applies here too
    if (datum.hubPolicy !== env.scripts.socialHub.policyId) {
      throw new ConnectedGoodsError("UNKNOWN_BATCH", `batch ${batchId} does not belong to this deployment`, { batch_id: batchId });
    }
    return { utxo: pending, datum, confirmed: confirmed ?? datum };
  }
  const [utxo] = (await env.issuance.chain.utxosByOutputReferences([fact!.outRef])) as OgmiosUtxo[];
  if (!utxo) refuse("PENDING_TRANSACTION", "The batch output was just spent by another transaction; retry in a few seconds.");
  return { utxo, datum: confirmed!, confirmed: confirmed! };
}

/** The hub's newest output: a pending update's, else the confirmed one. */
async function hubUtxo(env: GoodsEnv, hub: HubFact): Promise<OgmiosUtxo> {
  const pending = await env.issuance.registry.pendingOutputWith(env.scripts.socialHub.policyId, hub.hubName);
  if (pending) return pending;
  const [utxo] = (await env.issuance.chain.utxosByOutputReferences([hub.outRef])) as OgmiosUtxo[];
  if (!utxo) refuse("PENDING_TRANSACTION", "The social hub output was just spent by another transaction; retry in a few seconds.");
  return utxo;
}

/** The confirmed hub of `batchId` whose profile opens under `key`, with the profile. */
async function hubOpenedBy(env: GoodsEnv, batchId: string, key: HubKey): Promise<{ hub: HubFact; profile: PlainProfile } | undefined> {
  return hubOpenedIn(await env.source.hubs(batchId), key);
}

/** The hub among `hubs` whose profile opens under `key`, with the profile. */
function hubOpenedIn(hubs: readonly HubFact[], key: HubKey): { hub: HubFact; profile: PlainProfile } | undefined {
  for (const hub of hubs) {
    const profile = key.openProfile(hub.itemName, hub.profile);
    if (profile) return { hub, profile };
  }
  return undefined;
}

async function firstMatching<T>(candidates: readonly T[], test: (c: T) => Promise<boolean>): Promise<T | undefined> {
  for (let i = 0; i < candidates.length; i += KDF_PARALLEL) {
    const chunk = candidates.slice(i, i + KDF_PARALLEL);
    const hits = await Promise.all(chunk.map(test));
    const at = hits.indexOf(true);
    if (at >= 0) return chunk[at];
  }
  return undefined;
}

// ---- builds -------------------------------------------------------------------------------------------------------

const goodsScript = (env: GoodsEnv) => ({ language: "plutus:v3" as const, cbor: env.scripts.connectedGoods.code });
const hubScript = (env: GoodsEnv) => ({ language: "plutus:v3" as const, cbor: env.scripts.socialHub.code });

/**
 * POST /extension/connected-goods/mint/batch. No key is derived before every cheap check has passed, the last one a
 * draft build with stand-in key hashes (so a wallet that cannot pay costs no derivation); then the derivations the
 * mint needs are reserved from `caller`'s budget at once.
 */
export async function mintBatch(env: GoodsEnv, body: Body, caller: KdfAllowance = unmetered()): Promise<MintBatchResponse> {
  const issuer = keyAddress(body["address"], "address");
  const tokenName = tokenNameParam(body["token_name"] ?? body["tokenName"]);
  const raw = body["items"];
  if (!Array.isArray(raw) || raw.length === 0) throw invalid("INVALID_ITEMS", "items must be a non-empty list of { asset_name, password }");
  if (raw.length > MAX_MINT_ITEMS) {
    throw invalid("INVALID_ITEMS", `a batch has at most ${MAX_MINT_ITEMS} items per request; split the goods into several batches`, {
      max: MAX_MINT_ITEMS,
    });
  }
  const seen = { names: new Set<string>(), ids: new Set<string>() };
  const items = raw.map((it: unknown, i) => {
    if (typeof it !== "object" || it === null) throw invalid("INVALID_ITEMS", `items[${i}] must be an object { asset_name, password }`);
    const o = it as Body;
    const tokenName = assetName(o["asset_name"] ?? o["assetName"], `items[${i}].asset_name`);
    const pw = password(o["password"], `items[${i}].password`);
    if (seen.names.has(tokenName)) throw invalid("INVALID_ITEMS", `items[${i}].asset_name repeats an earlier item's name`, { index: i });
    const id = itemIdOf(pw);
    if (seen.ids.has(id))
      throw invalid("INVALID_ITEMS", `items[${i}].password repeats an earlier item's password; each item needs its own`, { index: i });
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
    throw invalid(
      "INVALID_ITEMS",
      `these ${items.length} items make a batch datum of ${size} bytes; the limit is ${MAX_SERVICE_BATCH_DATUM_BYTES} bytes (about 200 items with 9-byte names), so that every item can still be claimed. Split the goods into several batches.`,
      { size, max: MAX_SERVICE_BATCH_DATUM_BYTES },
    );
  }
  items.forEach((it, i) => requireStrongPassword(it.password, i, it.tokenName));
  if (items.length > caller.maxAtOnce) {
    throw invalid(
      "INVALID_ITEMS",
      `a mint derives one key per item, and this service derives at most ${caller.maxAtOnce} for one client at once (GOODS_KDF_BURST); split the goods into batches of at most ${caller.maxAtOnce} items`,
      { max: caller.maxAtOnce },
    );
  }

  const ienv = env.issuance;
  const funds = await loadWalletFunds(ienv.chain, ienv.registry, issuer.address);
  const collateral = requireCollateral(funds);
  const seed = funds.payable[0]!;
  const seedRef = { txHash: seed.transaction.id, index: seed.index };
  const batchId = batchIdOf(seedRef);
  const specOf = (keyed: readonly BatchItem[]) => mintSpec(env, { issuer, funds, collateral, seed, batchId, tokenName }, keyed);
  await draftBuild(ienv, specOf(items.map((it) => ({ tokenName: it.tokenName, itemKeyHash: STAND_IN_KEY_HASH }))), "connected-goods:mint");

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
  const built = await buildEvaluatedAndClaim(ienv, specOf(keyed), "connected-goods:mint");
  return {
    unsignedTransaction: built.cborHex,
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
  funds: WalletFunds;
  collateral: OgmiosUtxo;
  seed: OgmiosUtxo;
  batchId: string;
  tokenName: string | undefined;
}

/** The mint of batch `batchId` holding `keyed` (sorted here). */
function mintSpec(env: GoodsEnv, m: MintParts, keyed: readonly BatchItem[]): BuildSpec {
  const { issuer, funds, collateral, seed, batchId, tokenName } = m;
  const seedRef = { txHash: seed.transaction.id, index: seed.index };
  const datum: BatchDatum = { batchId, issuer: issuer.keyHash, hubPolicy: env.scripts.socialHub.policyId, items: sortBatchItems(keyed) };
  const goods = env.scripts.connectedGoods;
  return {
    utxos: funds.payable.filter((u) => u !== seed),
    keyInputs: [seed],
    changeAddress: issuer.address,
    collateral: [collateral],
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

interface ItemRequest {
  pw: string;
  batchId: string;
  user: { address: string; keyHash: string };
  profile: PlainProfile;
  /** token name hex, when the request names the item */
  tokenName?: string;
}

function itemRequest(body: Body): ItemRequest {
  const pw = password(body["password"]);
  const batchId = batchIdParam(body["batch_id"] ?? body["batchId"]);
  const user = keyAddress(body["user_address"] ?? body["userAddress"], "user_address");
  const profile = parseProfile(body["social_hub"] ?? body["socialHub"], { requireOne: true });
  const name = body["asset_name"] ?? body["assetName"];
  return { pw, batchId, user, profile, ...(name === undefined ? {} : { tokenName: assetName(name, "asset_name") }) };
}

const alreadyClaimed = (batchId: string, pending: boolean) =>
  new ConnectedGoodsError(
    "ITEM_ALREADY_CLAIMED",
    pending
      ? "this item was just claimed by a transaction waiting for a block; it cannot be claimed again"
      : "this item has already been claimed; its owner can update its social hub",
    { batch_id: batchId },
  );

const wrongPassword = (batchId: string) =>
  new ConnectedGoodsError("WRONG_PASSWORD", "the password does not open any item of this batch", { batch_id: batchId });

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
  const ienv = env.issuance;
  const funds = await loadWalletFunds(ienv.chain, ienv.registry, req.user.address);
  const collateral = requireCollateral(funds);
  const standIn = batch.datum.items.find((i) => i.tokenName === req.tokenName) ?? batch.datum.items[0];
  if (standIn) {
    const sealed = new HubKey(randomBytes(32)).sealProfile(standIn.tokenName, req.profile);
    await draftBuild(
      ienv,
      claimSpec(env, req, batch, funds, collateral, { item: standIn, keyHash: STAND_IN_KEY_HASH, sealed }),
      "connected-goods:claim",
    );
  }

  const hubKey = await env.hubKeys.get(itemIdOf(req.pw), req.batchId, caller);
  // An item claimed and confirmed: its hub opens under this password's key (cheaper than the item-key search).
  if (await hubOpenedBy(env, req.batchId, hubKey)) throw alreadyClaimed(req.batchId, false);
  const { item, key } = await itemUnlockedBy(env, req, batch, caller);
  const sealed = hubKey.sealProfile(item.tokenName, req.profile);
  const built = await buildEvaluatedAndClaim(
    ienv,
    claimSpec(env, req, batch, funds, collateral, { item, keyHash: key.keyHash, sealed }),
    "connected-goods:claim",
  );
  return key.signTxFull(built.cborHex);
}

/** The claim of `claimed.item` by `req.user`, signed by the item key `claimed.keyHash`, with its sealed profile. */
function claimSpec(
  env: GoodsEnv,
  req: ItemRequest,
  batch: BatchAt,
  funds: WalletFunds,
  collateral: OgmiosUtxo,
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
    utxos: funds.payable,
    changeAddress: req.user.address,
    collateral: [collateral],
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

/**
 * The confirmed hub `req.pw` opens in its batch, its newest output and datum; `req.user` must own it. The user's
 * funds and collateral are checked before the hub key is derived (paid by `caller`).
 */
async function ownedHub(env: GoodsEnv, req: Omit<ItemRequest, "profile">, caller: KdfAllowance) {
  if (!(await env.source.batch(req.batchId)) && (await env.source.hubs(req.batchId)).length === 0) {
    throw new ConnectedGoodsError("UNKNOWN_BATCH", `no batch ${req.batchId} is known`, { batch_id: req.batchId });
  }
  const ienv = env.issuance;
  const funds = await loadWalletFunds(ienv.chain, ienv.registry, req.user.address);
  const collateral = requireCollateral(funds);
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
  return { hub: found.hub, hubKey, utxo, current, funds, collateral };
}

/** The one-hub-spend transaction: the owner spends the hub with `redeemer` and recreates it with `datum`. */
async function hubSpend(
  env: GoodsEnv,
  owned: { funds: WalletFunds; collateral: OgmiosUtxo; utxo: OgmiosUtxo; hub: HubFact },
  owner: ItemRequest["user"],
  datum: string,
  redeemer: string,
) {
  const ienv = env.issuance;
  const { funds, collateral, utxo: spent } = owned;
  const hubName = owned.hub.hubName;
  const hub = env.scripts.socialHub;
  const out = { address: spent.address, assets: { [hub.policyId]: { [hubName]: 1n } }, inlineDatum: datum };
  const minimum = await minLovelace(env, out);
  const old = BigInt(spent.value.ada.lovelace);
  const spec: BuildSpec = {
    utxos: funds.payable,
    changeAddress: owner.address,
    collateral: [collateral],
    scriptInputs: [{ utxo: spent, script: hubScript(env), redeemer }],
    // the validator lets a hub's ADA grow, never shrink
    outputs: [{ ...out, lovelace: old > minimum ? old : minimum }],
    requiredSigners: [owner.keyHash],
  };
  return (await buildEvaluatedAndClaim(ienv, spec, "connected-goods:hub")).cborHex;
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

/**
 * GET /extension/connected-goods/{batchIds}/{itemId}: the first batch whose hub opens under the item id. At most
 * MAX_READ_BATCHES ids, so a read derives at most that many hub keys (each paid by `caller`; a cached key is free).
 */
export async function readSocialHub(
  env: GoodsEnv,
  batchIdsParam: string,
  itemIdParam: string,
  caller: KdfAllowance = unmetered(),
): Promise<SocialHubResponse> {
  const batchIds = [
    ...new Set(
      batchIdsParam
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== ""),
    ),
  ];
  if (batchIds.length === 0 || batchIds.length > MAX_READ_BATCHES) {
    throw new ConnectedGoodsError("INVALID_CONTEXT", `batchIds must be 1 to ${MAX_READ_BATCHES} comma-separated batch ids`, {
      max: MAX_READ_BATCHES,
    });
  }
  const ids = batchIds.map((b) => batchIdParam(b, "batchIds"));
  if (itemIdParam === "" || itemIdParam.length > MAX_PASSWORD_CHARS * 4) {
    throw new ConnectedGoodsError("INVALID_PASSWORD", "itemId must be the SHA-256 hex of the claiming password, or the password");
  }
  const itemId = itemIdFromInput(itemIdParam);
  const unknown: string[] = [];
  for (const batchId of ids) {
    // a batch with no claimed item has no hub to open: no key is derived for it
    const hubs = await env.source.hubs(batchId);
    if (hubs.length === 0) {
      if (!(await env.source.batch(batchId))) unknown.push(batchId);
      continue;
    }
    const key = await env.hubKeys.get(itemId, batchId, caller);
    const found = hubOpenedIn(hubs, key);
    if (!found) continue;
    const out: SocialHubResponse = {
      owner: enterpriseAddressOfKeyHash(found.hub.owner, env.networkId),
      batch_id: batchId,
      item_name: Buffer.from(found.hub.itemName, "hex").toString("utf8"),
    };
    for (const f of PROFILE_FIELDS) out[PROFILE_JSON_NAMES[f]] = found.profile[f] ?? "";
    return out;
  }
  if (unknown.length === ids.length) {
    throw new ConnectedGoodsError(
      "UNKNOWN_BATCH",
      ids.length === 1
        ? `no batch ${ids[0]} is known (not minted, or its mint is not confirmed yet); check the batch id`
        : "none of these batch ids names a known batch (not minted, or their mints are not confirmed yet); check the batch ids",
      { batch_ids: ids },
    );
  }
  throw new ConnectedGoodsError(
    "WRONG_PASSWORD",
    "no claimed item of these batches opens with this item id (wrong id, or not claimed yet)",
    { batch_ids: ids, ...(unknown.length > 0 ? { unknown_batch_ids: unknown } : {}) },
  );
}
