/**
 * Out-of-scope variables in a compiled program: a de Bruijn index that points past every enclosing lambda.
 * plu-ts 0.9.0 can emit such programs without an error; Aiken's evaluator (our evaluateTransaction) only fails
 * when the bad variable is reached, while the ledger's evaluator rejects the whole script up front.
 */
import { Application, Case, Constr, Delay, Force, Lambda, parseUPLC, UPLCVar } from "@harmoniclabs/plu-ts";

/** Paths (λ = lambda, f/a = function/argument, …) of the out-of-scope variables of a flat-encoded program. */
export function outOfScopeVariables(flat: Uint8Array): string[] {
  const found: string[] = [];
  const stack: { t: unknown; depth: number; path: string }[] = [{ t: parseUPLC(flat, "flat").body, depth: 0, path: "" }];
  while (stack.length > 0) {
    const { t, depth, path } = stack.pop()!;
    if (t instanceof UPLCVar) {
      if (Number(t.deBruijn) >= depth) found.push(`${path} var ${t.deBruijn} at depth ${depth}`);
    } else if (t instanceof Lambda) stack.push({ t: t.body, depth: depth + 1, path: path + "λ" });
    else if (t instanceof Application) stack.push({ t: t.funcTerm, depth, path: path + "f" }, { t: t.argTerm, depth, path: path + "a" });
    else if (t instanceof Delay) stack.push({ t: t.delayedTerm, depth, path: path + "d" });
    else if (t instanceof Force) stack.push({ t: t.termToForce, depth, path: path + "!" });
    else if (t instanceof Constr) t.terms.forEach((x, i) => stack.push({ t: x, depth, path: `${path}c${i}` }));
    else if (t instanceof Case) {
      stack.push({ t: t.constrTerm, depth, path: path + "C" });
      t.continuations.forEach((x, i) => stack.push({ t: x, depth, path: `${path}k${i}` }));
    }
  }
  return found;
}

/** The flat program inside a single CBOR-wrapped script (hex). */
export function flatOfCompiledCode(compiledCode: string): Uint8Array {
  const b = Buffer.from(compiledCode, "hex");
  const info = b[0]! & 0x1f;
  const header = info < 24 ? 1 : info === 24 ? 2 : info === 25 ? 3 : 5;
  return new Uint8Array(b.subarray(header));
}
