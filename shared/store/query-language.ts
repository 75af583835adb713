/**
 * The filter / sort / projection subset of the MongoDB query language that the port accepts, and its checks.
 * Guards the invariant that adapters only ever receive inputs whose meaning is the same on SQLite and MongoDB.
 */
import { checkPath, isPlainObject } from "./document-values";
import { invalidQuery } from "./errors";
import type { FieldCondition, Filter, FindOptions, Projection, Scalar, SortSpec } from "./types";

const FIELD_OPERATORS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"] as const;
const LOGICAL_OPERATORS = ["$and", "$or"] as const;

export function isScalar(value: unknown): value is Scalar {
  return typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

function checkScalar(value: unknown, path: string, operator: string): void {
  if (value === null) {
    invalidQuery(`${operator} on "${path}" compares with null, which is not in the subset: use { $exists: false }`, { path, operator });
  }
  if (!isScalar(value)) {
    invalidQuery(`${operator} on "${path}" needs a string, finite number or boolean (arrays and objects: use dotted paths)`, {
      path,
      operator,
    });
  }
}

function checkCondition(path: string, condition: unknown): void {
  if (!isPlainObject(condition)) return checkScalar(condition, path, "equality");
  const operators = Object.keys(condition);
  if (operators.length === 0) invalidQuery(`condition on "${path}" is an empty object`, { path });
  for (const operator of operators) {
    if (!operator.startsWith("$")) {
      invalidQuery(`condition on "${path}" mixes or uses object equality ("${operator}"): use dotted paths`, { path });
    }
    const operand = condition[operator];
    switch (operator) {
      case "$eq":
      case "$ne":
        checkScalar(operand, path, operator);
        break;
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte":
        if (!(typeof operand === "string" || (typeof operand === "number" && Number.isFinite(operand)))) {
          invalidQuery(`${operator} on "${path}" needs a string or finite number`, { path, operator });
        }
        break;
      case "$in":
      case "$nin":
        if (!Array.isArray(operand)) invalidQuery(`${operator} on "${path}" needs an array`, { path, operator });
        for (const element of operand as unknown[]) checkScalar(element, path, operator);
        break;
      case "$exists":
        if (typeof operand !== "boolean") invalidQuery(`$exists on "${path}" needs true or false`, { path, operator });
        break;
      default:
        invalidQuery(`operator ${operator} on "${path}" is not in the supported subset (${FIELD_OPERATORS.join(" ")})`, { path, operator });
    }
  }
}

/** @throws StoreError `INVALID_STORE_QUERY` naming the offending path/operator */
export function checkFilter(filter: unknown): asserts filter is Filter {
  if (!isPlainObject(filter)) invalidQuery("a filter must be a plain object");
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) invalidQuery(`filter key "${key}" is undefined (omit it instead)`, { path: key });
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(value) || value.length === 0) invalidQuery(`${key} needs a non-empty array of filters`, { operator: key });
      for (const part of value as unknown[]) checkFilter(part);
    } else if (key.startsWith("$")) {
      invalidQuery(`top-level operator ${key} is not in the supported subset (${LOGICAL_OPERATORS.join(" ")})`, { operator: key });
    } else {
      checkPath(key, "filter");
      checkCondition(key, value);
    }
  }
}

/** @throws StoreError `INVALID_STORE_QUERY` */
function checkSort(sort: SortSpec): void {
  if (!isPlainObject(sort)) invalidQuery("sort must be an object of field: 1 | -1");
  for (const [path, direction] of Object.entries(sort)) {
    checkPath(path, "sort");
    if (direction !== 1 && direction !== -1) invalidQuery(`sort direction for "${path}" must be 1 or -1`, { path });
  }
}

/** Appends `_id: 1` as the last sort key (unless present) so ties come back in the same order on every adapter. */
export function withIdTiebreak(sort: SortSpec | undefined): SortSpec {
  if (sort === undefined) return { _id: 1 };
  return "_id" in sort ? sort : { ...sort, _id: 1 };
}

/** @throws StoreError `INVALID_STORE_QUERY` */
export function checkFindOptions(options: FindOptions): void {
  if (options.sort !== undefined) checkSort(options.sort);
  for (const key of ["skip", "limit"] as const) {
    const n = options[key];
    if (n !== undefined && !(Number.isSafeInteger(n) && n >= 0)) invalidQuery(`${key} must be a non-negative integer`, { option: key });
  }
}

/** @throws StoreError `INVALID_STORE_QUERY` */
export function checkProjection(projection: Projection): void {
  if (!isPlainObject(projection)) invalidQuery("projection must be an object of field: 0 | 1");
  let mode: 0 | 1 | undefined;
  for (const [path, flag] of Object.entries(projection)) {
    checkPath(path, "projection");
    if (flag !== 0 && flag !== 1) invalidQuery(`projection flag for "${path}" must be 0 or 1`, { path });
    if (path === "_id") continue;
    if (mode !== undefined && mode !== flag) invalidQuery("projection cannot both keep and omit fields (except _id)", { path });
    mode = flag;
  }
}

/**
 * The document an upsert starts from: the filter's equality conditions (`field: v`, `field: { $eq: v }`, also
 * inside `$and`), dotted paths expanded into nested objects — the same seed MongoDB builds.
 */
export function upsertSeed(filter: Filter): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  const visit = (f: Filter): void => {
    for (const [key, condition] of Object.entries(f)) {
      if (key === "$and") (condition as Filter[]).forEach(visit);
      if (key.startsWith("$")) continue;
      let value: unknown;
      if (isScalar(condition)) value = condition;
      else if (isPlainObject(condition) && "$eq" in condition) value = condition.$eq;
      else continue;
      const parts = key.split(".");
      let node = seed;
      for (const part of parts.slice(0, -1)) {
        if (!isPlainObject(node[part])) node[part] = {};
        node = node[part] as Record<string, unknown>;
      }
      node[parts[parts.length - 1] as string] = value;
    }
  };
  visit(filter);
  return seed;
}

