/**
 * What the submit endpoint receives, turned into the exact bytes to submit: the transaction with the caller's
 * witness set merged in WITHOUT re-encoding the body (shared/csl mergeWitnesses), so the id the caller signed is
 * the id that lands (docs/decisions.md#submit-and-witness-merging). Also the facts in-flight tracking needs: id, inputs, ttl slot.
 */
import { outRefKey } from "../domain/out-ref";
import { CslError } from "../csl/errors";
import { decodeTxSpend } from "../csl/decode";
import { isHex } from "../csl/hex";
import { mergeWitnesses } from "../csl/witnesses";
import { DomainError } from "../domain/errors";
import { HexBytes } from "../domain/hex";

export interface SubmitRequest {
  transaction: string;
  witnessSet?: string | undefined;
}

export interface SignedTransaction {
  /** the CBOR hex to submit (witnesses merged) */
  cborHex: string;
  /** blake2b-256 of the body bytes as given */
  txId: string;
  /** spent inputs, `txHash#index` */
  inputs: string[];
  /** validity upper bound (exclusive slot), when the transaction has one */
  ttlSlot: number | null;
}

/** @throws DomainError INVALID_TRANSACTION (400) for non-hex or undecodable CBOR, with `field` naming the culprit */
export function prepareSignedTransaction(req: SubmitRequest): SignedTransaction {
  const tx = req.transaction.trim();
  const ws = req.witnessSet?.trim();
  if (tx === "" || !isHex(tx)) throw invalid("transaction", "'transaction' must be the transaction CBOR as an even-length hex string.");
  if (ws !== undefined && ws !== "" && !isHex(ws))
    throw invalid("witnessSet", "'witnessSet' must be a witness set CBOR as an even-length hex string.");
  let cborHex: string;
  try {
    cborHex = ws === undefined || ws === "" ? tx : mergeWitnesses(tx, ws);
  } catch (err) {
    const what = err instanceof CslError && /witness set/.test(err.message) ? "witnessSet" : "transaction";
    throw invalid(what, `'${what}' is not valid CBOR: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    const decoded = decodeTxSpend(cborHex);
    return {
      cborHex: HexBytes(cborHex),
      txId: decoded.id,
      inputs: decoded.inputs.map(outRefKey),
      ttlSlot: decoded.ttlSlot === undefined ? null : Number(decoded.ttlSlot),
    };
  } catch (err) {
    throw invalid("transaction", `'transaction' is not a valid Cardano transaction: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function invalid(field: string, message: string): DomainError {
  return new DomainError("INVALID_TRANSACTION", message, { field });
}
