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
import { arrayElements, cborBytes, concatBytes, encodeHeader, mapEntries } from "./cbor";
import { CslError, cslCall } from "./errors";
import { fromHex, toHex } from "./hex";
import { cslLanguage, type PlutusLanguage } from "./plutus-script";

/** A fresh copy of a CSL object (byte round-trip) so that the original survives a by-value call. */
function cloneCsl<T extends { to_bytes(): Uint8Array }>(x: T, fromBytes: (b: Uint8Array) => T): T {
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

/** A CBOR unsigned (major 0) or negative (major 1) integer in its shortest form (RFC 8949 §4.2.1). */
function encodeInt(n: bigint): Uint8Array {
  const major = n < 0n ? 1 : 0;
  const arg = n < 0n ? -1n - n : n;
  if (arg < 0x1_0000_0000n) return encodeHeader(major, Number(arg));
  const out = new Uint8Array(9);
  out[0] = (major << 5) | 27;
  new DataView(out.buffer).setBigUint64(1, arg);
  return out;
}

/**
 * The ledger's language views of `languages` (Alonzo onwards, unchanged in Conway): a canonical CBOR map from each
 * language to its cost model, keys ordered shortest encoding first then bytewise. PlutusV2 and V3: key 1 or 2, the
 * model as a definite list. PlutusV1 keeps Alonzo's quirk: key and model are each wrapped in a byte string (the key
 * `41 00`) and the model list is indefinite. This is the third part of what `script_data_hash` hashes; CSL computes
 * it only inside `hash_script_data`, so an offline check of a transaction's hash needs it on its own.
 * @throws CslError INVALID_PROTOCOL_PARAMETERS when a language has no cost model in `costModels`
 */
export function languageViews(costModels: CSL.Costmdls, languages: readonly PlutusLanguage[]): Uint8Array {
  const entries: Array<{ key: Uint8Array; value: Uint8Array }> = [];
  for (const lang of new Set(languages)) {
    const model = costModels.get(cslLanguage(lang));
    if (!model) throw new CslError("INVALID_PROTOCOL_PARAMETERS", `no cost model for ${lang}`, { language: lang });
    const ints: Uint8Array[] = [];
    for (let i = 0; i < model.len(); i++) ints.push(encodeInt(BigInt(model.get(i).to_str())));
    if (lang === "plutus:v1") {
      entries.push({
        key: cborBytes(Uint8Array.of(0x00)),
        value: cborBytes(concatBytes([Uint8Array.of(0x9f), ...ints, Uint8Array.of(0xff)])),
      });
    } else {
      entries.push({ key: Uint8Array.of(lang === "plutus:v2" ? 0x01 : 0x02), value: concatBytes([encodeHeader(4, ints.length), ...ints]) });
    }
  }
  entries.sort((a, b) => a.key.length - b.key.length || Buffer.compare(a.key, b.key));
  return concatBytes([encodeHeader(5, entries.length), ...entries.flatMap((e) => [e.key, e.value])]);
}

/**
 * The redeemers and datums of a transaction's witness set as raw bytes, exactly as carried (key 5 and key 4 of the
 * witness-set map): with the language views, what `script_data_hash` hashes. Never re-encoded (trap 6).
 * @throws CslError INVALID_CBOR when the bytes are not a transaction
 */
export function rawScriptData(txCborHex: string): { redeemers?: Uint8Array; datums?: Uint8Array } {
  const tx = fromHex(txCborHex, "transaction");
  const els = arrayElements(tx);
  if (els.length !== 4) throw new CslError("INVALID_CBOR", `a transaction is a 4-element array, got ${els.length}`);
  const [start, end] = els[1] as [number, number];
  const ws = tx.subarray(start, end);
  const out: { redeemers?: Uint8Array; datums?: Uint8Array } = {};
  for (const e of mapEntries(ws)) {
    if (e.key === 5) out.redeemers = ws.slice(e.valueStart, e.end);
    if (e.key === 4) out.datums = ws.slice(e.valueStart, e.end);
  }
  return out;
}

/**
 * The language views of every non-empty set of the languages `costModels` has, single languages first (newest
 * first): the candidates for a transaction whose scripts' languages are not all visible in it (reference scripts).
 */
export function languageViewCandidates(costModels: CSL.Costmdls): Uint8Array[] {
  const present = (["plutus:v3", "plutus:v2", "plutus:v1"] as const).filter((l) => costModels.get(cslLanguage(l)) !== undefined);
  const sets: PlutusLanguage[][] = [];
  for (let mask = 1; mask < 1 << present.length; mask++) sets.push(present.filter((_, i) => (mask >> i) & 1));
  sets.sort((a, b) => a.length - b.length);
  return sets.map((set) => languageViews(costModels, set));
}
