/**
 * The update subset (`$set $unset $inc $push $pull $addToSet`): checks at the port, and a pure applier with
 * MongoDB's semantics. The SQLite adapter applies updates with this module; the MongoDB adapter sends the update
 * as is.
 */
import { checkPath, isPlainObject, sameValue, toStoredValue } from "./document-values";
import { invalidQuery } from "./errors";
import { isScalar } from "./query-language";
import type { Update, Value } from "./types";

const UPDATE_OPERATORS = ["$set", "$unset", "$inc", "$push", "$pull", "$addToSet"] as const;
type UpdateOperator = (typeof UPDATE_OPERATORS)[number];

function isEach(operand: unknown): operand is { $each: unknown[] } {
  return isPlainObject(operand) && "$each" in operand;
}

function checkOperand(operator: UpdateOperator, path: string, operand: unknown): void {
  switch (operator) {
    case "$set":
      if (operand === undefined) invalidQuery(`$set of "${path}" to undefined: use $unset`, { path, operator });
      toStoredValue(operand, path);
      return;
    case "$unset":
      return;
    case "$inc":
      if (typeof operand !== "number" || !Number.isFinite(operand))
        invalidQuery(`$inc of "${path}" needs a finite number`, { path, operator });
      return;
    case "$push":
    case "$addToSet":
      if (isEach(operand)) {
        if (Object.keys(operand).length !== 1 || !Array.isArray(operand.$each)) {
          invalidQuery(`${operator} of "${path}" supports only { $each: [...] } (no $slice/$position/$sort)`, { path, operator });
        }
        toStoredValue(operand.$each, path);
      } else {
        if (operand === undefined) invalidQuery(`${operator} of "${path}" needs a value`, { path, operator });
        toStoredValue(operand, path);
      }
      return;
    case "$pull":
      if (isScalar(operand)) return;
      if (isPlainObject(operand)) {
        const keys = Object.keys(operand);
        if (keys.length === 1 && keys[0] === "$in" && Array.isArray(operand.$in) && operand.$in.every(isScalar)) return;
        if (keys.length > 0 && keys.every((k) => !k.startsWith("$")) && keys.every((k) => isScalar(operand[k]))) {
          keys.forEach((k) => checkPath(k, "$pull condition"));
          return;
        }
      }
      invalidQuery(`$pull of "${path}" needs a scalar, { $in: [scalars] } or { field: scalar, ... }`, { path, operator });
  }
}

/** @throws StoreError `INVALID_STORE_QUERY` for unknown operators, `_id` changes, overlapping paths, bad operands */
export function checkUpdate(update: unknown): asserts update is Update {
  if (!isPlainObject(update)) invalidQuery("an update must be a plain object of operators");
  const keys = Object.keys(update);
  if (keys.length === 0) invalidQuery("an update needs at least one operator");
  const paths: string[] = [];
  for (const key of keys) {
    if (!(UPDATE_OPERATORS as readonly string[]).includes(key)) {
      const hint = key.startsWith("$") ? "not in the supported subset" : "replacement documents are not supported; use $set";
      invalidQuery(`update key ${key}: ${hint} (${UPDATE_OPERATORS.join(" ")})`, { operator: key });
    }
    const fields = update[key];
    if (!isPlainObject(fields)) invalidQuery(`${key} needs an object of path: operand`, { operator: key });
    for (const [path, operand] of Object.entries(fields)) {
      checkPath(path, key);
      if (path === "_id" || path.startsWith("_id.")) invalidQuery("_id is immutable", { path, operator: key });
      checkOperand(key as UpdateOperator, path, operand);
      paths.push(path);
    }
  }
  if (paths.length === 0) invalidQuery("an update must change at least one path");
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const a = paths[i] as string;
      const b = paths[j] as string;
      if (a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)) {
        invalidQuery(`update paths "${a}" and "${b}" conflict`, { path: a, conflictsWith: b });
      }
    }
  }
}

type Container = Record<string, unknown> | unknown[];

const isIndex = (segment: string): boolean => /^(0|[1-9][0-9]*)$/.test(segment);

function child(node: Container, segment: string, path: string): unknown {
  if (Array.isArray(node)) {
    if (!isIndex(segment)) invalidQuery(`cannot use field "${segment}" of an array in "${path}"`, { path });
    return node[Number(segment)];
  }
  return node[segment];
}

