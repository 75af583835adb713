/**
 * The fact log's records as stored in `indexer_facts`: decoded protocol facts and rollback markers, each with its
 * sequence number, block and transaction. A fact's `_id` is `<txId>:<n>`, so its transaction id is not stored a
 * second time (~75 B per fact): `storedForm` leaves it out, `restored` puts it back when read.
 */
import { outRefKey } from "../domain/out-ref";
import type { StoredDocument } from "../store";
import type { ProtocolFact } from "./protocol-decoder";

/** The fact log's collection. */
export const FACTS_COLLECTION = "indexer_facts";

export type FactRecord = StoredDocument & {
  seq: number;
  slot: number;
  blockId: string;
  height: number;
  time: number;
  txId: string;
} & (
    | { kind: "fact"; fact: ProtocolFact; key: string | null; /** fee of the transaction, lovelace */ txFee: string }
    | { kind: "rollback"; rollbackTo: number; fact?: undefined; key?: undefined }
  );

/** The key that identifies what a core fact is about: the latest fact per key is the current state (an extension's decoder keys its own). */
export function keyOf(fact: ProtocolFact): string | null {
  switch (fact.type) {
    case "state.minted":
    case "state.updated":
    case "state.burned":
      return `state:${fact.stateId}`;
    case "bootstrap.minted":
    case "bootstrap.burned":
      return `bootstrap:${fact.tokenName}`;
    case "pointer.set":
      return "pointer";
    case "library.deployed":
      return `library:${outRefKey(fact.outRef)}`;
    default:
      return null;
  }
}

/** A fact as stored: without its transaction id, the prefix of its `_id` (rollback markers are stored whole). */
export function storedForm(r: FactRecord): FactRecord {
  if (r.kind !== "fact") return r;
  const { txId: _stored, ...rest } = r;
  return rest as unknown as FactRecord;
}

/** A record as read: a fact gets its transaction id back from its `_id`. */
export function restored(r: FactRecord): FactRecord {
  if (typeof r.txId !== "string") r.txId = r.kind === "fact" ? r._id.slice(0, r._id.lastIndexOf(":")) : "";
  return r;
}
