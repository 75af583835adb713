/**
 * Evaluate-then-rebuild, the one loop every Plutus build goes through: build a draft (with placeholder ex-units,
 * or with budgets a caller expects to fit), evaluate it, map the results back to purpose keys through the draft
 * itself, rebuild with the real ex-units. Coin selection may pick other inputs on the rebuild (the fee drops),
 * which shifts spend indices and can change script costs slightly, so by default the rebuilt tx is evaluated once
 * more and rebuilt again if any budget grew. Every returned transaction was evaluated exactly as returned (with
 * `verify`), and its declared budgets cover that evaluation.
 */
import { buildTx, plutusPurposeKeys, type BuiltTx, type TxSpec } from "./build-tx";
import { CslError } from "./errors";
import { evaluationByRedeemers, type EvaluationItem, type ExUnitsBudget, type PurposeKey } from "./redeemer-pointers";

/** Injected evaluator: Ogmios `evaluateTransaction` semantics (e.g. ChainClient.evaluate). */
export type EvaluateFn = (txCborHex: string) => Promise<readonly EvaluationItem[]>;

export interface BuildWithEvaluationOptions {
  /** evaluate the rebuilt tx and rebuild again when a budget grew (default true) */
  verify?: boolean;
  /** extra ex-units in percent added to every evaluated budget (default 0) */
  marginPercent?: number;
  /** upper bound on build passes (default 4) */
  maxPasses?: number;
  /**
   * Budgets to build the first draft with (e.g. remembered from an earlier build of the same shape): when the
   * draft's evaluation fits them, it is returned after that single evaluation.
   */
  initialBudgets?: ReadonlyMap<PurposeKey, ExUnitsBudget>;
  /** the first draft, already built by the caller with `initialBudgets` (saves building it again) */
  draft?: BuiltTx;
}

export interface EvaluatedTx extends BuiltTx {
  /** evaluated ex-units per purpose key (of the last evaluated build) */
  evaluation: Map<PurposeKey, ExUnitsBudget>;
  /** number of evaluate() calls made */
  evaluations: number;
}

/**
 * @throws CslError EVALUATION_RESULT_UNMATCHED (a script purpose got no result), EVALUATION_FAILED (no
 * fixed point within maxPasses); errors of `evaluate` propagate unchanged (e.g. the chain's typed errors).
 */
export async function buildWithEvaluation(spec: TxSpec, evaluate: EvaluateFn, opts: BuildWithEvaluationOptions = {}): Promise<EvaluatedTx> {
  const expected = plutusPurposeKeys(spec);
  if (expected.length === 0) return { ...buildTx(spec), evaluation: new Map(), evaluations: 0 };
  const verify = opts.verify ?? true;
  const margin = BigInt(Math.max(0, Math.round((opts.marginPercent ?? 0) * 100)));
  const maxPasses = opts.maxPasses ?? 4;

  let declared = new Map<PurposeKey, ExUnitsBudget>(opts.initialBudgets ?? []);
  let built = opts.draft ?? buildTx(spec, declared);
  let evaluations = 0;
  for (let pass = 1; pass <= maxPasses; pass++) {
    // mapped through the redeemers the builder reported placing in exactly this transaction (no second decode)
    const evaluated = evaluationByRedeemers(built.redeemers, await evaluate(built.cborHex));
    evaluations++;
    for (const key of expected) {
      if (!evaluated.has(key)) {
        throw new CslError("EVALUATION_RESULT_UNMATCHED", `the evaluator returned no budget for ${key}`, { key });
      }
    }
    // Placeholder budgets of a first pass never count as fitting; given ones do.
    const declaredForReal = pass > 1 || declared.size > 0;
    if (declaredForReal && fits(evaluated, declared)) return { ...built, evaluation: evaluated, evaluations };
    const next = new Map<PurposeKey, ExUnitsBudget>();
    for (const [key, b] of evaluated) {
      const prev = declared.get(key);
      const grown = {
        memory: withMargin(b.memory, margin),
        cpu: withMargin(b.cpu, margin),
      };
      // after the first pass never shrink: avoids oscillating between two selections
      next.set(key, pass > 1 && prev ? { memory: max(prev.memory, grown.memory), cpu: max(prev.cpu, grown.cpu) } : grown);
    }
    declared = next;
    built = buildTx(spec, declared);
    if (!verify) return { ...built, evaluation: evaluated, evaluations };
  }
  throw new CslError("EVALUATION_FAILED", "ex-units did not settle within the allowed build passes", { maxPasses });
}

function fits(evaluated: Map<PurposeKey, ExUnitsBudget>, declared: Map<PurposeKey, ExUnitsBudget>): boolean {
  for (const [key, b] of evaluated) {
    const d = declared.get(key);
    if (!d || b.memory > d.memory || b.cpu > d.cpu) return false;
  }
  return true;
}

function withMargin(x: bigint, marginBasisPoints: bigint): bigint {
  return x + (x * marginBasisPoints + 9_999n) / 10_000n;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
