/**
 * Value and mint shapes. Ledger values in the script context are sorted maps with the ADA entry first, so
 * "ADA plus one token" is exactly two entries, the second being that token's policy.
 */
import { plet } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "./term";

/** The assets of one policy entry are exactly `qty` of `name`. */
function isSingleAsset(assets: AnyTerm, name: AnyTerm, qty: AnyTerm): AnyTerm {
  return plet(assets).in((as: AnyTerm) => as.length.eq(1).and(plet(as.head).in((a: AnyTerm) => a.fst.eq(name).and(a.snd.eq(qty)))));
}

/** The value holds ADA and one unit of (policy, name), nothing else. */
export function holdsOnlyToken(value: AnyTerm, policy: AnyTerm, name: AnyTerm): AnyTerm {
  return plet(value).in((v: AnyTerm) =>
    v.length.eq(2).and(plet(v.tail.head).in((e: AnyTerm) => e.fst.eq(policy).and(isSingleAsset(e.snd, name, 1)))),
  );
}

/** The transaction's mint under `policy` is exactly `qty` of `name` (no other asset of that policy). */
export function mintsExactly(mint: AnyTerm, policy: AnyTerm, name: AnyTerm, qty: number): AnyTerm {
  return plet(mint.filter((e: AnyTerm) => e.fst.eq(policy))).in((es: AnyTerm) =>
    es.length.eq(1).and(isSingleAsset(es.head.snd, name, qty)),
  );
}
