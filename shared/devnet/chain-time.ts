// Slots and epochs of the devnet: slot length 1 s from the system start, one Conway era from slot 0.
export const SLOT_LENGTH_MS = 1000;
export const EPOCH_LENGTH_SLOTS = 432_000;
/** Slots from the tip within which no hard fork can happen (3k/f on mainnet); reported in era summaries. */
const SAFE_ZONE_SLOTS = 129_600;

/** The slot the clock is in (negative before the system start). */
export function slotAt(systemStartMs: number, nowMs: number): number {
  return Math.floor((nowMs - systemStartMs) / SLOT_LENGTH_MS);
}

export function epochOf(slot: number): number {
  return Math.floor(Math.max(0, slot) / EPOCH_LENGTH_SLOTS);
}

/** Ogmios `eraSummaries`: a single open-ended Conway era starting at the system start. */
export function eraSummaries(): unknown[] {
  return [
    {
      start: { time: { seconds: 0 }, slot: 0, epoch: 0 },
      parameters: { epochLength: EPOCH_LENGTH_SLOTS, slotLength: { milliseconds: SLOT_LENGTH_MS }, safeZone: SAFE_ZONE_SLOTS },
    },
  ];
}
