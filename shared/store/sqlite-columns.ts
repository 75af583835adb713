/**
 * The SQLite adapter's indexed paths as columns. Every path of a declared index gets a column of its own (`"@path"`),
 * filled in JavaScript on every write with the value `json_extract(doc, '$.path')` would give of the JSON document
 * (strings as text, numbers as numbers, booleans as 1/0, null or absent as NULL, arrays and objects as JSON text,
 * NULL for a path through an array), and the index is built on these columns: the stored document is compressed,
 * so SQLite cannot read a path out of it.
 */
import type { SQLInputValue } from "node:sqlite";
import { isPlainObject } from "./document-values";

/** A declared index, as `_store_indexes` keeps it. */
export interface IndexMeta {
  name: string;
  paths: string[];
  unique: boolean;
  sparse: boolean;
}

/** The column holding an indexed path's value (`_id` is its own column). */
export function columnOf(path: string): string {
  return path === "_id" ? "_id" : `"@${path.replaceAll('"', '""')}"`;
}

/**
 * The value of a path in a document as `json_extract(doc, '$.path')` gives it for the document's JSON: strings as
 * text, integers as integers, other numbers as reals, booleans as 1/0, null or absent as NULL, arrays and objects
 * as JSON text, and NULL when the path runs through an array.
 */
export function columnValue(doc: unknown, path: string): SQLInputValue {
  const node = valueAt(doc, path);
  switch (typeof node) {
    case "string":
      return node;
    case "number":
      return Number.isSafeInteger(node) ? BigInt(node) : node;
    case "boolean":
      return node ? 1n : 0n;
    default:
      return node === null || node === undefined ? null : JSON.stringify(node);
  }
}

/** The value `json_extract` gives for a scalar (booleans become 1/0). */
export function sqlValue(value: string | number | boolean): SQLInputValue {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

/** The value at a path through plain objects only (undefined otherwise). */
export function valueAt(doc: unknown, path: string): unknown {
  let node = doc;
  for (const segment of path.split(".")) {
    if (!isPlainObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/** Whether the path, from the document's root, meets an array (at its end or on the way): a multikey path. */
export function reachesArray(doc: unknown, path: string): boolean {
  let node = doc;
  for (const segment of path.split(".")) {
    if (Array.isArray(node)) return true;
    if (!isPlainObject(node) || !Object.hasOwn(node, segment)) return false;
    node = node[segment];
  }
  return Array.isArray(node);
}

/** The statement creating a declared index on its columns (a sparse one over rows with a non-NULL key column). */
export function indexSql(table: string, meta: IndexMeta): string {
  const columns = meta.paths.map(columnOf);
  const partial = meta.sparse ? ` WHERE ${columns.map((column) => `${column} IS NOT NULL`).join(" OR ")}` : "";
  return `CREATE ${meta.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS "${meta.name}" ON ${table} (${columns.join(", ")})${partial}`;
}

/** SQLite's order of column values: NULL, then numbers (integers and reals alike), then text by UTF-8 bytes. */
export function compareSqlValues(a: SQLInputValue, b: SQLInputValue): number {
  const rank = (v: SQLInputValue): number =>
    v === null ? 0 : typeof v === "string" ? 2 : typeof v === "number" || typeof v === "bigint" ? 1 : 3;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return Math.sign(Number(a) - Number(b));
  if (ra !== 2) return 0;
  const x = a as string;
  const y = b as string;
  if (x === y) return 0;
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const cx = x.charCodeAt(i);
    const cy = y.charCodeAt(i);
    if (cx === cy) continue;
    // UTF-8 bytes sort by code point, where a surrogate pair (above U+FFFF) comes after U+E000–U+FFFF
    const surrogate = (c: number): number => (c >= 0xd800 && c < 0xe000 ? c + 0x10000 : c);
    return surrogate(cx) - surrogate(cy);
  }
  return x.length - y.length;
}
