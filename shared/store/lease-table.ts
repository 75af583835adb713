/**
 * Cross-replica leases on string keys (e.g. UTxO refs `txHash#index`, locked from submit until confirmation
 * or expiry, shared by every tx-builder replica).
 *
 * Invariant: at any time, an unexpired key is held by at most one holder, and `acquire` takes all requested
 * keys or none. It rests on the port's `insertMany` (all-or-none under unique `_id`s; see `types.ts`): one lease
 * document per key with `_id = key`, so two replicas racing for a key cannot both insert it. Expired leases are
 * deleted (only if still expired) right before inserting. Replica clocks must agree to well within the ttl.
 */
import { isDuplicateKeyError, invalidQuery } from "./errors";
import type { Collection, StoredDocument } from "./types";

export interface LeaseDocument extends StoredDocument {
  /** The leased key. */
  _id: string;
  holder: string;
  acquiredAt: number;
  /** Unix ms; the lease is void from this instant on. */
  expiresAt: number;
}

export interface Lease {
  key: string;
  holder: string;
  expiresAt: number;
}

export type AcquireResult = { acquired: true; expiresAt: number } | { acquired: false; conflicts: Lease[] };

export interface LeaseTable {
  /**
   * Takes every key for `holder` until `now + ttlMs`, or none of them. Not re-entrant: a key the same holder
   * still holds is reported as a conflict (use `renew`).
   * @throws StoreError `INVALID_STORE_QUERY` for an empty key list, empty holder or non-positive ttl
   */
  acquire(keys: readonly string[], holder: string, ttlMs: number): Promise<AcquireResult>;
  /** Moves the expiry of `holder`'s unexpired leases on `keys` to `now + ttlMs`; returns how many were renewed. */
  renew(keys: readonly string[], holder: string, ttlMs: number): Promise<number>;
  /** Drops `holder`'s leases (only on `keys` when given); returns how many were dropped. */
  release(holder: string, keys?: readonly string[]): Promise<number>;
  /** Unexpired leases, on `keys` when given, else all. */
  findActive(keys?: readonly string[]): Promise<Lease[]>;
  /** Deletes expired leases; returns how many. */
  purgeExpired(): Promise<number>;
}

const ATTEMPTS = 3;

const toLease = (d: LeaseDocument): Lease => ({ key: d._id, holder: d.holder, expiresAt: d.expiresAt });

/** Creates the table over `collection` (declaring its indexes). `clock` returns Unix ms. */
export async function createLeaseTable(collection: Collection<LeaseDocument>, clock: () => number): Promise<LeaseTable> {
  await collection.ensureIndexes([{ fields: { holder: 1 } }, { fields: { expiresAt: 1 } }]);

  const findActive = async (keys?: readonly string[]): Promise<Lease[]> => {
    const now = clock();
    const filter = keys === undefined ? { expiresAt: { $gt: now } } : { _id: { $in: [...keys] }, expiresAt: { $gt: now } };
    return (await collection.find(filter)).map(toLease);
  };

  return {
    async acquire(keys, holder, ttlMs) {
      const unique = [...new Set(keys)];
      if (unique.length === 0) invalidQuery("acquire needs at least one key");
      if (holder.length === 0) invalidQuery("acquire needs a holder");
      if (!(Number.isFinite(ttlMs) && ttlMs > 0)) invalidQuery("ttlMs must be a positive number", { ttlMs });
      let conflicts: Lease[] = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const now = clock();
        const expiresAt = now + ttlMs;
        await collection.deleteMany({ _id: { $in: unique }, expiresAt: { $lte: now } });
        try {
          await collection.insertMany(unique.map((key) => ({ _id: key, holder, acquiredAt: now, expiresAt })));
          return { acquired: true, expiresAt };
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
        }
        conflicts = await findActive(unique);
        if (conflicts.length > 0) break; // otherwise the blocker expired or was released meanwhile: try again
      }
      return { acquired: false, conflicts };
    },

    async renew(keys, holder, ttlMs) {
      if (!(Number.isFinite(ttlMs) && ttlMs > 0)) invalidQuery("ttlMs must be a positive number", { ttlMs });
      const now = clock();
      const result = await collection.updateMany(
        { _id: { $in: [...keys] }, holder, expiresAt: { $gt: now } },
        { $set: { expiresAt: now + ttlMs } },
      );
      return result.matchedCount;
    },

    release(holder, keys) {
      return collection.deleteMany(keys === undefined ? { holder } : { holder, _id: { $in: [...keys] } });
    },

    findActive,

    purgeExpired() {
      return collection.deleteMany({ expiresAt: { $lte: clock() } });
    },
  };
}
