/**
 * One use per signed challenge: the service signature of a used challenge is stored until the challenge could no
 * longer pass the time window anyway; a second use is refused. The store's unique `_id` makes the check atomic
 * across replicas.
 */
import { isDuplicateKeyError, type Collection, type Store, type StoredDocument } from "../store";
import type { HexBytes } from "../domain/hex";

type UsedChallenge = StoredDocument & { expiresAt: number };

export class ReplayGuard {
  private constructor(private readonly used: Collection<UsedChallenge>) {}

  static async open(store: Store, collection = "used_challenges"): Promise<ReplayGuard> {
    const used = store.collection<UsedChallenge>(collection);
    await used.ensureIndexes([{ fields: { expiresAt: 1 } }]);
    return new ReplayGuard(used);
  }

  /** Marks the challenge used. @returns false when it was used before */
  async claim(challengeId: HexBytes, expiresAt: number, now: number): Promise<boolean> {
    await this.used.deleteMany({ expiresAt: { $lt: now } });
    try {
      await this.used.insertOne({ _id: challengeId, expiresAt });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}
