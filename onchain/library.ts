/**
 * Library validator (docs/protocol.md#library): an always-locked store of reference-script UTxOs.
 * Parameter: the administrator's payment key hash. Any spend needs the administrator's signature; every other
 * purpose fails.
 */
import { data, passert, perror, pfn, plet, pmatch, PScriptContext, punBData, unit } from "@harmoniclabs/plu-ts";
import { makeRule, type BuildOptions } from "./rules";
import { isSignedBy } from "./lib/signatures";
import type { AnyTerm } from "./lib/term";

export function makeLibraryValidator(opts: BuildOptions): AnyTerm {
  const rule = makeRule(opts);
  return pfn(
    [data, PScriptContext.type],
    unit,
  )((adminD: AnyTerm, { tx, purpose }: AnyTerm) =>
    (pmatch(purpose) as AnyTerm)
      .onSpending((_: AnyTerm) =>
        plet(punBData.$(adminD)).in((admin: AnyTerm) => passert.$(rule("administrator signed", isSignedBy(tx.signatories, admin)))),
      )
      ._((_: AnyTerm) => perror(unit)),
  );
}
