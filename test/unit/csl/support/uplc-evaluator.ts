/**
 * A real Plutus evaluator for unit tests: the Aiken `uplc` wasm (@lucid-evolution/uplc), answering in Ogmios
 * `evaluateTransaction` shape. Needs every UTxO the tx touches (inputs, reference inputs, collateral).
 */
import { eval_phase_two_raw } from "@lucid-evolution/uplc";
import { CSL } from "../../../../shared/csl/lib";
import { costModels, outputFromOgmios, outRefOf, type EvaluationItem, type OgmiosUtxo } from "../../../../shared/csl";
import { PP } from "./fixtures";

const PURPOSE: Record<number, string> = { 0: "spend", 1: "mint", 2: "publish", 3: "withdraw", 4: "vote", 5: "propose" };

export function uplcEvaluator(known: readonly OgmiosUtxo[]): (txCborHex: string) => Promise<EvaluationItem[]> {
  return async (txCborHex) => {
    const tx = CSL.FixedTransaction.from_hex(txCborHex);
    const body = tx.body();
    const wanted = new Set<string>();
    const collect = (xs: CSL.TransactionInputs | undefined): void => {
      for (let i = 0; xs && i < xs.len(); i++) wanted.add(`${xs.get(i).transaction_id().to_hex()}#${xs.get(i).index()}`);
    };
    collect(body.inputs());
    collect(body.reference_inputs());
    collect(body.collateral());
    const resolved = known.filter((u) => wanted.has(`${outRefOf(u).txId}#${outRefOf(u).index}`));
    const ins = resolved.map((u) =>
      CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.transaction.id), Number(u.index)).to_bytes(),
    );
    const outs = resolved.map((u) => outputFromOgmios(u).to_bytes());
    const max = PP.maxExecutionUnitsPerTransaction!;
    const raw = eval_phase_two_raw(
      Uint8Array.from(Buffer.from(txCborHex, "hex")),
      ins,
      outs,
      costModels(PP).to_bytes(),
      BigInt(max.cpu),
      BigInt(max.memory),
      0n,
      0n,
      1000,
    );
    return raw.map((bytes) => {
      const r = CSL.Redeemer.from_bytes(bytes);
      return {
        validator: { purpose: PURPOSE[r.tag().kind()] as string, index: Number(r.index().to_str()) },
        budget: { memory: BigInt(r.ex_units().mem().to_str()), cpu: BigInt(r.ex_units().steps().to_str()) },
      };
    });
  };
}
