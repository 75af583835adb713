/**
 * Translates a checked port filter into a NeDB query with MongoDB's meaning. NeDB differs on a few operators:
 * it has no `$eq`; on an array field its `$ne`/`$nin` match when *some* element differs (MongoDB: when *no*
 * element equals), and `$exists: true` misses an empty array. Those become `$not` forms; equality, `$in` and
 * ranges stay at the top level so NeDB can answer them from an index.
 * Known residual difference: several range operators on one array field must hold for the same element on NeDB
 * (MongoDB: each for some element); the port documents "don't range-query array fields with two bounds".
 */
import type { Filter, FieldOperators } from "./types";

export type NedbQuery = Record<string, unknown>;

export function toNedbQuery(filter: Filter): NedbQuery {
  const query: NedbQuery = {};
  const conjuncts: NedbQuery[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === "$and") {
      conjuncts.push(...(condition as Filter[]).map(toNedbQuery));
    } else if (key === "$or") {
      query.$or = (condition as Filter[]).map(toNedbQuery);
    } else if (typeof condition !== "object") {
      query[key] = condition;
    } else {
      const kept: Record<string, unknown> = {};
      let equal: unknown;
      for (const [operator, operand] of Object.entries(condition as FieldOperators)) {
        switch (operator) {
          case "$eq":
            equal = operand;
            break;
          case "$ne":
            conjuncts.push({ $not: { [key]: operand } });
            break;
          case "$nin":
            conjuncts.push({ $not: { [key]: { $in: operand } } });
            break;
          case "$exists":
            if (operand === true) conjuncts.push({ $not: { [key]: { $exists: false } } });
            else kept.$exists = false;
            break;
          default: // $gt $gte $lt $lte $in
            kept[operator] = operand;
        }
      }
      if (Object.keys(kept).length > 0) {
        query[key] = kept;
        if (equal !== undefined) conjuncts.push({ [key]: equal });
      } else if (equal !== undefined) {
        query[key] = equal;
      }
    }
  }
  if (conjuncts.length > 0) query.$and = conjuncts;
  return query;
}
