/**
 * The JSON text the SQLite adapter stores for a document (before `document-codec.ts` compresses it): the document
 * without its `_id`, which the row's own column holds, and without the strings its indexed columns hold. Each such
 * string is left as a 0 in its place, so the keys keep their order, and put back from its column when the row is
 * read; a real 0 has an integer column. A hash is the only string of most documents the dictionary cannot
 * compress: stored once, in its column, instead of twice.
 */
import type { SQLInputValue } from "node:sqlite";
import { valueAt } from "./sqlite-columns";
import { isPlainObject } from "./document-values";

/** A stored document as the adapter handles it. */
export type Row = Record<string, unknown> & { _id: string };

/** The stored text of `doc`, given the paths with a column and the values written to them (`columnValue`). */
export function bodyOf(doc: Row, columns: readonly string[], values: readonly SQLInputValue[]): string {
  const { _id, ...body } = doc;
  for (let i = 0; i < columns.length; i++) {
    // the column holds JSON text for an array or object: only a string value itself is left to it
    if (typeof values[i] !== "string" || typeof valueAt(doc, columns[i] as string) !== "string") continue;
    const segments = (columns[i] as string).split(".");
    let node: Record<string, unknown> = body;
    for (const segment of segments.slice(0, -1)) {
      const copy = { ...(node[segment] as Record<string, unknown>) };
      node[segment] = copy;
      node = copy;
    }
    node[segments[segments.length - 1] as string] = 0;
  }
  return JSON.stringify(body);
}

/** The document of a row from its `_id` and stored text, `_id` first as written (the strings left to columns not yet put back). */
export function documentOf(id: string, body: string): Row {
  return JSON.parse(`{"_id":${JSON.stringify(id)}${body === "{}" ? "}" : `,${body.slice(1)}`}`) as Row;
}

/** Puts an indexed string back where `bodyOf` left its 0 (a document stored before its index was declared is whole: left as read). */
export function putBack(doc: Row, path: string, value: string): void {
  const segments = path.split(".");
  let node: unknown = doc;
  for (const segment of segments.slice(0, -1)) {
    if (!isPlainObject(node)) return;
    node = node[segment];
  }
  const last = segments[segments.length - 1] as string;
  if (isPlainObject(node) && node[last] === 0) node[last] = value;
}
