/**
 * Building and reading the plain Plutus Data model (shared/csl/plutus-data.ts owns it and its CBOR encoding).
 * The datum and redeemer codecs in this folder map their domain types onto this model, so they never touch CSL.
 */
import { fromHex, toHex } from "../csl/hex";
import { plutusDataFromCborHex, type Data } from "../csl/plutus-data";
import { ProtocolError } from "./errors";

export { dataToCbor, dataToCborHex, type Data } from "../csl/plutus-data";

export const constr = (index: number, fields: readonly Data[] = []): Data => ({ constr: index, fields });
export const int = (value: bigint | number): Data => ({ int: BigInt(value) });
export const bytes = (hex: string): Data => ({ bytes: normaliseHex(hex) });
export const list = (items: readonly Data[]): Data => ({ list: items });
/** Plutus Bool: False = Constr 0 [], True = Constr 1 [] (PlutusTx / Aiken layout). */
export const bool = (value: boolean): Data => constr(value ? 1 : 0);
/** Plutus `Option<ByteArray>`: Some = Constr 0 [bytes], None (undefined) = Constr 1 [] (PlutusTx / Aiken layout). */
export const optionBytes = (hex: string | undefined): Data => (hex === undefined ? constr(1) : constr(0, [bytes(hex)]));

/**
 * The order of two ByteArrays given as hex, as Plutus `lessThanByteString` orders them (byte by byte, a prefix
 * first; never as text): negative, 0 or positive. @throws CslError INVALID_HEX
 */
export function compareByteStrings(a: string, b: string): number {
  return Buffer.compare(fromHex(a, "bytes"), fromHex(b, "bytes"));
}

function normaliseHex(hex: string): string {
  return toHex(fromHex(hex, "bytes"));
}

/** @throws ProtocolError INVALID_PLUTUS_DATA */
export function dataFromCborHex(cborHex: string): Data {
  try {
    return plutusDataFromCborHex(cborHex);
  } catch (err) {
    throw new ProtocolError("INVALID_PLUTUS_DATA", `not CBOR Plutus data: ${err instanceof Error ? err.message : String(err)}`);
  }
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
    throw new ProtocolError(type, `${what}: expected constructor ${shape.index}, got ${d.constr}`, {
      what,
      index: shape.index,
      got: d.constr,
    });
  }
  if (shape.arity !== undefined && d.fields.length !== shape.arity) {
    throw new ProtocolError(type, `${what}: expected ${shape.arity} fields, got ${d.fields.length}`, {
      what,
      arity: shape.arity,
      got: d.fields.length,
    });
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

/** Reads an `Option<ByteArray>` (see `optionBytes`); None is undefined. @throws ProtocolError INVALID_FIELD */
export function expectOptionBytes(d: Data | undefined, what: string): string | undefined {
  if (d !== undefined && "constr" in d) {
    if (d.constr === 1 && d.fields.length === 0) return undefined;
    if (d.constr === 0 && d.fields.length === 1) return expectBytes(d.fields[0], what);
  }
  throw new ProtocolError("INVALID_FIELD", `${what}: expected Some(bytes) or None`, { what });
}
