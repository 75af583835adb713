/**
 * "The validity range lies entirely before ttl" (Aiken `is_entirely_before`): an inclusive upper bound must be
 * < ttl, an exclusive one may equal it, an infinite one never passes. The bound is re-read as PBoundD because
 * plu-ts decodes the ledger's `inclusive` flag inverted (docs/protocol.md#plu-ts-pitfalls, 2).
 */
import { bool, pBool, pif, plet, pmatch, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { PBoundD } from "../types";
import type { AnyTerm } from "./term";

export function isEntirelyBefore(upperBound: AnyTerm, ttl: AnyTerm): AnyTerm {
  return plet(punsafeConvertType(upperBound, PBoundD.type)).in((ub: AnyTerm) =>
    (pmatch(ub.bound) as AnyTerm)
      .onPFinite(({ n }: AnyTerm) => pif(bool).$(ub.inclusive.raw.index.eq(1)).then(n.lt(ttl)).else(n.ltEq(ttl)))
      ._((_: AnyTerm) => pBool(false)),
  );
}
