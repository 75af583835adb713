/**
 * The connected-goods batch datum: `Constr 0 [batch_id, issuer, hub_policy, items]`, each item
 * `Constr 0 [token_name, item_key_hash]`, items strictly ascending by token name (byte order), which is how the
 * validator checks in one pass that names are distinct.
 */
import {
  bytes,
  compareByteStrings,
  constr,
  type Data,
  dataToCbor,
  expectBytes,
  expectConstr,
  expectList,
  list,
} from "../../protocol/plutus-data";
import { ProtocolError } from "../../protocol/errors";
import { BATCH_ID_BYTES, MAX_ITEM_NAME_BYTES } from "./goods-token-names";

export interface BatchItem {
  /** the item's name inside the batch, hex (1..32 bytes, usually UTF-8 text) */
  readonly tokenName: string;
  /** blake2b-224 of the item key (56 hex), see shared/extensions/connected-goods/item-key.ts */
  readonly itemKeyHash: string;
}

export interface BatchDatum {
  /** 32 bytes hex: the batch token's name */
  readonly batchId: string;
  /** payment key hash of the issuer (56 hex) */
  readonly issuer: string;
  /** social_hub script hash the claims mint under (56 hex) */
  readonly hubPolicy: string;
  readonly items: readonly BatchItem[];
}

/**
 * Largest batch datum, in CBOR bytes, worth minting: every claim recreates the batch with all the remaining items
 * in one transaction (at most 16 384 bytes) next to the new hub, two redeemers and the witnesses, so a bigger batch
 * could be minted but never claimed from. 14 000 bytes leave about 2 KB for the rest of a claim (about 315 items
 * with 9-byte names, 204 with 32-byte names).
 */
export const MAX_BATCH_DATUM_BYTES = 14_000;

/**
 * The datum's CBOR size.
 * @throws ProtocolError INVALID_FIELD when it is above MAX_BATCH_DATUM_BYTES
 */
export function checkBatchDatumSize(d: BatchDatum): number {
  const size = dataToCbor(encodeBatchDatum(d)).length;
  if (size > MAX_BATCH_DATUM_BYTES) {
    throw new ProtocolError("INVALID_FIELD", `a batch datum of ${size} bytes is too large to claim from (max ${MAX_BATCH_DATUM_BYTES})`, {
      size,
      max: MAX_BATCH_DATUM_BYTES,
      items: d.items.length,
    });
  }
  return size;
}

/** Items in the datum's order: ascending token name bytes. */
export const compareBatchItems = (a: BatchItem, b: BatchItem): number => compareByteStrings(a.tokenName, b.tokenName);

/**
 * Items in the order the validator requires (ascending token name bytes), after checking names and key hashes.
 * @throws ProtocolError INVALID_FIELD for an empty list, a bad name or key hash, or a repeated name
 */
export function sortBatchItems(items: readonly BatchItem[]): BatchItem[] {
  if (items.length === 0) throw new ProtocolError("INVALID_FIELD", "a batch needs at least one item");
  const sorted = items.map((it, i) => checkItem(it, `items[${i}]`)).sort(compareBatchItems);
  for (let i = 1; i < sorted.length; i++) {
    if (compareBatchItems(sorted[i - 1]!, sorted[i]!) === 0) {
      throw new ProtocolError("INVALID_FIELD", "item token names must be distinct", { tokenName: sorted[i]!.tokenName });
    }
  }
  return sorted;
}

function checkItem(it: BatchItem, what: string): BatchItem {
  const tokenName = expectBytes(bytes(it.tokenName), `${what}.tokenName`);
  if (tokenName.length === 0 || tokenName.length > MAX_ITEM_NAME_BYTES * 2) {
    throw new ProtocolError("INVALID_FIELD", `${what}.tokenName must be 1..32 bytes`, { what, tokenName });
  }
  return { tokenName, itemKeyHash: expectBytes(bytes(it.itemKeyHash), `${what}.itemKeyHash`, 28) };
}

export function encodeBatchItem(it: BatchItem): Data {
  return constr(0, [bytes(it.tokenName), bytes(it.itemKeyHash)]);
}

/** Encodes the items in the order given; use sortBatchItems first for a datum the validator accepts. */
export function encodeBatchDatum(d: BatchDatum): Data {
  return constr(0, [bytes(d.batchId), bytes(d.issuer), bytes(d.hubPolicy), list(d.items.map(encodeBatchItem))]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeBatchDatum(d: Data): BatchDatum {
  const { fields: f } = expectConstr(d, "batch datum", { index: 0, arity: 4 });
  return {
    batchId: expectBytes(f[0], "batchId", BATCH_ID_BYTES),
    issuer: expectBytes(f[1], "issuer", 28),
    hubPolicy: expectBytes(f[2], "hubPolicy", 28),
    items: expectList(f[3], "items").map((x, i) => {
      const { fields } = expectConstr(x, `items[${i}]`, { index: 0, arity: 2 });
      return {
        tokenName: expectBytes(fields[0], `items[${i}].tokenName`),
        itemKeyHash: expectBytes(fields[1], `items[${i}].itemKeyHash`, 28),
      };
    }),
  };
}
