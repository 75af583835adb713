/**
 * What one client may make the service hash and keep for `POST /batch/build` before anything is signed
 * (docs/merkle-batches.md#limits): at most `leavesPerClient` leaves in pending trees (stored, counted across
 * replicas through the store) and at most as many leaves hashed per `windowMs` (counted in memory, per replica: a
 * build that fails — no funds, say — stores nothing, but its tree was hashed all the same).
 */
import { DomainError } from "../domain/errors";
import { FixedWindowCounter } from "../domain/fixed-window-counter";
import type { MerkleTreeStore } from "./tree-store";

export class BatchQuota {
  /** leaves hashed per client in the current window */
  private readonly hashed: FixedWindowCounter;

  constructor(
    private readonly trees: MerkleTreeStore,
    private readonly leavesPerClient: number,
    private readonly windowMs: number,
    now: () => number,
  ) {
    this.hashed = new FixedWindowCounter(windowMs, now);
  }

  /**
   * Counts `leaves` against the client's budget, or refuses the batch before any hashing.
   * @throws DomainError BATCH_QUOTA_EXCEEDED (429) with `leavesPerClient` and `retryAfterSeconds`
   */
  async reserve(client: string, leaves: number): Promise<void> {
    const pending = await this.trees.pendingLeavesOf(client);
    if (pending + leaves > this.leavesPerClient)
      this.refuse(`${pending.toLocaleString("en")} leaves of your earlier batches wait to be anchored`, this.windowMs);
    const hashed = this.hashed.peek(client);
    if (hashed.count + leaves > this.leavesPerClient)
      this.refuse(`${hashed.count.toLocaleString("en")} leaves were hashed for you recently`, hashed.resetsInMs);
    this.hashed.add(client, leaves);
  }

  private refuse(why: string, retryAfterMs: number): never {
    throw new DomainError(
      "BATCH_QUOTA_EXCEEDED",
      `A client may have at most ${this.leavesPerClient.toLocaleString("en")} batch leaves hashed and waiting for their anchoring transaction; ${why}. Submit the built transactions, or retry later.`,
      { leavesPerClient: this.leavesPerClient, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) },
    );
  }
}
