// The ledger rule engine: a thin owner of the scalus 0.17.0 Emulator. Scalus validates and applies transactions
// (phase 1 and 2, real signature checks, fixed mainnet Conway parameters); the devnet keeps its own chain around it.
// Two emulator states are kept: `confirmed` (after the last block) and `pending` (confirmed + mempool), because a
// submission must see the mempool while blocks and rollbacks restart from the confirmed state.
import { Emulator, Scalus, SlotConfig } from "scalus";
import type { EvaluationBudget } from "./evaluator";
import { LEDGER_PARAMETERS } from "./protocol-parameters";
import { PLUTUS_V1_COST_MODEL, PLUTUS_V2_COST_MODEL, PLUTUS_V3_COST_MODEL } from "./scalus-cost-models";

export type RuleVerdict = { accepted: true } | { accepted: false; message: string; logs: string[] };

/** The Ogmios purpose of a scalus redeemer tag. */
const PURPOSE_OF_TAG: Record<string, string> = {
  Spend: "spend",
  Mint: "mint",
  Cert: "publish",
  Reward: "withdraw",
  Voting: "vote",
  Vote: "vote",
  Proposing: "propose",
};

/** The cost models the emulator applies (its built-in parameters), in the order `evalPlutusScripts` takes them. */
const COST_MODELS: number[][] = [[...PLUTUS_V1_COST_MODEL], [...PLUTUS_V2_COST_MODEL], [...PLUTUS_V3_COST_MODEL]];

export class RuleEngine {
  private confirmed: Emulator;
  private pending: Emulator;

  private constructor(
    confirmed: Emulator,
    private readonly slotConfig: SlotConfig,
  ) {
    this.confirmed = confirmed;
    this.pending = confirmed.snapshot();
  }

  /** An engine whose ledger holds exactly the given UTxO map (CBOR `{ input: output }`). */
  static fromUtxoMap(utxoMapCbor: Uint8Array, systemStartMs: number): RuleEngine {
    const slotConfig = new SlotConfig(systemStartMs, 0, 1000);
    return new RuleEngine(new Emulator(utxoMapCbor, slotConfig), slotConfig);
  }

  /**
   * Runs every script of a transaction with the ledger's own Plutus machine (the one `submit` runs in phase 2, with
   * the same cost models and slot configuration) against `utxoMapCbor`, the CBOR `{ input: output }` map of the
   * inputs and reference inputs it names: the execution units the ledger will find, per redeemer.
   * @returns undefined when a script fails, a redeemer tag is unknown, or a script needs more than a transaction's
   *   execution units: the caller describes those failures with the UPLC evaluator (which names the failing
   *   validator and its traces).
   */
  evaluate(txBytes: Uint8Array, utxoMapCbor: Uint8Array): EvaluationBudget[] | undefined {
    let redeemers: Scalus.Redeemer[];
    try {
      redeemers = Scalus.evalPlutusScripts(txBytes, utxoMapCbor, this.slotConfig, COST_MODELS);
    } catch {
      return undefined;
    }
    const max = LEDGER_PARAMETERS.maxExecutionUnitsPerTransaction;
    const budgets: EvaluationBudget[] = [];
    for (const r of redeemers) {
      const purpose = PURPOSE_OF_TAG[r.tag];
      const memory = Number(r.budget.memory);
      const cpu = Number(r.budget.steps);
      if (purpose === undefined || memory > max.memory || cpu > max.cpu) return undefined;
      budgets.push({ validator: { purpose, index: r.index }, budget: { memory, cpu } });
    }
    return budgets;
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
