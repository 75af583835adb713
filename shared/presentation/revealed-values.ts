/**
 * Revealed values (docs/api.md#open-graph-data, docs/web-pages.md#revealed-values): a metadata key `uv_url_<name>`
 * holds the SHA-256 hex of a value kept off chain; a link reveals the value as the query parameter `<name>`. A
 * value counts only when its SHA-256 equals the committed hex. Link previews and the certificate page both decide
 * with `vouchesFor`, so they never disagree.
 */
import { createHash } from "node:crypto";
import { DataHash } from "../domain/hex";

export const REVEALED_KEY_PREFIX = "uv_url_";

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Whether the metadata commits to `value` for the parameter `name`. */
export function vouchesFor(metadata: Record<string, unknown>, name: string, value: string): boolean {
  const expected = metadata[`${REVEALED_KEY_PREFIX}${name}`];
  return DataHash.parse(expected) === sha256Hex(value);
}

/** The shown part of a salted value: everything before the last `~`. */
export function withoutSalt(value: string): string {
  const at = value.lastIndexOf("~");
  return at < 0 ? value : value.slice(0, at);
}

export interface RevealedField {
  /** Parameter name (`name` for `uv_url_name`). */
  name: string;
  /**
   * `match`: the link reveals a value whose SHA-256 is the committed one; `mismatch`: the link gives a value that
   * is not; `hidden`: the link does not reveal this field.
   */
  state: "match" | "mismatch" | "hidden";
  /** The value to show (salt removed); only for `match`. */
  value?: string;
}

/** Every `uv_url_*` field of the metadata, judged against the link's query parameters (first occurrence wins). */
export function revealedFields(metadata: Record<string, unknown>, query: ReadonlyArray<[string, string]>): RevealedField[] {
  const fields: RevealedField[] = [];
  for (const [key, committed] of Object.entries(metadata)) {
    if (!key.startsWith(REVEALED_KEY_PREFIX) || typeof committed !== "string") continue;
    const name = key.slice(REVEALED_KEY_PREFIX.length);
    if (name === "") continue;
    const given = query.find(([k]) => k === name);
    if (given === undefined) fields.push({ name, state: "hidden" });
    else if (vouchesFor(metadata, name, given[1])) fields.push({ name, state: "match", value: withoutSalt(given[1]) });
    else fields.push({ name, state: "mismatch" });
  }
  return fields;
}
