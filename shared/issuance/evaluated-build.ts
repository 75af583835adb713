/**
 * The last step of every build: CSL build with ex-units from the chain's `evaluateTransaction` (pending inputs
 * passed as `additionalUtxo`), error mapping to BuildStatus codes, and the atomic claim of the inputs the
 * transaction spends, so no other build (on any replica) picks them until it is submitted or the claim lapses.
 */
import { randomUUID } from "node:crypto";
import type { ChainError } from "../chain";
import { buildWithEvaluation, type EvaluateFn } from "../csl/build-with-evaluation";
import { buildTx, plutusPurposeKeys, type BuiltTx, type TxSpec } from "../csl/build-tx";
import { decodeTx } from "../csl/decode";
import { evaluationByKey, type ExUnitsBudget, type PurposeKey } from "../csl/redeemer-pointers";
import type { OgmiosUtxo } from "../csl/utxo";
import { refuse } from "./build-outcome";
import type { IssuanceEnv } from "./issuance-env";

export type BuildSpec = Omit<TxSpec, "protocolParameters">;

export const DEFAULT_CLAIM_TTL_MS = 30_000;
/** Head-room on evaluated budgets when rebuilding (the rebuilt tx is evaluated again). */
export const BUDGET_MARGIN_PERCENT = 3;
/** Head-room of remembered budgets: covers metadata and value differences between builds of one shape. */
export const HINT_MARGIN_PERCENT = 8n;

interface ChainErrorLike {
  name?: string;
  type?: string;
  code?: number;
  message?: string;
  data?: unknown;
}

function overlappingRefs(err: unknown): Set<string> | undefined {
  const e = err as ChainErrorLike;
  if (e?.code !== 3002) return undefined;
  const refs = (e.data as { overlappingOutputReferences?: { transaction: { id: string }; index: number }[] } | undefined)?.overlappingOutputReferences ?? [];
  return new Set(refs.map((r) => `${r.transaction.id}#${r.index}`));
}

const isUnknownInputError = (err: unknown): boolean => {
  const e = err as ChainErrorLike;
  return e?.code === 3117 || /unknown transaction input|3117/i.test(`${e?.message ?? ""} ${JSON.stringify(e?.data ?? null)}`);
};

/**
 * Evaluation against the ledger plus pending outputs (`additionalUtxo`). Outputs the evaluator already knows are
 * dropped and the call retried (3002). An evaluator that sees its own mempool (our devnet) knows every pending
 * output; once seen, pending outputs are left out first and only added back when an input is unknown — so a
 * steady flow costs one evaluation per pass on either kind of chain.
 */
function evaluatorFor(env: IssuanceEnv, pending: readonly OgmiosUtxo[]): EvaluateFn {
  const state = (env.evaluator ??= { seesMempool: false });
  return async (hex: string) => {
    let additional = state.seesMempool ? [] : [...pending];
    for (let attempt = 0; ; attempt++) {
      try {
        return await env.chain.evaluate(hex, additional.length > 0 ? additional : undefined);
      } catch (err) {
        if (attempt > 2) throw err;
        const overlap = overlappingRefs(err);
        if (overlap) {
          if (overlap.size === 0 || additional.every((u) => overlap.has(`${u.transaction.id}#${u.index}`))) state.seesMempool = true;
          additional = overlap.size === 0 ? [] : additional.filter((u) => !overlap.has(`${u.transaction.id}#${u.index}`));
          continue;
        }
        if (additional.length === 0 && pending.length > 0 && isUnknownInputError(err)) {
          state.seesMempool = false;
          additional = [...pending];
          continue;
        }
        throw err;
      }
    }
  };
}

function mapBuildError(err: unknown): never {
  const e = err as ChainErrorLike;
  if (e?.name === "BuildRefusal") throw err;
  if (e?.name === "CslError") {
    if (e.type === "INSUFFICIENT_FUNDS") refuse("INSUFFICIENT_FUNDS", `Not enough ADA at the address to build this transaction: ${e.message}. Fund the address and retry.`);
    if (e.type === "OUTPUT_BELOW_MIN_UTXO") refuse("ERROR", `An output would be below the minimum UTxO value: ${e.message}`);
    refuse("UNKNOWN_ERROR", `The transaction could not be built: ${e.message}`);
  }
  if (e?.name === "ChainError") {
    const ce = err as ChainError;
    // An input or reference input vanished between reading the chain and evaluating: another transaction (maybe
    // another replica's) spent it. Not the caller's fault and not permanent.
    if (isUnknownInputError(ce)) {
      refuse("PENDING_TRANSACTION", "An output this transaction needs was just spent by another transaction; retry in a few seconds.");
    }
    if (ce.type === "SCRIPT_EXECUTION_FAILED") refuse("ERROR", `The validators would reject this transaction: ${ce.message}`, { data: ce.data as never });
    if (ce.type === "CHAIN_UNAVAILABLE" || ce.type === "CHAIN_TIMEOUT") refuse("UNKNOWN_ERROR", `The chain is not reachable right now (${ce.message}); retry shortly.`);
    refuse("UNKNOWN_ERROR", `The chain refused to evaluate the transaction: ${ce.message}`);
  }
  refuse("UNKNOWN_ERROR", `The transaction could not be built: ${e?.message ?? String(err)}`);
}

const inputKeys = (hex: string): string[] => decodeTx(hex).inputs.map((r) => `${r.txId}#${r.index}`);

