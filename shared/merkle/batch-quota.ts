/**
 * What one client may make the service hash and keep for `POST /batch/build` before anything is signed
 * (docs/merkle-batches.md#limits): at most `leavesPerClient` leaves in pending trees (stored, counted across
 * replicas through the store) and at most as many leaves hashed per `windowMs` (counted in memory, per replica: a
 * build that fails — no funds, say — stores nothing, but its tree was hashed all the same).
 */
import { DomainError } from "../domain/errors";
import type { MerkleTreeStore } from "./tree-store";

export class BatchQuota {
  /** leaves hashed per client in the current window */
  private readonly windows = new Map<string, { start: number; leaves: number }>();

  constructor(
    private readonly trees: MerkleTreeStore,
    private readonly leavesPerClient: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /**
   * Counts `leaves` against the client's budget, or refuses the batch before any hashing.
   * @throws DomainError BATCH_QUOTA_EXCEEDED (429) with `leavesPerClient` and `retryAfterSeconds`
   */
  async reserve(client: string, leaves: number): Promise<void> {
    const pending = await this.trees.pendingLeavesOf(client);
    if (pending + leaves > this.leavesPerClient)
      this.refuse(`${pending.toLocaleString("en")} leaves of your earlier batches wait to be anchored`, this.windowMs);
    const now = this.now();
    this.prune(now);
    let w = this.windows.get(client);
    if (w === undefined || now - w.start >= this.windowMs) {
      w = { start: now, leaves: 0 };
      this.windows.set(client, w);
    }
    if (w.leaves + leaves > this.leavesPerClient)
      this.refuse(`${w.leaves.toLocaleString("en")} leaves were hashed for you recently`, w.start + this.windowMs - now);
    w.leaves += leaves;
  }

  private refuse(why: string, retryAfterMs: number): never {
    throw new DomainError(
      "BATCH_QUOTA_EXCEEDED",
      `A client may have at most ${this.leavesPerClient.toLocaleString("en")} batch leaves hashed and waiting for their anchoring transaction; ${why}. Submit the built transactions, or retry later.`,
      { leavesPerClient: this.leavesPerClient, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
    );
  }

  private prune(now: number): void {
    if (this.windows.size < 1000) return;
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}
