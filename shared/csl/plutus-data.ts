/**
 * A plain TypeScript model of Plutus Data and its CBOR encoding through CSL `PlutusData`; also the hash and the
 * detailed-schema JSON of a datum, and the application of Data parameters to a script.
 */
import { apply_params_to_script } from "@lucid-evolution/uplc";
import { CslError } from "./errors";
import { fromHex, toHex } from "./hex";
import { CSL } from "./lib";

export type Data =
  | { readonly constr: number; readonly fields: readonly Data[] }
  | { readonly int: bigint }
  | { readonly bytes: string } // lowercase hex
  | { readonly list: readonly Data[] }
  | { readonly map: readonly (readonly [Data, Data])[] };

function toCslData(d: Data): CSL.PlutusData {
  if ("constr" in d) {
    const fields = CSL.PlutusList.new();
    for (const f of d.fields) fields.add(toCslData(f));
    return CSL.PlutusData.new_constr_plutus_data(CSL.ConstrPlutusData.new(CSL.BigNum.from_str(String(d.constr)), fields));
  }
  if ("int" in d) return CSL.PlutusData.new_integer(CSL.BigInt.from_str(d.int.toString()));
  if ("bytes" in d) return CSL.PlutusData.new_bytes(fromHex(d.bytes, "bytes"));
  if ("list" in d) {
    const items = CSL.PlutusList.new();
    for (const f of d.list) items.add(toCslData(f));
    return CSL.PlutusData.new_list(items);
  }
  const map = CSL.PlutusMap.new();
  for (const [k, v] of d.map) {
    const values = CSL.PlutusMapValues.new();
    values.add(toCslData(v));
    map.insert(toCslData(k), values);
  }
  return CSL.PlutusData.new_map(map);
}

function fromCslData(pd: CSL.PlutusData): Data {
  const c = pd.as_constr_plutus_data();
  if (c) {
    const fields = c.data();
    const out: Data[] = [];
    for (let i = 0; i < fields.len(); i++) out.push(fromCslData(fields.get(i)));
    return { constr: Number(c.alternative().to_str()), fields: out };
  }
  const i = pd.as_integer();
  if (i) return { int: BigInt(i.to_str()) };
  const b = pd.as_bytes();
  if (b) return { bytes: toHex(b) };
  const l = pd.as_list();
  if (l) {
    const out: Data[] = [];
    for (let k = 0; k < l.len(); k++) out.push(fromCslData(l.get(k)));
    return { list: out };
  }
  const m = pd.as_map();
  if (m) {
    const keys = m.keys();
    const out: [Data, Data][] = [];
    for (let k = 0; k < keys.len(); k++) {
      const key = keys.get(k);
      const values = m.get(key);
      if (!values) continue;
      for (let v = 0; v < values.len(); v++) {
        const value = values.get(v);
        if (value) out.push([fromCslData(key), fromCslData(value)]);
      }
    }
    return { map: out };
  }
  throw new CslError("INVALID_CBOR", "unsupported Plutus data kind");
}

export function dataToCbor(d: Data): Uint8Array {
  return toCslData(d).to_bytes();
}

export function dataToCborHex(d: Data): string {
  return toHex(dataToCbor(d));
}

/** @throws CslError INVALID_CBOR */
export function plutusDataFromCborHex(cborHex: string): Data {
  let pd: CSL.PlutusData;
  try {
    pd = CSL.PlutusData.from_bytes(fromHex(cborHex, "plutus data"));
  } catch (err) {
    if (err instanceof CslError) throw err;
    throw new CslError("INVALID_CBOR", `not CBOR Plutus data: ${err instanceof Error ? err.message : String(err)}`);
  }
  return fromCslData(pd);
}

/** blake2b-256 of a datum's CBOR (its datum hash). @throws CslError INVALID_CBOR */
export function datumHashOf(cborHex: string): string {
  return CSL.hash_plutus_data(CSL.PlutusData.from_hex(cborHex)).to_hex();
}

/** A datum as CSL's detailed-schema JSON (`{ constructor, fields }`, `{ int }`, `{ bytes }`, …). */
export function detailedDataJson(cborHex: string): unknown {
  return JSON.parse(CSL.PlutusData.from_hex(cborHex).to_json(CSL.PlutusDatumSchema.DetailedSchema)) as unknown;
}

/** Applies Data parameters, in order, to a single-wrapped script; returns the applied single-wrapped hex. */
export function applyParamsToScript(compiledCode: string, params: readonly Data[]): string {
  const plist = CSL.PlutusList.new();
  for (const p of params) plist.add(toCslData(p));
  return toHex(apply_params_to_script(plist.to_bytes(), fromHex(compiledCode, "compiled code")));
}