function grown(b: ExUnitsBudget, percent: bigint): ExUnitsBudget {
  return { memory: b.memory + (b.memory * percent + 99n) / 100n, cpu: b.cpu + (b.cpu * percent + 99n) / 100n };
}

function fits(evaluated: Map<PurposeKey, ExUnitsBudget>, declared: ReadonlyMap<PurposeKey, ExUnitsBudget>): boolean {
  for (const [k, b] of evaluated) {
    const d = declared.get(k);
    if (!d || b.memory > d.memory || b.cpu > d.cpu) return false;
  }
  return true;
}

/** Budget roles that stay the same across builds of one shape: spend purposes by position, others by key. */
function roleOf(spec: TxSpec, key: PurposeKey): string {
  if (!key.startsWith("spend:")) return key;
  const i = (spec.scriptInputs ?? []).findIndex((s) => key === `spend:${s.utxo.transaction.id.toLowerCase()}#${s.utxo.index}`);
  return `spend#${i}`;
}

/**
 * Every returned transaction was evaluated exactly as returned, with declared budgets covering the evaluation.
 * With budget hints of an earlier build of the same shape that is one evaluation: build with the hints, evaluate,
 * done when they fit. Otherwise (or when they do not fit) rebuild with the evaluated budgets plus a margin and
 * evaluate once more; the general evaluate-until-stable loop is the last resort.
 */
async function buildEvaluated(env: IssuanceEnv, spec: TxSpec, draft: BuiltTx, declared: Map<PurposeKey, ExUnitsBudget>, evaluate: EvaluateFn, hintKey: string | undefined): Promise<BuiltTx> {
  const expected = plutusPurposeKeys(spec);
  if (expected.length === 0) return draft;
  const remember = (evaluated: Map<PurposeKey, ExUnitsBudget>) => {
    if (hintKey !== undefined) env.budgetHints?.set(hintKey, new Map([...evaluated].map(([k, b]) => [roleOf(spec, k), grown(b, HINT_MARGIN_PERCENT)])));
  };
  let tx = draft;
  let budgets = declared;
  for (let pass = 0; pass < 2; pass++) {
    const evaluated = evaluationByKey(tx.cborHex, await evaluate(tx.cborHex));
    if (budgets.size > 0 && fits(evaluated, budgets)) {
      remember(evaluated);
      return tx;
    }
    if (!expected.every((k) => evaluated.has(k))) break;
    budgets = new Map([...evaluated].map(([k, b]) => [k, grown(b, BigInt(BUDGET_MARGIN_PERCENT))]));
    tx = buildTx(spec, budgets);
  }
  const loop = await buildWithEvaluation(spec, evaluate, { marginPercent: BUDGET_MARGIN_PERCENT });
  remember(loop.evaluation);
  return loop;
}

/** Declared budgets from hints, when every purpose of `spec` has one. */
function hintedBudgets(env: IssuanceEnv, spec: TxSpec, hintKey: string | undefined): Map<PurposeKey, ExUnitsBudget> {
  const hints = hintKey === undefined ? undefined : env.budgetHints?.get(hintKey);
  const out = new Map<PurposeKey, ExUnitsBudget>();
  if (!hints) return out;
  for (const k of plutusPurposeKeys(spec)) {
    const h = hints.get(roleOf(spec, k));
    if (!h) return new Map();
    out.set(k, h);
  }
  return out;
}

/**
 * Builds, claims the inputs (before the costly evaluation, so a racing build gives up early), evaluates and
 * rebuilds, and claims any input the rebuild added. @throws BuildRefusal
 */
export async function buildEvaluatedAndClaim(env: IssuanceEnv, spec: BuildSpec, hintKey?: string): Promise<{ cborHex: string; txId: string; fee: bigint }> {
  const protocolParameters = await env.protocolParameters();
  const full = { ...spec, protocolParameters } as TxSpec;
  const candidates = [...spec.utxos, ...(spec.keyInputs ?? []), ...(spec.scriptInputs ?? []).map((s) => s.utxo), ...(spec.referenceInputs ?? [])];
  const pending = await env.registry.pendingOutputs(candidates.map((u) => ({ txId: u.transaction.id, index: u.index })));
  const holder = `build:${randomUUID()}`;
  const ttl = env.claimTtlMs ?? DEFAULT_CLAIM_TTL_MS;
  const claim = async (keys: readonly string[]) => {
    if (keys.length === 0) return;
    const refs = keys.map((k) => ({ txId: k.slice(0, 64), index: Number(k.slice(65)) }));
    const res = await env.registry.claimForBuild(refs, holder, ttl);
    if (!res.ok) {
      await env.registry.releaseClaims(holder);
      refuse("PENDING_TRANSACTION", "Another transaction being built or submitted uses the same UTxOs; retry in a few seconds.", { conflicts: res.conflicts });
    }
  };
  const declared = hintedBudgets(env, full, hintKey);
  let draft: BuiltTx;
  try {
    draft = buildTx(full, declared);
  } catch (err) {
    mapBuildError(err);
  }
  const claimed = inputKeys(draft.cborHex);
  await claim(claimed);
  let built: BuiltTx;
  try {
    built = await buildEvaluated(env, full, draft, declared, evaluatorFor(env, pending), hintKey);
  } catch (err) {
    await env.registry.releaseClaims(holder);
    mapBuildError(err);
  }
  await claim(inputKeys(built.cborHex).filter((k) => !claimed.includes(k)));
  return { cborHex: built.cborHex, txId: built.txId, fee: built.fee };
}
