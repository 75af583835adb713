/**
 * Chooses how a `default` certificate build is issued: reuse one of the caller's states, or fork a new state
 * from the cheapest bootstrap datum the caller may use (docs/decisions.md#state-selection).
 * Pure: the caller loads states and bootstraps and passes the current time.
 */
import { costPer100, isCheaper, isFeeDue, type FeeTerms } from "./fee-rule";

export interface BootstrapTerms extends FeeTerms {
  name: string;
  allowedCredentials: readonly string[]; // empty = anyone
  ttl: bigint; // POSIX ms
  transactionLimit: bigint;
  batchSize: bigint;
}

export interface StateTerms extends FeeTerms {
  id: string;
  owner: string;
  countdown: bigint;
  ttl: bigint;
  batchSize: bigint;
  bootstrapName: string;
}

export type IssuancePlan =
  { kind: "update"; state: StateTerms } | { kind: "fork"; bootstrap: BootstrapTerms } | { kind: "none"; reason: string };

export function mayUseBootstrap(bootstrap: BootstrapTerms, credential: string): boolean {
  return bootstrap.allowedCredentials.length === 0 || bootstrap.allowedCredentials.includes(credential);
}

/** A state can carry one more certificate transaction of `batch` certificates at time `now`. */
function isStateUsable(state: StateTerms, now: number, batch: number): boolean {
  return state.countdown > 0n && BigInt(now) < state.ttl && BigInt(batch) <= state.batchSize;
}

/** A bootstrap can fork a state carrying `batch` certificates at time `now`. */
function isBootstrapUsable(bootstrap: BootstrapTerms, credential: string, now: number, batch: number): boolean {
  return (
    mayUseBootstrap(bootstrap, credential) &&
    bootstrap.transactionLimit > 0n &&
    BigInt(now) < bootstrap.ttl &&
    BigInt(batch) <= bootstrap.batchSize
  );
}

/** The usable bootstrap with the strictly lowest cost per 100 transactions; first wins ties. */
function cheapestBootstrap(
  bootstraps: readonly BootstrapTerms[],
  credential: string,
  now: number,
  batch: number,
): BootstrapTerms | undefined {
  let best: BootstrapTerms | undefined;
  for (const b of bootstraps) {
    if (!isBootstrapUsable(b, credential, now, batch)) continue;
    if (!best || isCheaper(costPer100(b), costPer100(best))) best = b;
  }
  return best;
}

export function planIssuance(input: {
  credential: string;
  states: readonly StateTerms[];
  bootstraps: readonly BootstrapTerms[];
  now: number;
  batch: number;
}): IssuancePlan {
  const { credential, now, batch } = input;
  const usable = input.states.filter((s) => s.owner === credential && isStateUsable(s, now, batch));
  const cheapest = cheapestBootstrap(input.bootstraps, credential, now, batch);

  const free = usable.find((s) => !isFeeDue(s, s.countdown));
  if (free) return { kind: "update", state: free };

  // Every usable state owes a fee now: take the one with the lowest fee, unless forking is strictly cheaper.
  const cheapestState = usable.reduce<StateTerms | undefined>((best, s) => (!best || s.fee < best.fee ? s : best), undefined);
  if (cheapestState) {
    if (cheapest && isCheaper(costPer100(cheapest), costPer100(cheapestState))) return { kind: "fork", bootstrap: cheapest };
    return { kind: "update", state: cheapestState };
  }
  if (cheapest) return { kind: "fork", bootstrap: cheapest };
  return { kind: "none", reason: "no bootstrap datum is available to this address (whitelist, ttl or batch size)" };
}
