/**
 * The validity interval of user transactions (docs/protocol.md#validity-and-ttl: −10/+600 slots around the current slot),
 * cut so that it ends strictly before a state's or bootstrap's ttl (the validators require the whole range
 * before ttl). An already expired ttl is an ERROR telling the caller to use another state or bootstrap.
 */
import { refuse } from "./build-outcome";
import type { SlotClock } from "./slot-clock";

export interface ValidityWindow {
  validityStartSlot: number;
  ttlSlot: number;
  /** POSIX ms at which the transaction can no longer be included */
  expiresAtMs: number;
}

const VALIDITY_BEFORE_SLOTS = 10;
const VALIDITY_AFTER_SLOTS = 600;

/** @throws BuildRefusal ERROR when `ttlMs` leaves no slot to be valid in */
export function validityWindow(clock: SlotClock, nowMs: number, ttlMs?: { ms: bigint; what: string }): ValidityWindow {
  const slot = clock.slotAt(nowMs);
  let ttlSlot = slot + VALIDITY_AFTER_SLOTS;
  if (ttlMs !== undefined) {
    // the last slot whose start is strictly before ttl, minus one slot of margin for the open upper bound
    const lastBefore = clock.slotAt(Number(ttlMs.ms) - 1) - 1;
    if (lastBefore <= slot) {
      refuse(
        "ERROR",
        `${ttlMs.what} expired at ${new Date(Number(ttlMs.ms)).toISOString()} (its ttl); it cannot carry new transactions — use another one`,
        {
          ttl: ttlMs.ms.toString(),
        },
      );
    }
    ttlSlot = Math.min(ttlSlot, lastBefore);
  }
  return { validityStartSlot: Math.max(0, slot - VALIDITY_BEFORE_SLOTS), ttlSlot, expiresAtMs: clock.timeOfSlot(ttlSlot) };
}
