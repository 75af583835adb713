// The Aiken UPLC evaluator (@lucid-evolution/uplc, eval_phase_two_raw) with the same cost models and slot config as
// the rule engine, in the evaluator workers: it describes a transaction the ledger's machine refused (which validator
// failed, its traces); evaluateTransaction's budgets come from the ledger's machine (ledger-evaluation.ts).
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import type * as UplcModule from "@lucid-evolution/uplc";
import { DevnetError } from "./errors";
import { LEDGER_PARAMETERS } from "./protocol-parameters";
import { PLUTUS_V1_COST_MODEL, PLUTUS_V2_COST_MODEL, PLUTUS_V3_COST_MODEL } from "./scalus-cost-models";
import { redeemerPurpose } from "./ogmios-projection";

export interface EvaluationBudget {
  validator: { purpose: string; index: number };
  budget: { memory: number; cpu: number };
}

type Uplc = typeof UplcModule;

/**
 * Evaluations one instance of the UPLC evaluator's wasm module runs before a fresh instance replaces it.
 * Why: `eval_phase_two_raw` of @lucid-evolution/uplc 0.2.21 leaks wasm memory on every call (about 3 MB with the
 * protocol's validators; RSS 291 → 894 MB after 200 calls) and slows down as that memory grows. Wasm memory never
 * shrinks inside one instance, but an instance nothing refers to any more is collected with its memory. So the
 * instance is renewed here, in the thread, instead of the thread: a new worker costs 200–300 CPU ms to start (its
 * module loader, CSL and its own warm-up), a new instance a few ms (the compiled module is the one this thread already
 * holds; only the instance and its memory are new).
 */
export const EVALUATIONS_PER_INSTANCE = 20;

const UPLC_MODULE = require.resolve("@lucid-evolution/uplc");
let uplcInstance: Uplc | undefined;
let uplcCalls = 0;
let uplcInstances = 0;

/** Evaluator instances this thread has created so far. */
export function evaluatorInstancesCreated(): number {
  return uplcInstances;
}

/** The evaluator instance for the next call: the current one, or a fresh one after `EVALUATIONS_PER_INSTANCE` calls. */
function uplc(): Uplc {
  if (!uplcInstance || uplcCalls >= EVALUATIONS_PER_INSTANCE) {
    // The package's glue binds one wasm instance at load; loading it again binds a new one (and a new memory), and
    // drops the old glue, instance and memory for the collector.
    delete require.cache[UPLC_MODULE];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    uplcInstance = require(UPLC_MODULE) as Uplc;
    // require() also lists the loaded module among this module's children, which would keep every old one alive
    module.children = module.children.filter((child) => child.id !== UPLC_MODULE);
    uplcCalls = 0;
    uplcInstances += 1;
  }
  uplcCalls += 1;
  return uplcInstance;
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

/** Why the ledger's machine (ledger-evaluation.ts) gave no budgets. */
export interface LedgerEvaluationFailure {
  message: string;
  logs: string[];
}

/**
 * Describes a transaction the ledger's machine refused: the UPLC evaluator's failure (the failing validator and its
 * traces); should it pass where the ledger's machine failed, the ledger's verdict stands, described by its message
 * and logs.
 * @throws DevnetError 3010 (with per-validator 3012 `{ validationError, traces }`), always.
 */
export function describeLedgerFailure(
  txBytes: Uint8Array,
  resolved: ResolvedUtxos,
  systemStartMs: number,
  failure: LedgerEvaluationFailure,
): never {
  const passed = evaluateScriptsHere(txBytes, resolved, systemStartMs);
  throw scriptFailure(passed[0]?.validator ?? { purpose: "spend", index: 0 }, failure.message, failure.logs);
}

function scriptFailure(validator: { purpose: string; index: number }, validationError: string, traces: string[]): DevnetError {
  return new DevnetError(3010, "Some scripts of the transaction terminated with error(s).", [
    { validator, error: { code: 3012, message: "The validator failed.", data: { validationError, traces } } },
  ]);
}

/**
 * Evaluates every redeemer of `txBytes` with the UPLC evaluator, with the max per-transaction budget.
 * @throws DevnetError 3010 (with per-validator 3012 `{ validationError, traces }`) when a script fails.
 */
export function evaluateScriptsHere(txBytes: Uint8Array, resolved: ResolvedUtxos, systemStartMs: number): EvaluationBudget[] {
  let results: Uint8Array[];
  try {
    results = uplc().eval_phase_two_raw(
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
    throw scriptFailure(validator, text, traces);
  }
  return results.map((bytes) => {
    const redeemer = CSL.Redeemer.from_bytes(bytes);
    return {
      validator: { purpose: redeemerPurpose(redeemer.tag()), index: Number(redeemer.index().to_str()) },
      budget: { memory: Number(redeemer.ex_units().mem().to_str()), cpu: Number(redeemer.ex_units().steps().to_str()) },
    };
  });
}
