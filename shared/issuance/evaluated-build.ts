/**
 * The last step of every build: CSL build with ex-units from the chain's `evaluateTransaction` (pending inputs
 * passed as `additionalUtxo`), error mapping to BuildStatus codes, and the atomic claim of the inputs the
 * transaction spends, so no other build (on any replica) picks them until it is submitted or the claim lapses.
 */
import { randomUUID } from "node:crypto";
import type { ChainError } from "../chain";
import { buildWithEvaluation, type EvaluateFn } from "../csl/build-with-evaluation";
import { buildTx, plutusPurposeKeys, type BuiltTx, type TxSpec } from "../csl/build-tx";
import { spendKey, type ExUnitsBudget, type PurposeKey } from "../csl/redeemer-pointers";
import { outRefOf, utxoKey, type OgmiosUtxo } from "../csl/utxo";
import { outRefKey, type OutRef } from "../domain/out-ref";
import { refuse } from "./build-outcome";
import type { IssuanceEnv } from "./issuance-env";

export type BuildSpec = Omit<TxSpec, "protocolParameters">;

const DEFAULT_CLAIM_TTL_MS = 30_000;
/** Head-room on evaluated budgets when rebuilding (the rebuilt tx is evaluated again). */
const BUDGET_MARGIN_PERCENT = 3;
/** Head-room of remembered budgets: covers metadata and value differences between builds of one shape. */
const HINT_MARGIN_PERCENT = 8n;

interface ErrorLike {
  name?: string;
  type?: string;
  message?: string;
  data?: unknown;
}

/** The outputs an evaluation said it already knows (ChainError OVERLAPPING_ADDITIONAL_UTXO), else undefined. */
function overlappingRefs(err: unknown): Set<string> | undefined {
  const e = err as ErrorLike;
  if (e?.type !== "OVERLAPPING_ADDITIONAL_UTXO") return undefined;
  const refs =
    (e.data as { overlappingOutputReferences?: { transaction: { id: string }; index: number }[] } | undefined)
      ?.overlappingOutputReferences ?? [];
  return new Set(refs.map(utxoKey));
}

const isUnknownInputError = (err: unknown): boolean => (err as ErrorLike)?.type === "UNKNOWN_OUTPUT_REFERENCES";

/**
 * Evaluation against the ledger plus pending outputs (`additionalUtxo`). Outputs the evaluator already knows are
 * dropped and the call retried (3002). An evaluator that sees its own mempool (our devnet) knows every pending
 * output; once seen, pending outputs are left out first and only added back when an input is unknown — so a
 * steady flow costs one evaluation per pass on either kind of chain. The pending outputs are read from the
 * in-flight registry when first needed (for such an evaluator, only when an input turns out unknown).
 */
function evaluatorFor(env: IssuanceEnv, pendingOf: () => Promise<readonly OgmiosUtxo[]>): EvaluateFn {
  const state = (env.evaluator ??= { seesMempool: false });
  let read: Promise<readonly OgmiosUtxo[]> | undefined;
  const pending = () => (read ??= pendingOf());
  return async (hex: string) => {
    let additional = state.seesMempool ? [] : [...(await pending())];
    for (let attempt = 0; ; attempt++) {
      try {
        return await env.chain.evaluate(hex, additional.length > 0 ? additional : undefined);
      } catch (err) {
        if (attempt > 2) throw err;
        const overlap = overlappingRefs(err);
        if (overlap) {
          if (overlap.size === 0 || additional.every((u) => overlap.has(utxoKey(u)))) state.seesMempool = true;
          additional = overlap.size === 0 ? [] : additional.filter((u) => !overlap.has(utxoKey(u)));
          continue;
        }
        if (additional.length === 0 && isUnknownInputError(err)) {
          const all = await pending();
          if (all.length > 0) {
            state.seesMempool = false;
            additional = [...all];
            continue;
          }
        }
        throw err;
      }
    }
  };
}

