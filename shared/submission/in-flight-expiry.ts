/**
 * How long a submitted transaction's inputs stay locked: until its validity upper bound (as wall-clock time) plus
 * a margin for the block that may still include it; a transaction without an upper bound may sit in a mempool
 * indefinitely, so it gets a default window (the reference's pending cache keeps 15 minutes, §3.9).
 */
export interface ExpiryPolicy {
  /** added to the validity upper bound (default 2 minutes) */
  marginMs: number;
  /** for transactions without an upper bound (default 15 minutes from submission) */
  defaultWindowMs: number;
}

export const DEFAULT_EXPIRY_POLICY: ExpiryPolicy = { marginMs: 120_000, defaultWindowMs: 15 * 60_000 };

/** Unix ms after which a never-confirmed submission is released. */
export function inFlightExpiresAt(
  ttlSlot: number | null,
  slotToTime: (slot: number) => number,
  nowMs: number,
  policy: ExpiryPolicy = DEFAULT_EXPIRY_POLICY,
): number {
  if (ttlSlot === null) return nowMs + policy.defaultWindowMs;
  // never release before now + margin, even for a transaction whose bound is (nearly) reached
  return Math.max(slotToTime(ttlSlot) + policy.marginMs, nowMs + policy.marginMs);
}
