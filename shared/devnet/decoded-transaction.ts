// A submitted transaction decoded once: its id, raw bytes, and the parts the devnet's own bookkeeping needs
// (what it consumes and produces, its validity interval). Everything rule-related is left to the rule engine.
import { outRefKey } from "../domain/out-ref";
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { DevnetError } from "./errors";

/** A produced output: its reference and its exact CBOR. */
export interface ProducedOutput {
  txId: string;
  index: number;
  outputCbor: Uint8Array;
}

export interface DecodedTransaction {
  id: string;
  bytes: Uint8Array;
  fixed: CSL.FixedTransaction;
  isValid: boolean;
  /** Inputs consumed when the scripts pass (isValid) — or the collaterals when they are declared to fail. */
  consumed: string[];
  produced: ProducedOutput[];
  inputs: string[];
  referenceInputs: string[];
  collaterals: string[];
  invalidBefore?: number;
  invalidAfter?: number;
}

/** The map key of an output reference. */

function keys(inputs: CSL.TransactionInputs | undefined): string[] {
  const out: string[] = [];
  if (!inputs) return out;
  for (let i = 0; i < inputs.len(); i++)
    out.push(outRefKey({ txHash: inputs.get(i).transaction_id().to_hex(), index: inputs.get(i).index() }));
  return out;
}

/**
 * Decodes a transaction's CBOR.
 * @throws DevnetError -32602 (Ogmios DeserialisationFailure) when the bytes are not a Conway transaction.
 */
export function decodeTransaction(cborHex: string): DecodedTransaction {
  let fixed: CSL.FixedTransaction;
  let bytes: Uint8Array;
  try {
    if (!/^([0-9a-fA-F]{2})+$/.test(cborHex)) throw new Error("not base16");
    bytes = new Uint8Array(Buffer.from(cborHex, "hex"));
    fixed = CSL.FixedTransaction.from_bytes(bytes);
  } catch (err) {
    const reason = `invalid or incomplete value of type 'Transaction': ${String(err instanceof Error ? err.message : err)}`;
    throw new DevnetError(
      -32602,
      "Invalid transaction; It looks like the given transaction wasn't well-formed.",
      {
        shelley: reason,
        allegra: reason,
        mary: reason,
        alonzo: reason,
        babbage: reason,
        conway: reason,
      },
      "DESERIALISATION_FAILURE",
    );
  }
  const id = fixed.transaction_hash().to_hex();
  const body = fixed.body();
  const isValid = fixed.is_valid();
  const inputs = keys(body.inputs());
  const collaterals = keys(body.collateral());
  const produced: ProducedOutput[] = [];
  if (isValid) {
    const outputs = body.outputs();
    for (let i = 0; i < outputs.len(); i++) produced.push({ txId: id, index: i, outputCbor: outputs.get(i).to_bytes() });
  } else {
    // Ledger rule (Babbage+): a failed-script transaction produces only its collateral return, at index = #outputs.
    const ret = body.collateral_return();
    if (ret) produced.push({ txId: id, index: body.outputs().len(), outputCbor: ret.to_bytes() });
  }
  const start = body.validity_start_interval_bignum();
  const ttl = body.ttl_bignum();
  return {
    id,
    bytes,
    fixed,
    isValid,
    consumed: isValid ? inputs : collaterals,
    produced,
    inputs,
    referenceInputs: keys(body.reference_inputs()),
    collaterals,
    ...(start ? { invalidBefore: Number(start.to_str()) } : {}),
    ...(ttl ? { invalidAfter: Number(ttl.to_str()) } : {}),
  };
}

/** Whether the transaction's validity interval contains `slot` (invalidBefore inclusive, invalidAfter exclusive). */
export function isValidAtSlot(tx: DecodedTransaction, slot: number): boolean {
  return (tx.invalidBefore === undefined || slot >= tx.invalidBefore) && (tx.invalidAfter === undefined || slot < tx.invalidAfter);
}
