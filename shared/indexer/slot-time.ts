/** Slot → Unix ms from Ogmios era summaries (the last era whose start is at or before the slot). */
export interface EraSummaryLike {
  start: { time: { seconds: number | bigint }; slot: number | bigint };
  parameters: { slotLength: { milliseconds: number | bigint } };
}

export function slotToTimeFrom(summaries: readonly EraSummaryLike[], systemStartMs: number): (slot: number) => number {
  const eras = summaries.map((e) => ({
    startSlot: Number(e.start.slot),
    startMs: systemStartMs + Number(e.start.time.seconds) * 1000,
    slotMs: Number(e.parameters.slotLength.milliseconds),
  }));
  return (slot: number) => {
    const era = [...eras].reverse().find((e) => e.startSlot <= slot) ?? eras[0];
    if (!era) return systemStartMs + slot * 1000;
    return era.startMs + (slot - era.startSlot) * era.slotMs;
  };
}