function mapBuildError(err: unknown): never {
  const e = err as ErrorLike;
  if (e?.name === "BuildRefusal") throw err;
  if (e?.name === "CslError") {
    if (e.type === "INSUFFICIENT_FUNDS")
      refuse("INSUFFICIENT_FUNDS", `Not enough ADA at the address to build this transaction: ${e.message}. Fund the address and retry.`);
    if (e.type === "OUTPUT_BELOW_MIN_UTXO") refuse("ERROR", `An output would be below the minimum UTxO value: ${e.message}`);
    if (e.type === "TX_TOO_LARGE")
      refuse(
        "ERROR",
        `The transaction is too large: ${e.message}. Send less metadata, or fewer certificates per transaction.`,
        e.data as never,
      );
    // The chain evaluated without one of the spends: its input was consumed meanwhile by a concurrent transaction.
    if (e.type === "EVALUATION_RESULT_UNMATCHED")
      refuse("PENDING_TRANSACTION", "An output this transaction spends was just taken by another transaction; retry in a few seconds.");
    refuse("UNKNOWN_ERROR", `The transaction could not be built: ${e.message}`);
  }
  if (e?.name === "ChainError") {
    const ce = err as ChainError;
    // An input or reference input vanished between reading the chain and evaluating: another transaction (maybe
    // another replica's) spent it. Not the caller's fault and not permanent.
    if (isUnknownInputError(ce)) {
      refuse("PENDING_TRANSACTION", "An output this transaction needs was just spent by another transaction; retry in a few seconds.");
    }
    if (ce.type === "SCRIPT_EXECUTION_FAILED")
      refuse("ERROR", `The validators would reject this transaction: ${ce.message}`, { data: ce.data as never });
    if (ce.type === "CHAIN_UNAVAILABLE" || ce.type === "CHAIN_TIMEOUT")
      refuse("UNKNOWN_ERROR", `The chain is not reachable right now (${ce.message}); retry shortly.`);
    refuse("UNKNOWN_ERROR", `The chain refused to evaluate the transaction: ${ce.message}`);
  }
  refuse("UNKNOWN_ERROR", `The transaction could not be built: ${e?.message ?? String(err)}`);
}

function grown(b: ExUnitsBudget, percent: bigint): ExUnitsBudget {
  return { memory: b.memory + (b.memory * percent + 99n) / 100n, cpu: b.cpu + (b.cpu * percent + 99n) / 100n };
}

/** Budget roles that stay the same across builds of one shape: spend purposes by position, others by key. */
function roleOf(spec: TxSpec, key: PurposeKey): string {
  if (!key.startsWith("spend:")) return key;
  const i = (spec.scriptInputs ?? []).findIndex((s) => key === spendKey(s.utxo.transaction.id, Number(s.utxo.index)));
  return `spend#${i}`;
}

/**
 * The evaluate-then-rebuild loop (shared/csl), started from the budget hints of an earlier build of the same shape
 * when there are some — then a steady flow costs one evaluation per build — and remembering the evaluated budgets
 * (plus a margin) as the hints of the next build.
 */
