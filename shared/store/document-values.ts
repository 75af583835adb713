/**
 * Checks and copies stored values. Guards the port's value domain: JSON-like data only, so both adapters
 * round-trip exactly the same thing (no Date/bigint/Buffer drift between SQLite's JSON text and BSON).
 */
import { invalidQuery } from "./errors";
import type { StoredDocument, Value } from "./types";

/** Checks a field path like `profile.address.city`. @throws StoreError `INVALID_STORE_QUERY` */
export function checkPath(path: string, where: string): void {
  if (path.length === 0) invalidQuery(`${where}: empty field path`, { path });
  for (const segment of path.split(".")) {
    if (segment.length === 0) invalidQuery(`${where}: empty segment in field path "${path}"`, { path });
    if (segment.startsWith("$")) invalidQuery(`${where}: "${segment}" is not a field name (operators are not allowed here)`, { path });
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Returns a deep copy of `value` without `undefined` properties.
 * @throws StoreError `INVALID_STORE_QUERY` for values outside the port's domain (bigint, Date, NaN, class instances…)
 */
export function toStoredValue(value: unknown, path: string): Value {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) invalidQuery(`value at "${path}" is not a finite number`, { path });
      return value;
    case "bigint":
      return invalidQuery(`value at "${path}" is a bigint: store Lovelace and quantities as decimal strings`, { path });
    case "object": {
      if (value === null) return null;
      if (Array.isArray(value)) {
        // undefined array elements would become null in both drivers; refuse instead of guessing
        return value.map((element, i) => {
          if (element === undefined) invalidQuery(`array element "${path}.${i}" is undefined`, { path });
          return toStoredValue(element, `${path}.${i}`);
        });
      }
      if (!isPlainObject(value)) {
        const kind = (value as object).constructor?.name ?? "object";
        return invalidQuery(`value at "${path}" is a ${kind}: only plain objects, arrays and scalars are stored`, { path });
      }
      const copy: Record<string, Value> = {};
      for (const [key, field] of Object.entries(value)) {
        if (field === undefined) continue;
        const fieldPath = path === "" ? key : `${path}.${key}`;
        if (key.length === 0) invalidQuery(`empty field name under "${path}"`, { path });
        if (key.startsWith("$") || key.includes("."))
          invalidQuery(`field name "${key}" may not start with "$" or contain "."`, { path: fieldPath });
        copy[key] = toStoredValue(field, fieldPath);
      }
      return copy;
    }
    default:
      return invalidQuery(`value at "${path}" has type ${typeof value}, which cannot be stored`, { path });
  }
}

/** Validates a document for insertion and returns a clean deep copy. @throws StoreError `INVALID_STORE_QUERY` */
export function toStoredDocument<T extends StoredDocument>(doc: T): T {
  if (!isPlainObject(doc)) invalidQuery("a document must be a plain object");
  if (typeof doc._id !== "string" || doc._id.length === 0) {
    invalidQuery("a document needs a non-empty string _id (generate it, e.g. randomUUID())", { path: "_id" });
  }
  return toStoredValue(doc, "") as unknown as T;
}

/** Deep equality where object key order matters, as in BSON (used for `$addToSet` and "was it modified"). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ak = Object.keys(a);
    const bk = Object.keys(b);
    return ak.length === bk.length && ak.every((k, i) => k === bk[i] && sameValue(a[k], b[k]));
  }
  return false;
}
