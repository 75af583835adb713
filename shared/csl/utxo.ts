/**
 * Ogmios UTxO JSON (inline datum, datum hash, reference script, multi-assets) ↔ CSL outputs.
 * Ogmios `script.cbor` for Plutus is single-wrapped; native scripts come as JSON (cbor optional).
 */
import type { Script as OgmiosScript, TransactionOutput as OgmiosOutput, Utxo } from "@cardano-ogmios/schema";
import { outRefKey, type OutRef } from "../domain/out-ref";
import { CSL } from "./lib";
import { CslError, cslCall } from "./errors";
import { nativeScriptFromOgmios, nativeScriptToOgmios } from "./native-script";
import { languageName, plutusScriptFromAny, type PlutusLanguage } from "./plutus-script";
import { valueFromOgmios, valueToOgmios } from "./value";

/** One element of Ogmios `queryLedgerState/utxo`'s result. */
export type OgmiosUtxo = Utxo[number];
export type { OgmiosOutput, OgmiosScript };

export function outRefOf(u: OgmiosUtxo): OutRef {
  return { txHash: u.transaction.id, index: Number(u.index) };
}

/** `outRefKey` of a UTxO. */
export function utxoKey(u: Pick<OgmiosUtxo, "transaction" | "index">): string {
  return outRefKey({ txHash: u.transaction.id, index: Number(u.index) });
}

export function transactionInput(r: OutRef): CSL.TransactionInput {
  return CSL.TransactionInput.new(CSL.TransactionHash.from_hex(r.txHash), r.index);
}

export function scriptRefFromOgmios(s: OgmiosScript): CSL.ScriptRef {
  if (s.language === "native") {
    const native = s.cbor ? CSL.NativeScript.from_hex(s.cbor) : nativeScriptFromOgmios(s.json);
    return CSL.ScriptRef.new_native_script(native);
  }
  return CSL.ScriptRef.new_plutus_script(plutusScriptFromAny(s.cbor, s.language as PlutusLanguage));
}

/** Ogmios `Script` of a Plutus script; `cbor` is the single-wrapped script bytes (what the ledger hashes). */
export function plutusScriptToOgmios(plutus: CSL.PlutusScript): OgmiosScript {
  return { language: languageName(plutus.language_version()), cbor: Buffer.from(plutus.bytes()).toString("hex") };
}

function scriptRefToOgmios(ref: CSL.ScriptRef): OgmiosScript {
  const native = ref.native_script();
  if (native) return { language: "native", json: nativeScriptToOgmios(native), cbor: native.to_hex() };
  return plutusScriptToOgmios(ref.plutus_script() as CSL.PlutusScript);
}

/** An address as Ogmios writes it: bech32 for Shelley addresses, base58 for Byron ones. */
export function addressText(address: CSL.Address): string {
  const byron = CSL.ByronAddress.from_address(address);
  return byron ? byron.to_base58() : address.to_bech32(undefined);
}

export function outputFromOgmios(o: OgmiosOutput): CSL.TransactionOutput {
  return cslCall(
    "INVALID_ADDRESS",
    "cannot convert Ogmios output",
    () => {
      const out = CSL.TransactionOutput.new(CSL.Address.from_bech32(o.address), valueFromOgmios(o.value));
      if (o.datum) out.set_plutus_data(CSL.PlutusData.from_hex(o.datum));
      else if (o.datumHash) out.set_data_hash(CSL.DataHash.from_hex(o.datumHash));
      if (o.script) out.set_script_ref(scriptRefFromOgmios(o.script));
      return out;
    },
    { address: o.address },
  );
}

export function utxoFromOgmios(u: OgmiosUtxo): CSL.TransactionUnspentOutput {
  return CSL.TransactionUnspentOutput.new(transactionInput(outRefOf(u)), outputFromOgmios(u));
}

export function utxosFromOgmios(us: readonly OgmiosUtxo[]): CSL.TransactionUnspentOutputs {
  const out = CSL.TransactionUnspentOutputs.new();
  for (const u of us) out.add(utxoFromOgmios(u));
  return out;
}

export function outputToOgmios(o: CSL.TransactionOutput): OgmiosOutput {
  const out: OgmiosOutput = { address: addressText(o.address()), value: valueToOgmios(o.amount()) };
  const datum = o.plutus_data();
  if (datum) out.datum = datum.to_hex();
  const hash = o.data_hash();
  if (hash) out.datumHash = hash.to_hex();
  const ref = o.script_ref();
  if (ref) out.script = scriptRefToOgmios(ref);
  return out;
}

/** Size of a reference script as the ref-script fee counts it (the script bytes). */
export function referenceScriptSize(u: OgmiosUtxo): number {
  if (!u.script) throw new CslError("INVALID_SCRIPT", "UTxO carries no reference script", { ...outRefOf(u) });
  const ref = scriptRefFromOgmios(u.script);
  const plutus = ref.plutus_script();
  return plutus ? plutus.bytes().length : (ref.native_script() as CSL.NativeScript).to_bytes().length;
}
