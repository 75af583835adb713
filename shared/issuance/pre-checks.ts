/**
 * Pre-checks of everything the state validator would reject (decisions.md "Certificates", last bullet), so the
 * caller gets an ERROR saying what to do instead of an opaque script failure: batch size, whitelist, countdown,
 * zero fee interval, fee shares below the minimum UTxO value, fee without receivers. (ttl: validity-window.ts.)
 */
import { enterpriseAddressOfKeyHash } from "../csl/address";
import { outputFrom } from "../csl/outputs";
import type { ProtocolParameters } from "../csl/protocol-parameters";
import { feeShare, type FeeTerms } from "../domain/fee-rule";
import { refuse } from "./build-outcome";

export function checkBatchSize(batch: number, batchSize: bigint, what: string): void {
  if (BigInt(batch) > batchSize) {
    refuse("ERROR", `${batch} certificates exceed the batch size of ${what} (${batchSize} per transaction); send at most ${batchSize} certificates per request.`, {
      batch,
      batchSize: batchSize.toString(),
    });
  }
}

export function checkWhitelist(allowed: readonly string[], credential: string, what: string): void {
  if (allowed.length > 0 && !allowed.includes(credential)) {
    refuse("ERROR", `The address is not whitelisted by ${what}; use another bootstrap or ask its operator to add payment credential ${credential}.`, { credential });
  }
}

export function checkCountdown(countdown: bigint, what: string): void {
  if (countdown <= 0n) {
    refuse("ERROR", `${what} has no transactions left (countdown ${countdown}); omit stateId so that a new state is forked, or burn it with type burn_state.`, {
      countdown: countdown.toString(),
    });
  }
}

/** The validators compute `countdown % feeInterval` whenever a fee is set: a zero interval cannot be evaluated. */
export function checkFeeTerms(terms: FeeTerms, what: string): void {
  if (terms.fee < 0n) refuse("ERROR", `${what} has a negative fee.`);
  if (terms.feeInterval <= 0n) refuse("ERROR", `${what} has feeInterval ${terms.feeInterval}; it must be at least 1 — use another bootstrap.`, { feeInterval: terms.feeInterval.toString() });
  if (terms.fee > 0n && terms.feeReceivers.length === 0) refuse("ERROR", `${what} charges a fee but names no fee receivers.`);
}

/** Each fee share is an ADA-only output and must reach the minimum UTxO value. */
export function checkFeeShares(terms: FeeTerms, pp: ProtocolParameters, networkId: number, what: string): void {
  if (terms.fee === 0n || terms.feeReceivers.length === 0) return;
  const share = feeShare(terms);
  try {
    outputFrom({ address: enterpriseAddressOfKeyHash(terms.feeReceivers[0]!, networkId), lovelace: share }, BigInt(pp.minUtxoDepositCoefficient));
  } catch (err) {
    const minimum = (err as { data?: { minimum?: string } }).data?.minimum;
    refuse("ERROR", `The fee share of ${what} (${share} lovelace per receiver) is below the minimum UTxO value${minimum ? ` (${minimum} lovelace)` : ""}; the fee cannot be paid — use another bootstrap.`, {
      share: share.toString(),
      ...(minimum ? { minimum } : {}),
    });
  }
}