async function buildEvaluated(
  env: IssuanceEnv,
  spec: TxSpec,
  draft: BuiltTx,
  declared: Map<PurposeKey, ExUnitsBudget>,
  evaluate: EvaluateFn,
  hintKey: string | undefined,
): Promise<BuiltTx> {
  const built = await buildWithEvaluation(spec, evaluate, { marginPercent: BUDGET_MARGIN_PERCENT, initialBudgets: declared, draft });
  if (hintKey !== undefined && built.evaluation.size > 0) {
    env.budgetHints?.set(hintKey, new Map([...built.evaluation].map(([k, b]) => [roleOf(spec, k), grown(b, HINT_MARGIN_PERCENT)])));
  }
  return built;
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

function sameRefs(a: readonly OutRef[], b: readonly OutRef[]): boolean {
  const keys = new Set(a.map(outRefKey));
  return a.length === b.length && keys.size === a.length && b.every((r) => keys.has(outRefKey(r)));
}

/**
 * The first step of `buildEvaluatedAndClaim` alone — coin selection on the draft, with the budget hints of the
 * shape or else the per-transaction maximum — without evaluation or hand-out: refuses a build the wallet cannot pay
 * before a caller does costly work its real spec needs (connected goods: key derivations).
 * @throws BuildRefusal
 */
export async function draftBuild(env: IssuanceEnv, spec: BuildSpec, hintKey?: string): Promise<void> {
  const full = { ...spec, protocolParameters: await env.protocolParameters() } as TxSpec;
  try {
    buildTx(full, hintedBudgets(env, full, hintKey));
  } catch (err) {
    mapBuildError(err);
  }
}

/**
 * Builds, hands the inputs out to this build (before the costly evaluation, so a concurrent build of the same
 * wallet prefers others), evaluates and rebuilds. @throws BuildRefusal
 */
export async function buildEvaluatedAndClaim(
  env: IssuanceEnv,
  spec: BuildSpec,
  hintKey?: string,
): Promise<{ cborHex: string; txId: string; fee: bigint }> {
  const protocolParameters = await env.protocolParameters();
  const full = { ...spec, protocolParameters } as TxSpec;
  const candidates = [
    ...spec.utxos,
    ...(spec.keyInputs ?? []),
    ...(spec.scriptInputs ?? []).map((s) => s.utxo),
    ...(spec.referenceInputs ?? []),
  ];
  // Coin selection prefers UTxOs no other build has just handed out, so concurrent builds of one wallet use
  // different inputs; when those are not enough it takes the others too (a hand-out never locks a wallet).
  const handedOut = await env.registry.handedOutAmong(spec.utxos.map(outRefOf));
  const pendingOf = () => env.registry.pendingOutputs(candidates.map(outRefOf));
  const holder = `build:${randomUUID()}`;
  const ttl = env.claimTtlMs ?? DEFAULT_CLAIM_TTL_MS;
  const declared = hintedBudgets(env, full, hintKey);
  let chosen: TxSpec = { ...full, utxos: full.utxos.filter((u) => !handedOut.has(utxoKey(u))) };
  let draft: BuiltTx;
  try {
    try {
      draft = buildTx(chosen, declared);
    } catch (err) {
      if (handedOut.size === 0 || (err as { type?: unknown }).type !== "INSUFFICIENT_FUNDS") throw err;
      chosen = full;
      draft = buildTx(chosen, declared);
    }
  } catch (err) {
    mapBuildError(err);
  }
  // An input a concurrent build took may have been submitted meanwhile (a build never locks): build again later,
  // on the pending output of that transaction.
  const spentMeanwhile = (found: ReadonlySet<string>) => {
    if (found.size > 0)
      refuse("PENDING_TRANSACTION", "An output this transaction needs was just spent by a submitted transaction; retry in a few seconds.");
  };
  let built: BuiltTx;
  try {
    // The check and the hand-out go together; a refused build takes its hand-out back below.
    const [inFlight] = await Promise.all([env.registry.inFlightAmong(draft.inputs), env.registry.handOut(draft.inputs, holder, ttl)]);
    spentMeanwhile(inFlight);
    built = await buildEvaluated(env, chosen, draft, declared, evaluatorFor(env, pendingOf), hintKey);
    // A rebuild may spend other inputs: hand those out too, and inputs the draft used but the rebuild dropped
    // are free again for the next build of the wallet. (When the draft's budgets fit, it is the transaction.)
    if (!sameRefs(built.inputs, draft.inputs)) {
      await env.registry.handOut(built.inputs, holder, ttl);
      await env.registry.takeBack(holder, built.inputs);
    }
  } catch (err) {
    await env.registry.takeBack(holder);
    spentMeanwhile(await env.registry.inFlightAmong(draft.inputs));
    mapBuildError(err);
  }
  return { cborHex: built.cborHex, txId: built.txId, fee: built.fee };
}
