/**
 * A validator's handler: a closed, hoisted function of the transaction and the values it reads, returning bool.
 * Closed and hoisted, no handler can see another's bindings (onchain/extensions/connected-goods.ts says why).
 * `body` names one parameter per type in `args` (plu-ts counts them).
 */
import { bool, pfn, phoist } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "./term";

export function handler(args: readonly AnyTerm[], body: (...terms: AnyTerm[]) => AnyTerm): AnyTerm {
  return phoist((pfn as AnyTerm)(args, bool)(body));
}
