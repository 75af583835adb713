/**
 * script_data_hash and witness-set surgery without CSL's encoding traps:
 *  - trap 4 (docs/architecture.md#csl): the standalone `hash_script_data` does not filter cost models by language; we retain only the
 *    languages the tx uses, which is what the ledger hashes;
 *  - trap 5: wasm-bindgen moves by-value arguments (a second use throws "null pointer passed to rust"), so every
 *    CSL object handed over by value is a fresh clone;
 *  - trap 6: setting an empty Vkeywitnesses/PlutusList on a witness set does not remove the entry; we splice
 *    the CBOR map instead, keeping all other bytes.
 */
import { CSL } from "./lib";
import { arrayElements, concatBytes, encodeHeader, mapEntries } from "./cbor";
import { cslCall } from "./errors";
import { fromHex, toHex } from "./hex";
import { cslLanguage, type PlutusLanguage } from "./plutus-script";

/** A fresh copy of a CSL object (byte round-trip) so that the original survives a by-value call. */
export function cloneCsl<T extends { to_bytes(): Uint8Array }>(x: T, fromBytes: (b: Uint8Array) => T): T {
  return fromBytes(x.to_bytes());
}

/** script_data_hash over the redeemers, datums and the cost models of exactly `languages`. */
export function scriptDataHash(input: {
  redeemers: CSL.Redeemers;
  datums?: CSL.PlutusList;
  costModels: CSL.Costmdls;
  languages: readonly PlutusLanguage[];
}): string {
  const langs = CSL.Languages.new();
  for (const l of input.languages) langs.add(cslLanguage(l));
  const models = input.costModels.retain_language_versions(langs);
  const datums = input.datums ? cloneCsl(input.datums, CSL.PlutusList.from_bytes) : undefined;
  return CSL.hash_script_data(cloneCsl(input.redeemers, CSL.Redeemers.from_bytes), models, datums).to_hex();
}

/**
 * The script_data_hash a tx should carry, recomputed from its own witness set. Languages default to those of
 * the scripts in the witness set; scripts used through reference inputs are invisible here, so pass
 * `languages` for such txs.
 */
export function expectedScriptDataHash(
  txCborHex: string,
  costModels: CSL.Costmdls,
  languages?: readonly PlutusLanguage[],
): string | undefined {
  const fixed = cslCall("INVALID_CBOR", "cannot decode transaction", () =>
    CSL.FixedTransaction.from_bytes(fromHex(txCborHex, "transaction")),
  );
  const ws = fixed.witness_set();
  const redeemers = ws.redeemers() ?? CSL.Redeemers.new();
  const datums = ws.plutus_data();
  if (redeemers.len() === 0 && !datums) return undefined;
  const used = new Set<PlutusLanguage>(languages ?? []);
  const scripts = ws.plutus_scripts();
  for (let i = 0; scripts && i < scripts.len(); i++) {
    const kind = scripts.get(i).language_version().kind();
    used.add(kind === CSL.LanguageKind.PlutusV1 ? "plutus:v1" : kind === CSL.LanguageKind.PlutusV2 ? "plutus:v2" : "plutus:v3");
  }
  return scriptDataHash({ redeemers, ...(datums ? { datums } : {}), costModels, languages: [...used] });
}

/**
 * The tx with the given witness-set entries removed (0 = vkeys, 1 = native scripts, 3/6/7 = Plutus scripts,
 * 4 = datums, 5 = redeemers). Body and the remaining entries keep their bytes.
 */
export function withoutWitnessEntries(txCborHex: string, keys: readonly number[]): string {
  const tx = fromHex(txCborHex, "transaction");
  const els = arrayElements(tx);
  const ws = els[1] as [number, number];
  const wsBytes = tx.subarray(ws[0], ws[1]);
  const kept = mapEntries(wsBytes).filter((e) => e.key === undefined || !keys.includes(e.key));
  const rebuilt = concatBytes([encodeHeader(5, kept.length), ...kept.map((e) => wsBytes.subarray(e.keyStart, e.end))]);
  return toHex(concatBytes([tx.subarray(0, ws[0]), rebuilt, tx.subarray(ws[1])]));
}

/** The tx without any vkey witness (the unsigned form of a signed tx). */
export function stripVkeyWitnesses(txCborHex: string): string {
  return withoutWitnessEntries(txCborHex, [0]);
}
