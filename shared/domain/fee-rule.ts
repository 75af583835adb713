/**
 * The service-fee rule (docs/decisions.md#fee-rule).
 *
 * On chain a fee is due on the transaction that creates `next` unless `fee == 0` or `feeInterval == 0` or
 * `(next.countdown + 1) % feeInterval != 0`. `next.countdown + 1` is the countdown of the datum being spent
 * (for a fork: the bootstrap's transactionLimit), so "due when the spent countdown is a multiple of feeInterval".
 * When due, every receiver gets exactly `fee / receivers` lovelace (integer division), ADA only.
 */
export interface FeeTerms {
  fee: bigint;
  feeInterval: bigint;
  feeReceivers: readonly string[]; // payment key hashes (56 hex)
}

/** True when the transaction that turns `spentCountdown` into `spentCountdown - 1` must pay the fee. */
export function isFeeDue(terms: FeeTerms, spentCountdown: bigint): boolean {
  if (terms.fee === 0n || terms.feeInterval === 0n) return false;
  return spentCountdown % terms.feeInterval === 0n;
}

/** The exact lovelace each receiver must get when a fee is due. */
export function feeShare(terms: FeeTerms): bigint {
  if (terms.feeReceivers.length === 0) return 0n;
  return terms.fee / BigInt(terms.feeReceivers.length);
}

/** Fee outputs of a transaction: one per receiver, or none when no fee is due. */
export function feeOutputs(terms: FeeTerms, spentCountdown: bigint): { keyHash: string; lovelace: bigint }[] {
  if (!isFeeDue(terms, spentCountdown)) return [];
  const share = feeShare(terms);
  return terms.feeReceivers.map((keyHash) => ({ keyHash, lovelace: share }));
}

/**
 * Lovelace paid per 100 certificate transactions: `100 / feeInterval * fee` (the reference's comparison metric).
 * Compared as a fraction to stay exact; a zero interval never charges (and a zero fee is free).
 */
export function costPer100(terms: Pick<FeeTerms, "fee" | "feeInterval">): { num: bigint; den: bigint } {
  if (terms.fee === 0n) return { num: 0n, den: 1n };
  if (terms.feeInterval === 0n) return { num: 0n, den: 1n };
  return { num: 100n * terms.fee, den: terms.feeInterval };
}

/** a < b for two costs. */
export function isCheaper(a: { num: bigint; den: bigint }, b: { num: bigint; den: bigint }): boolean {
  return a.num * b.den < b.num * a.den;
}
