/**
 * A plain TypeScript model of Plutus Data and its conversion to and from CSL `PlutusData` / CBOR hex.
 * The datum and redeemer codecs in this folder map their domain types onto this model, so they never touch CSL.
 */
import { CSL } from "../csl/lib";
import { fromHex, toHex } from "../csl/hex";
import { ProtocolError } from "./errors";

export type Data =
  | { readonly constr: number; readonly fields: readonly Data[] }
  | { readonly int: bigint }
  | { readonly bytes: string } // lowercase hex
  | { readonly list: readonly Data[] }
  | { readonly map: readonly (readonly [Data, Data])[] };

export const constr = (index: number, fields: readonly Data[] = []): Data => ({ constr: index, fields });
export const int = (value: bigint | number): Data => ({ int: BigInt(value) });
export const bytes = (hex: string): Data => ({ bytes: normaliseHex(hex) });
export const list = (items: readonly Data[]): Data => ({ list: items });
/** Plutus Bool: False = Constr 0 [], True = Constr 1 [] (PlutusTx / Aiken layout). */
export const bool = (value: boolean): Data => constr(value ? 1 : 0);

function normaliseHex(hex: string): string {
  return toHex(fromHex(hex, "bytes"));
}

/** @throws ProtocolError INVALID_PLUTUS_DATA */
export function toCslData(d: Data): CSL.PlutusData {
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

/** @throws ProtocolError INVALID_PLUTUS_DATA */
export function fromCslData(pd: CSL.PlutusData): Data {
  const c = pd.as_constr_plutus_data();
  if (c) {
    const fields = c.data();
    const out: Data[] = [];
    for (let i = 0; i < fields.len(); i++) out.push(fromCslData(fields.get(i)));
    return constr(Number(c.alternative().to_str()), out);
  }
  const i = pd.as_integer();
  if (i) return int(BigInt(i.to_str()));
  const b = pd.as_bytes();
  if (b) return { bytes: toHex(b) };
  const l = pd.as_list();
  if (l) {
    const out: Data[] = [];
    for (let k = 0; k < l.len(); k++) out.push(fromCslData(l.get(k)));
    return list(out);
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
  throw new ProtocolError("INVALID_PLUTUS_DATA", "unsupported Plutus data kind");
}

export function dataToCbor(d: Data): Uint8Array {
  return toCslData(d).to_bytes();
}

export function dataToCborHex(d: Data): string {
  return toHex(dataToCbor(d));
}

/** @throws ProtocolError INVALID_PLUTUS_DATA */
export function dataFromCborHex(cborHex: string): Data {
  let pd: CSL.PlutusData;
  try {
    pd = CSL.PlutusData.from_bytes(fromHex(cborHex, "plutus data"));
  } catch (err) {
    throw new ProtocolError("INVALID_PLUTUS_DATA", `not CBOR Plutus data: ${err instanceof Error ? err.message : String(err)}`);
  }
  return fromCslData(pd);
}

// ---- decoding helpers used by the codecs ----

/**
 * Reads `Constr index [fields]`, checking the constructor index and field count when given.
 * @throws ProtocolError `type` (INVALID_DATUM or INVALID_REDEEMER)
 */
export function expectConstr(
  d: Data,
  what: string,
  shape: { index?: number; arity?: number; type?: "INVALID_DATUM" | "INVALID_REDEEMER" } = {},
): { index: number; fields: readonly Data[] } {
  const type = shape.type ?? "INVALID_DATUM";
  if (!("constr" in d)) throw new ProtocolError(type, `${what}: expected a constructor`, { what });
  if (shape.index !== undefined && d.constr !== shape.index) {
    throw new ProtocolError(type, `${what}: expected constructor ${shape.index}, got ${d.constr}`, { what, index: shape.index, got: d.constr });
  }
  if (shape.arity !== undefined && d.fields.length !== shape.arity) {
    throw new ProtocolError(type, `${what}: expected ${shape.arity} fields, got ${d.fields.length}`, { what, arity: shape.arity, got: d.fields.length });
  }
  return { index: d.constr, fields: d.fields };
}

/** @throws ProtocolError INVALID_FIELD */
export function expectInt(d: Data | undefined, what: string): bigint {
  if (d === undefined || !("int" in d)) throw new ProtocolError("INVALID_FIELD", `${what}: expected an integer`, { what });
  return d.int;
}

/** @throws ProtocolError INVALID_FIELD */
export function expectBytes(d: Data | undefined, what: string, length?: number): string {
  if (d === undefined || !("bytes" in d)) throw new ProtocolError("INVALID_FIELD", `${what}: expected bytes`, { what });
  if (length !== undefined && d.bytes.length !== length * 2) {
    throw new ProtocolError("INVALID_FIELD", `${what}: expected ${length} bytes`, { what, length, got: d.bytes.length / 2 });
  }
  return d.bytes;
}

/** @throws ProtocolError INVALID_FIELD */
export function expectList(d: Data | undefined, what: string): readonly Data[] {
  if (d === undefined || !("list" in d)) throw new ProtocolError("INVALID_FIELD", `${what}: expected a list`, { what });
  return d.list;
}

/** @throws ProtocolError INVALID_FIELD */
export function expectBool(d: Data | undefined, what: string): boolean {
  if (d === undefined || !("constr" in d) || d.fields.length !== 0 || d.constr > 1) {
    throw new ProtocolError("INVALID_FIELD", `${what}: expected a Bool (Constr 0/1 [])`, { what });
  }
  return d.constr === 1;
}
