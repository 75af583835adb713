// The ledger rule engine: a thin owner of the scalus 0.17.0 Emulator. Scalus validates and applies transactions
// (phase 1 and 2, real signature checks, fixed mainnet Conway parameters); the devnet keeps its own chain around it.
// Two emulator states are kept: `confirmed` (after the last block) and `pending` (confirmed + mempool), because a
// submission must see the mempool while blocks and rollbacks restart from the confirmed state.
import { Emulator, SlotConfig } from "scalus";

export type RuleVerdict = { accepted: true } | { accepted: false; message: string; logs: string[] };

export class RuleEngine {
  private confirmed: Emulator;
  private pending: Emulator;

  private constructor(confirmed: Emulator) {
    this.confirmed = confirmed;
    this.pending = confirmed.snapshot();
  }

  /** An engine whose ledger holds exactly the given UTxO map (CBOR `{ input: output }`). */
  static fromUtxoMap(utxoMapCbor: Uint8Array, systemStartMs: number): RuleEngine {
    return new RuleEngine(new Emulator(utxoMapCbor, new SlotConfig(systemStartMs, 0, 1000)));
  }

  /** Validates a transaction against the mempool state at `slot` and, if accepted, applies it there. */
  submit(txBytes: Uint8Array, slot: number): RuleVerdict {
    this.pending.setSlot(slot);
    let result: ReturnType<Emulator["submitTx"]>;
    try {
      result = this.pending.submitTx(txBytes);
    } catch (err) {
      // Scalus throws (rather than returning a verdict) on some malformed inputs; that is still a rejection.
      return { accepted: false, message: String(err instanceof Error ? err.message : err), logs: [] };
    }
    if (result.isSuccess) return { accepted: true };
    return { accepted: false, message: result.error ?? "transaction rejected", logs: result.logs ?? [] };
  }

  /** The mempool has been turned into a block: the pending state becomes the confirmed one. */
  confirmPending(): void {
    this.confirmed = this.pending;
    this.pending = this.confirmed.snapshot();
  }

  /** Drops the mempool state: pending restarts from the confirmed state. */
  discardPending(): void {
    this.pending = this.confirmed.snapshot();
  }

  /** An independent copy of the confirmed state (kept per block for rollbacks). */
  snapshotConfirmed(): Emulator {
    return this.confirmed.snapshot();
  }

  /** Restores a confirmed state taken with `snapshotConfirmed`; the mempool state is discarded. */
  restoreConfirmed(state: Emulator): void {
    this.confirmed = state.snapshot();
    this.pending = this.confirmed.snapshot();
  }
}
