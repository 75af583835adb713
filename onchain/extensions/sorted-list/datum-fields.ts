/** Rebuilding a datum's field list with one field replaced: the rest is copied, so the arity cannot change. */
import { data, pdropList } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "../../lib/term";

/** `fields` (list(data)) with field `index` (a build-time constant) replaced by `value` (data). */
export function withField(fields: AnyTerm, index: number, value: AnyTerm): AnyTerm {
  let out = pdropList(data)
    .$(fields)
    .$(index + 1)
    .prepend(value);
  for (let j = index - 1; j >= 0; j--) out = out.prepend(fields.at(j));
  return out;
}
