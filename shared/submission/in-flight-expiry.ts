/**
 * How long a submitted transaction's inputs stay locked at most: until its validity upper bound (as wall-clock
 * time) plus a margin for the block that may still include it, and never longer than the service's cap, whatever
 * bound the caller picked (docs/decisions.md#in-flight-tracking). Records end earlier when the transaction lands
 * or can no longer land (InflightRegistry.reconcile); the cap is the backstop.
 */
export interface ExpiryPolicy {
  /** added to the validity upper bound (default 2 minutes) */
  marginMs: number;
  /** the longest a record lives, with or without an upper bound (default 10 minutes from submission) */
  maxLifetimeMs: number;
}

export const DEFAULT_EXPIRY_POLICY: ExpiryPolicy = { marginMs: 120_000, maxLifetimeMs: 10 * 60_000 };

/** Unix ms after which a never-confirmed submission is released. */
export function inFlightExpiresAt(
  ttlSlot: number | null,
  slotToTime: (slot: number) => number,
  nowMs: number,
  policy: ExpiryPolicy = DEFAULT_EXPIRY_POLICY,
): number {
  const cap = nowMs + policy.maxLifetimeMs;
  if (ttlSlot === null) return cap;
  // never release before now + margin, even for a transaction whose bound is (nearly) reached
  return Math.min(cap, Math.max(slotToTime(ttlSlot) + policy.marginMs, nowMs + policy.marginMs));
}
