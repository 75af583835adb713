// The ledger's own Plutus machine for evaluateTransaction: scalus's `evalPlutusScripts`, the machine the rule engine
// runs in phase 2 on submit, with the same cost models (the emulator's built-in parameters) and slot configuration.
// Its budgets are the ones the ledger will find when the transaction is submitted. It runs on the devnet's main
// thread, whose scalus code the rule engine keeps compiled and warm (in a worker the same evaluation cost more: the
// worker loads and warms scalus on its own).
import { Scalus, SlotConfig } from "scalus";
import type { EvaluationBudget, LedgerEvaluationFailure, ResolvedUtxos } from "./evaluator";
import { cborMap } from "./ledger-digest";
import { LEDGER_PARAMETERS } from "./protocol-parameters";
import { PLUTUS_V1_COST_MODEL, PLUTUS_V2_COST_MODEL, PLUTUS_V3_COST_MODEL } from "./scalus-cost-models";

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

/** The cost models the emulator applies, in the order `evalPlutusScripts` takes them (V1, V2, V3). */
const COST_MODELS: number[][] = [[...PLUTUS_V1_COST_MODEL], [...PLUTUS_V2_COST_MODEL], [...PLUTUS_V3_COST_MODEL]];

let slotConfig: { systemStartMs: number; config: SlotConfig } | undefined;

/**
 * Runs every script of `txBytes` against `resolved` (its inputs and reference inputs) with the ledger's machine.
 * @returns the budget of each redeemer, in the transaction's order; or the failure, when a script fails, a redeemer
 *   tag is unknown, or a script needs more than a transaction's execution units (the ledger would refuse it).
 */
export function ledgerBudgets(
  txBytes: Uint8Array,
  resolved: ResolvedUtxos,
  systemStartMs: number,
): { budgets: EvaluationBudget[] } | { failure: LedgerEvaluationFailure } {
  if (slotConfig?.systemStartMs !== systemStartMs) slotConfig = { systemStartMs, config: new SlotConfig(systemStartMs, 0, 1000) };
  const utxo = cborMap(resolved.inputs.map((key, i) => ({ key, value: resolved.outputs[i]! })));
  let redeemers: Scalus.Redeemer[];
  try {
    redeemers = Scalus.evalPlutusScripts(txBytes, utxo, slotConfig.config, COST_MODELS);
  } catch (err) {
    const logs = (err as { logs?: unknown }).logs;
    return { failure: { message: String(err instanceof Error ? err.message : err), logs: Array.isArray(logs) ? logs.map(String) : [] } };
  }
  const max = LEDGER_PARAMETERS.maxExecutionUnitsPerTransaction;
  const budgets: EvaluationBudget[] = [];
  for (const r of redeemers) {
    const purpose = PURPOSE_OF_TAG[r.tag];
    const memory = Number(r.budget.memory);
    const cpu = Number(r.budget.steps);
    if (purpose === undefined) return { failure: { message: `unknown redeemer tag ${r.tag}`, logs: [] } };
    if (memory > max.memory || cpu > max.cpu) {
      return { failure: { message: `${r.tag}[${r.index}] needs ${memory} memory / ${cpu} cpu, over the transaction's limit`, logs: [] } };
    }
    budgets.push({ validator: { purpose, index: r.index }, budget: { memory, cpu } });
  }
  return { budgets };
}
