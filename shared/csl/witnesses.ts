/**
 * Transaction ids and witness merging that never re-encode the body.
 *
 * Trap (docs/architecture.md#csl, trap 6): `Transaction.from_bytes(...).to_bytes()` may re-encode the body (set tags, map order,
 * integer widths), which changes the tx id and invalidates every signature. We work on raw bytes:
 * the body, auxiliary data and every non-vkey witness entry are copied byte for byte.
 */
import { CSL } from "./lib";
import { arrayElements, concatBytes, encodeHeader, mapEntries } from "./cbor";
import { CslError, cslCall } from "./errors";
import { fromHex, toHex } from "./hex";
import { TxHash } from "../domain/hex";

/** Tx id (blake2b-256 of the body bytes exactly as they appear in `txCborHex`). */
export function txIdOf(txCborHex: string): TxHash {
  const fixed = cslCall("INVALID_CBOR", "cannot decode transaction", () =>
    CSL.FixedTransaction.from_bytes(fromHex(txCborHex, "transaction")),
  );
  return TxHash(fixed.transaction_hash().to_hex());
}

/** Raw body bytes of a transaction, as they are. */
export function rawBodyOf(txCborHex: string): Uint8Array {
  const b = fromHex(txCborHex, "transaction");
  const [body] = txElements(b);
  return b.slice(body[0], body[1]);
}

type Span = [number, number];

/** The byte spans of a transaction's four elements: body, witness set, is_valid, auxiliary data. */
function txElements(b: Uint8Array): [Span, Span, Span, Span] {
  const els = arrayElements(b);
  if (els.length !== 4) throw new CslError("INVALID_CBOR", `a transaction is a 4-element array, got ${els.length}`);
  return els as [Span, Span, Span, Span];
}

/**
 * Adds the vkey witnesses of `witnessSetHex` (a CIP-30 signTx result) to the transaction.
 * The body, is_valid, auxiliary data and all other witness entries (scripts, datums, redeemers)
 * keep their exact bytes, so the tx id and script_data_hash are unchanged. Duplicate keys are dropped.
 * @throws CslError INVALID_CBOR
 */
export function mergeWitnesses(txCborHex: string, witnessSetHex: string): string {
  const tx = fromHex(txCborHex, "transaction");
  const [, ws] = txElements(tx);
  const added = cslCall("INVALID_CBOR", "cannot decode witness set", () =>
    CSL.TransactionWitnessSet.from_bytes(fromHex(witnessSetHex, "witness set")),
  ).vkeys();
  if (!added || added.len() === 0) return txCborHex;
  const merged = spliceVkeys(tx.subarray(ws[0], ws[1]), added);
  return toHex(concatBytes([tx.subarray(0, ws[0]), merged, tx.subarray(ws[1])]));
}

/** Witness-set bytes with `added` merged into entry 0 (vkey witnesses); other entries untouched. */
function spliceVkeys(ws: Uint8Array, added: CSL.Vkeywitnesses): Uint8Array {
  const entries = mapEntries(ws);
  const existing = entries.find((e) => e.key === 0);
  const all = existing
    ? cslCall("INVALID_CBOR", "cannot decode vkey witnesses", () =>
        CSL.Vkeywitnesses.from_bytes(ws.slice(existing.valueStart, existing.end)),
      )
    : CSL.Vkeywitnesses.new();
  const seen = new Set<string>();
  for (let i = 0; i < all.len(); i++) seen.add(all.get(i).vkey().public_key().to_hex());
  for (let i = 0; i < added.len(); i++) {
    const w = added.get(i);
    const key = w.vkey().public_key().to_hex();
    if (!seen.has(key)) {
      seen.add(key);
      all.add(w);
    }
  }
  const vkeyEntry = concatBytes([Uint8Array.of(0x00), all.to_bytes()]);
  const parts: Uint8Array[] = [encodeHeader(5, existing ? entries.length : entries.length + 1)];
  if (!existing) parts.push(vkeyEntry); // key 0 first keeps canonical key order
  for (const e of entries) parts.push(e === existing ? vkeyEntry : ws.subarray(e.keyStart, e.end));
  return concatBytes(parts);
}

/** A witness set holding only vkey witnesses: what CIP-30 signTx returns. */
export function vkeyWitnessSet(witnesses: CSL.Vkeywitness[]): string {
  const vkeys = CSL.Vkeywitnesses.new();
  for (const w of witnesses) vkeys.add(w);
  const ws = CSL.TransactionWitnessSet.new();
  ws.set_vkeys(vkeys);
  return ws.to_hex();
}

/** Public keys (hex) of the vkey witnesses carried by a tx, and whether each signature verifies over the body hash. */
export function vkeySignatures(txCborHex: string): Array<{ publicKey: string; keyHash: string; valid: boolean }> {
  const fixed = cslCall("INVALID_CBOR", "cannot decode transaction", () =>
    CSL.FixedTransaction.from_bytes(fromHex(txCborHex, "transaction")),
  );
  const hash = fixed.transaction_hash().to_bytes();
  const vkeys = fixed.witness_set().vkeys();
  const out: Array<{ publicKey: string; keyHash: string; valid: boolean }> = [];
  for (let i = 0; vkeys && i < vkeys.len(); i++) {
    const w = vkeys.get(i);
    const pk = w.vkey().public_key();
    out.push({ publicKey: pk.to_hex(), keyHash: pk.hash().to_hex(), valid: pk.verify(hash, w.signature()) });
  }
  return out;
}
