// evaluateTransaction: runs every script of a transaction with the Aiken UPLC evaluator (@lucid-evolution/uplc,
// eval_phase_two_raw) against the resolved UTxOs, with the same cost models and slot config the rule engine uses.
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { eval_phase_two_raw } from "@lucid-evolution/uplc";
import { DevnetError } from "./errors";
import { LEDGER_PARAMETERS } from "./protocol-parameters";
import { PLUTUS_V1_COST_MODEL, PLUTUS_V2_COST_MODEL, PLUTUS_V3_COST_MODEL } from "./scalus-cost-models";
import { redeemerPurpose } from "./ogmios-projection";

export interface EvaluationBudget {
  validator: { purpose: string; index: number };
  budget: { memory: number; cpu: number };
}

let costModelsCbor: Uint8Array | undefined;

/** The `{0:[…],1:[…],2:[…]}` cost-model map, built once. */
function costModels(): Uint8Array {
  if (!costModelsCbor) {
    const models = CSL.Costmdls.new();
    const put = (language: CSL.Language, values: readonly number[]) => {
      const model = CSL.CostModel.new();
      values.forEach((v, i) =>
        model.set(i, v < 0 ? CSL.Int.new_negative(CSL.BigNum.from_str(String(-v))) : CSL.Int.new(CSL.BigNum.from_str(String(v)))),
      );
      models.insert(language, model);
    };
    put(CSL.Language.new_plutus_v1(), PLUTUS_V1_COST_MODEL);
    put(CSL.Language.new_plutus_v2(), PLUTUS_V2_COST_MODEL);
    put(CSL.Language.new_plutus_v3(), PLUTUS_V3_COST_MODEL);
    costModelsCbor = models.to_bytes();
  }
  return costModelsCbor;
}

/** Resolved UTxOs for the evaluator: parallel arrays of TransactionInput and TransactionOutput CBOR. */
export interface ResolvedUtxos {
  inputs: Uint8Array[];
  outputs: Uint8Array[];
}

const POINTER = /(Spend|Mint|Cert|Reward|Withdraw|Publish|Vote|Propose)\[(\d+)\]/i;
const PURPOSE_NAMES: Record<string, string> = {
  spend: "spend",
  mint: "mint",
  cert: "publish",
  publish: "publish",
  reward: "withdraw",
  withdraw: "withdraw",
  vote: "vote",
  propose: "propose",
};

/**
 * Evaluates every redeemer of `txBytes` with the max per-transaction budget.
 * @throws DevnetError 3010 (with per-validator 3012 `{ validationError, traces }`) when a script fails.
 */
export function evaluateScriptsHere(txBytes: Uint8Array, resolved: ResolvedUtxos, systemStartMs: number): EvaluationBudget[] {
  let results: Uint8Array[];
  try {
    results = eval_phase_two_raw(
      txBytes,
      resolved.inputs,
      resolved.outputs,
      costModels(),
      BigInt(LEDGER_PARAMETERS.maxExecutionUnitsPerTransaction.cpu),
      BigInt(LEDGER_PARAMETERS.maxExecutionUnitsPerTransaction.memory),
      BigInt(systemStartMs),
      0n,
      1000,
    );
  } catch (err) {
    const text = String(err instanceof Error ? err.message : err);
    const pointer = POINTER.exec(text);
    const traces = [...text.matchAll(/Trace (.*)/g)].map((m) => (m[1] ?? "").trim());
    const validator = pointer
      ? { purpose: PURPOSE_NAMES[(pointer[1] ?? "spend").toLowerCase()] ?? "spend", index: Number(pointer[2]) }
      : { purpose: "spend", index: 0 };
    throw new DevnetError(3010, "Some scripts of the transaction terminated with error(s).", [
      { validator, error: { code: 3012, message: "The validator failed.", data: { validationError: text, traces } } },
    ]);
  }
  return results.map((bytes) => {
    const redeemer = CSL.Redeemer.from_bytes(bytes);
    return {
      validator: { purpose: redeemerPurpose(redeemer.tag()), index: Number(redeemer.index().to_str()) },
      budget: { memory: Number(redeemer.ex_units().mem().to_str()), cpu: Number(redeemer.ex_units().steps().to_str()) },
    };
  });
}
