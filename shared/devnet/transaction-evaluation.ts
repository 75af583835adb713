// `evaluateTransaction` against the mempool view plus the caller's additional UTxO: the ledger's own machine answers
// (the budgets `submitTransaction` will find); when it refuses, the UPLC evaluator in a worker describes the failure
// (the failing validator, its traces).
import { utxoKey } from "../csl/utxo";
import { decodeTransaction } from "./decoded-transaction";
import { DevnetError } from "./errors";
import type { EvaluatorPool } from "./evaluator-pool";
import { ledgerBudgets } from "./ledger-evaluation";
import { ogmiosOutputToCbor } from "./ogmios-output-codec";
import type { OgmiosUtxo, OutputReference } from "./ogmios-types";
import { inputCbor, type UtxoSet } from "./utxo-set";

/** An `evaluateTransaction` answer: the budget of each validator. */
export type Evaluation = { validator: { purpose: string; index: number }; budget: { memory: number; cpu: number } }[];

/**
 * Runs the scripts of a transaction against `view` plus `additionalUtxo`.
 * @throws DevnetError 3010 (script failures, or unknown inputs as 3117 per validator), 3002 (overlapping UTxO).
 */
export async function evaluateAgainst(
  view: UtxoSet,
  cborHex: string,
  additionalUtxo: readonly OgmiosUtxo[],
  evaluator: EvaluatorPool,
  systemStartMs: number,
): Promise<Evaluation> {
  const tx = decodeTransaction(cborHex);
  const extra = new Map<string, Uint8Array>();
  const overlapping: OutputReference[] = [];
  for (const utxo of additionalUtxo) {
    const key = utxoKey(utxo);
    if (view.has(key)) overlapping.push({ transaction: { id: utxo.transaction.id }, index: utxo.index });
    else extra.set(key, ogmiosOutputToCbor(utxo));
  }
  if (overlapping.length > 0) {
    throw new DevnetError(3002, "The additional UTxO overlaps with UTxO known to the ledger.", {
      overlappingOutputReferences: overlapping,
    });
  }
  const inputs: Uint8Array[] = [];
  const outputs: Uint8Array[] = [];
  const unknown: string[] = [];
  for (const key of new Set([...tx.inputs, ...tx.referenceInputs])) {
    const output = view.get(key)?.outputCbor ?? extra.get(key);
    if (!output) {
      unknown.push(key);
      continue;
    }
    const [txId, index] = key.split("#") as [string, string];
    inputs.push(inputCbor({ txId, index: Number(index) }));
    outputs.push(output);
  }
  if (unknown.length > 0) {
    const refs = unknown.map((k) => ({ transaction: { id: k.split("#")[0] ?? "" }, index: Number(k.split("#")[1]) }));
    throw new DevnetError(3010, "Some scripts cannot be evaluated: unknown transaction inputs.", [
      {
        validator: { purpose: "spend", index: Math.max(0, tx.inputs.indexOf(unknown[0] ?? "")) },
        error: { code: 3117, message: "Unknown transaction input (missing from UTxO set).", data: { unknownOutputReferences: refs } },
      },
    ]);
  }
  try {
    const resolved = { inputs, outputs };
    const ledger = ledgerBudgets(tx.bytes, resolved, systemStartMs);
    if ("budgets" in ledger) return ledger.budgets;
    return await evaluator.evaluate(tx.bytes, resolved, systemStartMs, ledger.failure);
  } finally {
    tx.fixed.free();
  }
}