/**
 * The values a dotted path reaches in a document, the way MongoDB collects them: a path through an array
 * continues into each of its elements, and an array at the end of the path contributes itself and each element.
 * An empty result means the field is absent.
 */
export function valuesAtPath(doc: unknown, path: string): unknown[] {
  const found: unknown[] = [];
  const segments = path.split(".");
  const visit = (node: unknown, i: number): void => {
    if (i === segments.length) {
      found.push(node);
      if (Array.isArray(node)) found.push(...(node as unknown[]));
      return;
    }
    const segment = segments[i] as string;
    if (Array.isArray(node)) {
      if (/^(0|[1-9][0-9]*)$/.test(segment) && Number(segment) < node.length) visit(node[Number(segment)], i + 1);
      for (const element of node as unknown[]) if (isPlainObject(element)) visit(element, i);
    } else if (isPlainObject(node) && Object.hasOwn(node, segment)) {
      visit(node[segment], i + 1);
    }
  };
  visit(doc, 0);
  return found;
}

function inRange(value: unknown, operator: string, bound: string | number): boolean {
  if (typeof value !== typeof bound) return false; // numbers compare with numbers, strings with strings
  const v = value as string | number;
  switch (operator) {
    case "$gt":
      return v > bound;
    case "$gte":
      return v >= bound;
    case "$lt":
      return v < bound;
    default:
      return v <= bound;
  }
}

function conditionHolds(values: readonly unknown[], condition: FieldCondition): boolean {
  if (!isPlainObject(condition)) return values.some((v) => v === condition);
  for (const [operator, operand] of Object.entries(condition)) {
    let holds: boolean;
    switch (operator) {
      case "$eq":
        holds = values.some((v) => v === operand);
        break;
      case "$ne":
        holds = !values.some((v) => v === operand);
        break;
      case "$in":
        holds = values.some((v) => (operand as Scalar[]).includes(v as Scalar));
        break;
      case "$nin":
        holds = !values.some((v) => (operand as Scalar[]).includes(v as Scalar));
        break;
      case "$exists":
        holds = values.length > 0 === operand;
        break;
      default: // $gt $gte $lt $lte, each satisfied by some value on its own (as MongoDB does)
        holds = values.some((v) => inRange(v, operator, operand as string | number));
    }
    if (!holds) return false;
  }
  return true;
}

/**
 * Whether a stored document satisfies a checked filter, with MongoDB's meaning (the reference for adapters that
 * evaluate filters themselves): equality, `$in` and ranges hold when some reached value satisfies them; `$ne`,
 * `$nin` when none does (so an absent field satisfies them); `$exists` looks at presence, not value.
 */
export function matchesFilter(doc: Record<string, unknown>, filter: Filter): boolean {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === "$and") {
      if (!(condition as Filter[]).every((part) => matchesFilter(doc, part))) return false;
    } else if (key === "$or") {
      if (!(condition as Filter[]).some((part) => matchesFilter(doc, part))) return false;
    } else if (!conditionHolds(valuesAtPath(doc, key), condition as FieldCondition)) {
      return false;
    }
  }
  return true;
}

function copyPath(from: unknown, to: Record<string, unknown>, segments: readonly string[]): void {
  const [head, ...rest] = segments as [string, ...string[]];
  if (!isPlainObject(from) || !Object.hasOwn(from, head)) return;
  const value = from[head];
  if (rest.length === 0) {
    to[head] = structuredClone(value);
  } else if (Array.isArray(value)) {
    const target = (Array.isArray(to[head]) ? to[head] : value.map(() => ({}))) as Record<string, unknown>[];
    value.forEach((element, i) => {
      if (isPlainObject(element) && isPlainObject(target[i])) copyPath(element, target[i], rest);
    });
    to[head] = target.filter((element) => Object.keys(element).length > 0);
  } else if (isPlainObject(value)) {
    const target = (isPlainObject(to[head]) ? to[head] : {}) as Record<string, unknown>;
    copyPath(value, target, rest);
    if (Object.keys(target).length > 0) to[head] = target;
  }
}

function dropPath(node: unknown, segments: readonly string[]): void {
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(node)) {
    for (const element of node as unknown[]) dropPath(element, segments);
  } else if (isPlainObject(node) && Object.hasOwn(node, head)) {
    if (rest.length === 0) delete node[head];
    else dropPath(node[head], rest);
  }
}

/**
 * Applies a checked projection to a document (which it does not change): inclusion keeps the named paths
 * (through arrays of sub-documents too) plus `_id` unless `_id: 0`; exclusion removes the named paths.
 */
export function project(doc: Record<string, unknown>, projection: Projection): Record<string, unknown> {
  const entries = Object.entries(projection);
  // Any 1 makes it an inclusion, `_id: 1` alone too (only the id is kept, as MongoDB does).
  const inclusive = entries.some(([, flag]) => flag === 1);
  if (inclusive) {
    const result: Record<string, unknown> = {};
    if (projection._id !== 0 && Object.hasOwn(doc, "_id")) result._id = doc._id;
    for (const [path, flag] of entries) if (path !== "_id" && flag === 1) copyPath(doc, result, path.split("."));
    return result;
  }
  const result = structuredClone(doc);
  for (const [path] of entries) dropPath(result, path.split("."));
  return result;
}
