/**
 * The witness's record of each log (c2sp.org/tlog-witness §add-checkpoint): the latest checkpoint it cosigned per
 * origin, in the store collection `witness_logs` (one document per origin, `_id` = origin). The spec asks that the
 * check of `old` and the update be one atomic step, else two requests can roll the record back; `advance` is that
 * step, a compare-and-set on the stored size and root, so two witness processes on one database cannot both
 * cosign conflicting checkpoints: the loser sees the record the winner wrote.
 */
import { fromBase64, toBase64 } from "../tlog/encoding";
import type { WitnessedTree } from "../tlog/witness-protocol";
import { isDuplicateKeyError, type Collection, type Store } from "../store";

export const WITNESS_LOGS_COLLECTION = "witness_logs";

interface WitnessLogDocument {
  _id: string;
  size: number;
  /** base64 of the 32-byte root hash (the store holds no binary values) */
  rootHash: string;
  /** the cosigned checkpoint as submitted (log signatures included): evidence if the log later forks */
  note: string;
  /** Unix milliseconds of the last cosignature */
  updatedAtMs: number;
}

export type AdvanceResult = { won: true } | { won: false; current: WitnessedTree | null };

export interface WitnessState {
  /** The latest cosigned tree of `origin`, or null when the witness never cosigned one. */
  latest(origin: string): Promise<WitnessedTree | null>;
  /**
   * Records `next` as the latest cosigned tree of `origin` if the record is still `expected` (null: no record yet).
   * When another request changed it first, answers the record as it now is and changes nothing.
   */
  advance(origin: string, expected: WitnessedTree | null, next: WitnessedTree & { note: string }): Promise<AdvanceResult>;
}

function treeOf(doc: WitnessLogDocument | undefined): WitnessedTree | null {
  if (!doc) return null;
  const rootHash = fromBase64(doc.rootHash);
  if (!rootHash) throw new Error(`${WITNESS_LOGS_COLLECTION}/${doc._id} holds a root hash that is not base64`);
  return { size: doc.size, rootHash };
}

export function createWitnessState(store: Store, now: () => number = Date.now): WitnessState {
  const logs: Collection<WitnessLogDocument> = store.collection<WitnessLogDocument>(WITNESS_LOGS_COLLECTION);
  const latest = async (origin: string) => treeOf(await logs.findOne({ _id: origin }));
  return {
    latest,
    async advance(origin, expected, next) {
      const fields = { size: next.size, rootHash: toBase64(next.rootHash), note: next.note, updatedAtMs: now() };
      if (expected === null) {
        // The first cosignature of an origin: the insert fails if a concurrent request inserted first.
        try {
          await logs.insertOne({ _id: origin, ...fields });
          return { won: true };
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          return { won: false, current: await latest(origin) };
        }
      }
      const { matchedCount } = await logs.updateOne(
        { _id: origin, size: expected.size, rootHash: toBase64(expected.rootHash) },
        { $set: fields },
      );
      return matchedCount === 1 ? { won: true } : { won: false, current: await latest(origin) };
    },
  };
}
