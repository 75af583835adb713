// The devnet's mempool: transactions accepted but not yet in a block, and the UTxO view they lead to (the confirmed
// set plus their effects). Submissions and evaluations see this view, as on a real node a transaction may spend the
// outputs of one still in the mempool; the rule engine's pending state follows the same transactions.
import { isValidAtSlot, type DecodedTransaction } from "./decoded-transaction";
import { pendingOf, type PendingTransaction } from "./chain-blocks";
import type { RuleEngine } from "./rule-engine";
import type { UtxoSet } from "./utxo-set";

/** Ogmios reports a mempool capacity; a node allows about two blocks' worth. */
export const MEMPOOL_CAPACITY_BYTES = 2 * 90_112;

export class Mempool {
  private pending: PendingTransaction[] = [];
  /** The confirmed set plus the effects of the mempool's transactions. */
  view: UtxoSet;

  constructor(
    private readonly engine: RuleEngine,
    /** The chain's confirmed set (the view restarts from it). */
    private readonly confirmed: UtxoSet,
  ) {
    this.view = confirmed.clone();
  }

  get isEmpty(): boolean {
    return this.pending.length === 0;
  }

  /** The mempool's transactions, oldest first. */
  transactions(): readonly DecodedTransaction[] {
    return this.pending.map((p) => p.tx);
  }

  /** Adds a transaction the rule engine accepted into its pending state. */
  accept(tx: DecodedTransaction): void {
    const pending = pendingOf(tx);
    this.view.apply(tx.consumed, pending.produced);
    this.pending.push(pending);
  }

  /**
   * Empties the mempool into a block at `slot`. Transactions whose validity interval no longer holds there are
   * dropped, as a node's mempool re-validation would: the pending state is then rebuilt from the others.
   * @returns the transactions of the block (none: the pending state is discarded)
   */
  takeForBlock(slot: number): PendingTransaction[] {
    let included = this.pending;
    if (!included.every((p) => isValidAtSlot(p.tx, slot))) {
      this.engine.discardPending();
      this.view = this.confirmed.clone();
      included = [];
      for (const pending of this.pending) {
        if (isValidAtSlot(pending.tx, slot) && this.engine.submit(pending.tx.bytes, slot).accepted) {
          this.view.apply(pending.tx.consumed, pending.produced);
          included.push(pending);
        }
      }
    }
    this.pending = [];
    if (included.length === 0) this.engine.discardPending();
    return included;
  }

  /**
   * After the confirmed state moved back (a rollback): the view restarts from the confirmed set, and `returned`, then
   * the transactions that were waiting, are submitted again at `slot`; those still accepted stay.
   */
  refill(returned: readonly PendingTransaction[], slot: number): void {
    this.view = this.confirmed.clone();
    const resubmit = [...returned, ...this.pending];
    this.pending = [];
    for (const p of resubmit) {
      if (this.engine.submit(p.tx.bytes, slot).accepted) {
        this.view.apply(p.tx.consumed, p.produced);
        this.pending.push(p);
      }
    }
  }
}
