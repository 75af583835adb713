/**
 * A filter of the port's language translated to the SQL condition that narrows it: the conditions an index can
 * answer (equality, `$in`, ranges on paths with a column, `_id`), joined as the filter joins them. The SQL never
 * decides alone unless it is exact: every candidate it selects is checked with the port's own matcher
 * (`matchesFilter`), so an answer keeps MongoDB's meaning whatever SQL can express.
 */
import type { SQLInputValue } from "node:sqlite";
import { columnOf, sqlValue } from "./sqlite-columns";
import { isPlainObject } from "./document-values";
// `port.*`: the store port's own types.
import type * as port from "./types";

/** A SQL condition implied by a filter (every matching document satisfies it), and whether it is the whole filter. */
export interface Narrowing {
  sql: string;
  params: SQLInputValue[];
  /** True when the SQL condition alone selects exactly the matching documents. */
  exact: boolean;
}

const NO_NARROWING: Narrowing = { sql: "", params: [], exact: false };

/**
 * The narrowing of `filter`, given which paths can be narrowed (`_id`, and paths with a column that never held an
 * array: equality on a multikey path means "some element equals", which a scalar column cannot answer).
 */
export function narrowFilter(filter: port.Filter, narrowable: (path: string) => boolean): Narrowing {
  const parts: Narrowing[] = [];
  let exact = true;
  for (const [key, condition] of Object.entries(filter)) {
    let part: Narrowing;
    if (key === "$and") {
      part = narrowAll((condition as port.Filter[]).map((f) => narrowFilter(f, narrowable)));
    } else if (key === "$or") {
      const branches = (condition as port.Filter[]).map((f) => narrowFilter(f, narrowable));
      part = branches.some((b) => b.sql === "")
        ? NO_NARROWING
        : {
            sql: branches.map((b) => `(${b.sql})`).join(" OR "),
            params: branches.flatMap((b) => b.params),
            exact: branches.every((b) => b.exact),
          };
    } else {
      part = narrowable(key) ? narrowField(key, condition as port.FieldCondition) : NO_NARROWING;
    }
    if (part.sql === "") exact = false;
    else parts.push(part);
    exact &&= part.exact;
  }
  if (parts.length === 0) return { sql: "", params: [], exact: Object.keys(filter).length === 0 };
  return { sql: parts.map((p) => `(${p.sql})`).join(" AND "), params: parts.flatMap((p) => p.params), exact };
}

/** The ` WHERE …` clause of a narrowing ("" when it narrows nothing). */
export function whereOf(n: Narrowing): string {
  return n.sql === "" ? "" : ` WHERE ${n.sql}`;
}

function narrowField(path: string, condition: port.FieldCondition): Narrowing {
  const key = columnOf(path);
  const terms: string[] = [];
  const params: SQLInputValue[] = [];
  let exact = true;
  const note = (value: unknown): void => {
    // numbers also match booleans stored as 1/0, booleans also match numbers: the matcher decides
    if (typeof value !== "string") exact = false;
  };
  const conditions = isPlainObject(condition) ? Object.entries(condition) : [["$eq", condition] as const];
  for (const [operator, operand] of conditions) {
    switch (operator) {
      case "$eq":
        terms.push(`${key} = ?`);
        params.push(sqlValue(operand as port.Scalar));
        note(operand);
        break;
      case "$in": {
        const list = operand as port.Scalar[];
        terms.push(list.length === 0 ? "0" : `${key} IN (${list.map(() => "?").join(", ")})`);
        params.push(...list.map(sqlValue));
        list.forEach(note);
        break;
      }
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte": {
        const sign = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" }[operator];
        // keep the bound's type: numbers sort below text, text below blobs
        const typeBound = typeof operand === "number" ? `${key} < ''` : `${key} >= '' AND ${key} < x''`;
        terms.push(`${key} ${sign} ? AND ${typeBound}`);
        params.push(operand as string | number);
        note(operand);
        break;
      }
      default: // $ne $nin $exists: left to the matcher
        exact = false;
    }
  }
  if (terms.length === 0) return NO_NARROWING;
  return { sql: terms.join(" AND "), params, exact };
}

function narrowAll(parts: Narrowing[]): Narrowing {
  const kept = parts.filter((p) => p.sql !== "");
  if (kept.length === 0) return NO_NARROWING;
  return {
    sql: kept.map((p) => `(${p.sql})`).join(" AND "),
    params: kept.flatMap((p) => p.params),
    exact: kept.length === parts.length && parts.every((p) => p.exact),
  };
}

/** The paths a filter fixes to one value (`path: scalar` or `{ $eq }`, at the top level or inside `$and`). */
export function equalityPaths(filter: port.Filter): Set<string> {
  const paths = new Set<string>();
  const visit = (f: port.Filter): void => {
    for (const [key, condition] of Object.entries(f)) {
      if (key === "$and") (condition as port.Filter[]).forEach(visit);
      else if (key.startsWith("$")) continue;
      else if (!isPlainObject(condition) || Object.keys(condition).every((operator) => operator === "$eq")) paths.add(key);
    }
  };
  visit(filter);
  return paths;
}
