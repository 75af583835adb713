/**
 * The one compile path for validators that plu-ts 0.9.0 miscompiles with delayed hoists
 * (docs/protocol.md#plu-ts-pitfalls, 7): plu-ts' production options except `delayHoists: false`.
 *
 * With `delayHoists: true` (plu-ts' default) every hoisted term becomes an implicit let placed by the same
 * machinery as field-access lets. On the multi-handler extension scripts that machinery bound variables to the
 * wrong terms: variables pointing outside their scope (the ledger's evaluator refused the whole script while
 * Aiken's ran the taken branch), a list applied as a function, a valid claim failing phase 2 in the shipped build
 * only. Hoisted terms kept as top-level bindings compile correctly, and the scripts are smaller and cheaper.
 * `onchain/compile.ts` says which validators take this path; the others keep plu-ts' `compile` and their hashes.
 * The options are plu-ts' production preset (what `compile(term)` uses) but for `delayHoists`. The output is
 * checked by the phase-2 tests and the free-variable check (test/onchain/script-scope.spec.ts).
 */
import { UPLCEncoder, UPLCProgram, UPLCVersion } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "./term";

const UPLC_1_1_0 = (): UPLCVersion => new UPLCVersion(1, 1, 0);

export function compileWithEagerHoists(term: AnyTerm): Uint8Array {
  const options = {
    targetUplcVersion: UPLC_1_1_0(),
    removeTraces: true, // a no-op in 0.9.0; traces are left out by the rule builder (docs/protocol.md#plu-ts-pitfalls, 4)
    delayHoists: false,
    uplcOptimizations: { groupApplications: true, inlineSingleUse: true, simplifyWrappedPartialFuncApps: true, removeForceDelay: true },
    addMarker: true,
  };
  return UPLCEncoder.compile(new UPLCProgram(UPLC_1_1_0(), term.toUPLC(0, options))).toBuffer().buffer;
}
