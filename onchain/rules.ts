/**
 * Named rules. Every condition of a validator goes through `rule(name, cond)`; in a trace build a false rule
 * logs its name (so a rejected transaction says which rule failed), in the shipped build it is the bare condition
 * (plu-ts 0.9.0 ignores `removeTraces`, docs/protocol.md#plu-ts-pitfalls, 4).
 */
import { pdelay, plet, pStr, ptraceIfFalse, type Term, type PBool } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "./lib/term";

export interface BuildOptions {
  /** keep rule names as traces (debug build); false for the shipped build */
  readonly trace: boolean;
}

/** Returns the (possibly traced) condition; typed loosely so `.and` stays available (docs/protocol.md#plu-ts-pitfalls, 5). */
export type Rule = (name: string, cond: Term<PBool>) => AnyTerm;

export function makeRule(opts: BuildOptions): Rule {
  if (!opts.trace) return (_name, cond) => cond;
  return (name, cond) => ptraceIfFalse.$(pdelay(pStr(name))).$(cond);
}

/**
 * All named rules must hold. Each rule is bound with `plet(...).in(...)` (a real let: evaluated once, never
 * inlined twice, docs/protocol.md#plu-ts-pitfalls, 1) and the bound results are joined at the end.
 */
export function requireAll(rule: Rule, rules: ReadonlyArray<readonly [string, Term<PBool>]>): AnyTerm {
  const bind = (i: number, bound: AnyTerm[]): AnyTerm => {
    const next = rules[i];
    if (next === undefined) return bound.reduce((a, b) => a.and(b));
    return plet(rule(next[0], next[1])).in((r: AnyTerm) => bind(i + 1, [...bound, r]));
  };
  return bind(0, []);
}