function setChild(node: Container, segment: string, value: unknown, path: string): void {
  if (Array.isArray(node)) {
    if (!isIndex(segment)) invalidQuery(`cannot use field "${segment}" of an array in "${path}"`, { path });
    const index = Number(segment);
    while (node.length < index) node.push(null); // MongoDB pads with null
    node[index] = value;
  } else {
    node[segment] = value;
  }
}

/** The container holding the last segment of `path`, creating objects on the way when `create`. */
function parentOf(root: Record<string, unknown>, path: string, create: boolean): Container | undefined {
  const segments = path.split(".");
  let node: Container = root;
  for (const segment of segments.slice(0, -1)) {
    let next = child(node, segment, path);
    if (next === undefined || (next === null && Array.isArray(node))) {
      if (!create) return undefined;
      next = {};
      setChild(node, segment, next, path);
    }
    if (typeof next !== "object" || next === null) {
      invalidQuery(`cannot create field "${path}": "${segment}" holds a ${next === null ? "null" : typeof next}`, { path });
    }
    node = next as Container;
  }
  return node;
}

const lastSegment = (path: string): string => path.slice(path.lastIndexOf(".") + 1);

function elementMatches(element: unknown, condition: unknown): boolean {
  if (isScalar(condition)) return sameValue(element, condition);
  const cond = condition as Record<string, unknown>;
  if ("$in" in cond) return (cond.$in as unknown[]).some((v) => sameValue(element, v));
  if (!isPlainObject(element)) return false;
  return Object.entries(cond).every(([field, expected]) => {
    let value: unknown = element;
    for (const segment of field.split(".")) value = isPlainObject(value) ? value[segment] : undefined;
    return Array.isArray(value) ? value.some((v) => sameValue(v, expected)) : sameValue(value, expected);
  });
}

function appendValues(operand: unknown): unknown[] {
  return isEach(operand) ? operand.$each.map((v) => structuredClone(v)) : [structuredClone(operand)];
}

/**
 * Returns a new document: `doc` with `update` applied the way MongoDB applies it. `update` must have passed
 * `checkUpdate`. @throws StoreError `INVALID_STORE_QUERY` when the document's shape forbids the update
 * (`$inc` of a non-number, `$push`/`$pull`/`$addToSet` on a non-array, a path through a scalar).
 */
export function applyUpdate<T extends Record<string, unknown>>(doc: T, update: Update): T {
  const next = structuredClone(doc) as Record<string, unknown>;
  for (const [operator, fields] of Object.entries(update) as [UpdateOperator, Record<string, unknown>][]) {
    for (const [path, operand] of Object.entries(fields)) {
      const key = lastSegment(path);
      if (operator === "$unset") {
        const parent = parentOf(next, path, false);
        if (parent === undefined) continue;
        if (Array.isArray(parent)) {
          if (isIndex(key) && Number(key) < parent.length) parent[Number(key)] = null; // MongoDB nulls array slots
        } else if (typeof parent === "object") {
          delete parent[key];
        }
        continue;
      }
      const parent = parentOf(next, path, operator !== "$pull") as Container | undefined;
      if (parent === undefined) continue; // $pull through a missing path: nothing to remove
      const current = child(parent, key, path);
      switch (operator) {
        case "$set":
          setChild(parent, key, structuredClone(operand as Value), path);
          break;
        case "$inc":
          if (current === undefined) setChild(parent, key, operand, path);
          else if (typeof current === "number") setChild(parent, key, current + (operand as number), path);
          else invalidQuery(`cannot $inc "${path}": it holds a ${current === null ? "null" : typeof current}`, { path, operator });
          break;
        case "$push":
        case "$addToSet": {
          if (current !== undefined && !Array.isArray(current))
            invalidQuery(`cannot ${operator} to "${path}": not an array`, { path, operator });
          const array = (current as unknown[] | undefined) ?? [];
          for (const value of appendValues(operand)) {
            if (operator === "$push" || !array.some((existing) => sameValue(existing, value))) array.push(value);
          }
          setChild(parent, key, array, path);
          break;
        }
        case "$pull":
          if (current === undefined) break;
          if (!Array.isArray(current)) invalidQuery(`cannot $pull from "${path}": not an array`, { path, operator });
          setChild(
            parent,
            key,
            current.filter((element) => !elementMatches(element, operand)),
            path,
          );
          break;
      }
    }
  }
  return next as T;
}
