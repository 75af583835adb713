/**
 * A plain TypeScript model of Plutus Data and its CBOR encoding through CSL `PlutusData`; also the hash and the
 * detailed-schema JSON of a datum, and the application of Data parameters to a script.
 */
import { apply_params_to_script } from "@lucid-evolution/uplc";
import { CslError } from "./errors";
import { fromHex, toHex } from "./hex";
import { CSL } from "./lib";
import { withFreed, type Own } from "./scope";

export type Data =
  | { readonly constr: number; readonly fields: readonly Data[] }
  | { readonly int: bigint }
  | { readonly bytes: string } // lowercase hex
  | { readonly list: readonly Data[] }
  | { readonly map: readonly (readonly [Data, Data])[] };

/** The CSL form of `d`; every intermediate object is registered with `own`, the result is not. */
function toCslData(d: Data, own: Own): CSL.PlutusData {
  if ("constr" in d) {
    const fields = own(CSL.PlutusList.new());
    for (const f of d.fields) fields.add(own(toCslData(f, own)));
    const alternative = own(CSL.BigNum.from_str(String(d.constr)));
    return CSL.PlutusData.new_constr_plutus_data(own(CSL.ConstrPlutusData.new(alternative, fields)));
  }
  if ("int" in d) return CSL.PlutusData.new_integer(own(CSL.BigInt.from_str(d.int.toString())));
  if ("bytes" in d) return CSL.PlutusData.new_bytes(fromHex(d.bytes, "bytes"));
  if ("list" in d) {
    const items = own(CSL.PlutusList.new());
    for (const f of d.list) items.add(own(toCslData(f, own)));
    return CSL.PlutusData.new_list(items);
  }
  const map = own(CSL.PlutusMap.new());
  for (const [k, v] of d.map) {
    const values = own(CSL.PlutusMapValues.new());
    values.add(own(toCslData(v, own)));
    map.insert(own(toCslData(k, own)), values);
  }
  return CSL.PlutusData.new_map(map);
}

/** The plain model of `pd`; every object a getter hands out is registered with `own`. */
function fromCslData(pd: CSL.PlutusData, own: Own): Data {
  const c = own(pd.as_constr_plutus_data());
  if (c) {
    const fields = own(c.data());
    const out: Data[] = [];
    for (let i = 0; i < fields.len(); i++) out.push(fromCslData(own(fields.get(i)), own));
    return { constr: Number(own(c.alternative()).to_str()), fields: out };
  }
  const i = own(pd.as_integer());
  if (i) return { int: BigInt(i.to_str()) };
  const b = pd.as_bytes();
  if (b) return { bytes: toHex(b) };
  const l = own(pd.as_list());
  if (l) {
    const out: Data[] = [];
    for (let k = 0; k < l.len(); k++) out.push(fromCslData(own(l.get(k)), own));
    return { list: out };
  }
  const m = own(pd.as_map());
  if (m) {
    const keys = own(m.keys());
    const out: [Data, Data][] = [];
    for (let k = 0; k < keys.len(); k++) {
      const key = own(keys.get(k));
      const values = own(m.get(key));
      if (!values) continue;
      for (let v = 0; v < values.len(); v++) {
        const value = own(values.get(v));
        if (value) out.push([fromCslData(key, own), fromCslData(value, own)]);
      }
    }
    return { map: out };
  }
  throw new CslError("INVALID_CBOR", "unsupported Plutus data kind");
}

export function dataToCbor(d: Data): Uint8Array {
  return withFreed((own) => own(toCslData(d, own)).to_bytes());
}

export function dataToCborHex(d: Data): string {
  return toHex(dataToCbor(d));
}

/** @throws CslError INVALID_CBOR */
export function plutusDataFromCborHex(cborHex: string): Data {
  return withFreed((own) => {
    let pd: CSL.PlutusData;
    try {
      pd = own(CSL.PlutusData.from_bytes(fromHex(cborHex, "plutus data")));
    } catch (err) {
      if (err instanceof CslError) throw err;
      throw new CslError("INVALID_CBOR", `not CBOR Plutus data: ${err instanceof Error ? err.message : String(err)}`);
    }
    return fromCslData(pd, own);
  });
}

/** blake2b-256 of a datum's CBOR (its datum hash). @throws CslError INVALID_CBOR */
export function datumHashOf(cborHex: string): string {
  return withFreed((own) => own(CSL.hash_plutus_data(own(CSL.PlutusData.from_hex(cborHex)))).to_hex());
}

/** A datum as CSL's detailed-schema JSON (`{ constructor, fields }`, `{ int }`, `{ bytes }`, …). */
export function detailedDataJson(cborHex: string): unknown {
  return withFreed((own) => JSON.parse(own(CSL.PlutusData.from_hex(cborHex)).to_json(CSL.PlutusDatumSchema.DetailedSchema)) as unknown);
}

/** Applies Data parameters, in order, to a single-wrapped script; returns the applied single-wrapped hex. */
export function applyParamsToScript(compiledCode: string, params: readonly Data[]): string {
  const paramBytes = withFreed((own) => {
    const plist = own(CSL.PlutusList.new());
    for (const p of params) plist.add(own(toCslData(p, own)));
    return plist.to_bytes();
  });
  return toHex(apply_params_to_script(paramBytes, fromHex(compiledCode, "compiled code")));
}
