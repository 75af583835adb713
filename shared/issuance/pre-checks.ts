/**
 * Pre-checks of everything the state validator would reject (docs/decisions.md#pre-checks), so the
 * caller gets an ERROR saying what to do instead of an opaque script failure: batch size, whitelist, countdown,
 * zero fee interval, fee shares below the minimum UTxO value, fee without receivers, and the terms a new bootstrap
 * must have (transaction limit a multiple of the fee interval, distinct receivers). (ttl: validity-window.ts.)
 */
import { enterpriseAddressOfKeyHash } from "../csl/address";
import { outputFrom } from "../csl/outputs";
import type { ProtocolParameters } from "../csl/protocol-parameters";
import { feeShare, type FeeTerms } from "../domain/fee-rule";
import { refuse } from "./build-outcome";

export function checkBatchSize(batch: number, batchSize: bigint, what: string): void {
  if (BigInt(batch) > batchSize) {
    refuse(
      "ERROR",
      `${batch} certificates exceed the batch size of ${what} (${batchSize} per transaction); send at most ${batchSize} certificates per request.`,
      {
        batch,
        batchSize: batchSize.toString(),
      },
    );
  }
}

export function checkWhitelist(allowed: readonly string[], credential: string, what: string): void {
  if (allowed.length > 0 && !allowed.includes(credential)) {
    refuse(
      "ERROR",
      `The address is not whitelisted by ${what}; use another bootstrap or ask its operator to add payment credential ${credential}.`,
      { credential },
    );
  }
}

export function checkCountdown(countdown: bigint, what: string): void {
  if (countdown <= 0n) {
    refuse(
      "ERROR",
      `${what} has no transactions left (countdown ${countdown}); omit stateId so that a new state is forked, or burn it with type burn_state.`,
      {
        countdown: countdown.toString(),
      },
    );
  }
}

/** The validators compute `countdown % feeInterval` whenever a fee is set: a zero interval cannot be evaluated. */
export function checkFeeTerms(terms: FeeTerms, what: string): void {
  if (terms.fee < 0n) refuse("ERROR", `${what} has a negative fee.`);
  if (terms.feeInterval <= 0n)
    refuse("ERROR", `${what} has feeInterval ${terms.feeInterval}; it must be at least 1 — use another bootstrap.`, {
      feeInterval: terms.feeInterval.toString(),
    });
  if (terms.fee > 0n && terms.feeReceivers.length === 0) refuse("ERROR", `${what} charges a fee but names no fee receivers.`);
}

/**
 * Fee terms the state validator refuses in a new bootstrap (docs/decisions.md#fee-rule): with a fee, a transaction
 * limit that is not a multiple of the fee interval (a fork would not be fee-due, so fork-use-burn cycles would never
 * pay), and fee receivers named twice (one output would pay several shares).
 */
export function checkBootstrapFeeTerms(terms: FeeTerms & { transactionLimit: bigint }, what: string): void {
  const { fee, feeInterval, transactionLimit } = terms;
  if (fee > 0n && feeInterval > 0n && transactionLimit % feeInterval !== 0n) {
    const lower = transactionLimit - (transactionLimit % feeInterval);
    const suggestion = [lower, lower + feeInterval].filter((n) => n > 0n).join(" or ");
    refuse(
      "ERROR",
      `${what} charges a fee every ${feeInterval} transactions, but its transactionLimit ${transactionLimit} is not a multiple of feeInterval: a fork would not pay the fee, so forking, using and burning states would never pay it. Use transactionLimit ${suggestion}.`,
      { transactionLimit: transactionLimit.toString(), feeInterval: feeInterval.toString() },
    );
  }
  const seen = new Set<string>();
  for (const receiver of terms.feeReceivers) {
    if (seen.has(receiver)) {
      refuse(
        "ERROR",
        `${what} names fee receiver ${receiver} (payment credential) more than once; fee receivers must be distinct, since one output would pay several shares.`,
        { credential: receiver },
      );
    }
    seen.add(receiver);
  }
}

/** Each fee share is an ADA-only output and must reach the minimum UTxO value. */
export function checkFeeShares(terms: FeeTerms, pp: ProtocolParameters, networkId: number, what: string): void {
  if (terms.fee === 0n || terms.feeReceivers.length === 0) return;
  const share = feeShare(terms);
  try {
    outputFrom(
      { address: enterpriseAddressOfKeyHash(terms.feeReceivers[0]!, networkId), lovelace: share },
      BigInt(pp.minUtxoDepositCoefficient),
    );
  } catch (err) {
    const minimum = (err as { data?: { minimum?: string } }).data?.minimum;
    refuse(
      "ERROR",
      `The fee share of ${what} (${share} lovelace per receiver) is below the minimum UTxO value${minimum ? ` (${minimum} lovelace)` : ""}; the fee cannot be paid — use another bootstrap.`,
      {
        share: share.toString(),
        ...(minimum ? { minimum } : {}),
      },
    );
  }
}
