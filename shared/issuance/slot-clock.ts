/**
 * Slot ↔ POSIX ms from the chain's era summaries and system start, so validity intervals follow the injected
 * clock (not the last block) and ttl checks compare like with like.
 */
import type { ChainClient } from "../chain";

export interface SlotClock {
  slotAt(ms: number): number;
  timeOfSlot(slot: number): number;
}

interface Era {
  startSlot: number;
  startMs: number;
  slotMs: number;
}

function slotClockFrom(eras: readonly Era[]): SlotClock {
  const sorted = [...eras].sort((a, b) => a.startSlot - b.startSlot);
  const eraOfSlot = (slot: number) => [...sorted].reverse().find((e) => e.startSlot <= slot) ?? sorted[0]!;
  const eraOfTime = (ms: number) => [...sorted].reverse().find((e) => e.startMs <= ms) ?? sorted[0]!;
  return {
    slotAt(ms) {
      const e = eraOfTime(ms);
      return e.startSlot + Math.floor((ms - e.startMs) / e.slotMs);
    },
    timeOfSlot(slot) {
      const e = eraOfSlot(slot);
      return e.startMs + (slot - e.startSlot) * e.slotMs;
    },
  };
}

export async function loadSlotClock(chain: ChainClient): Promise<SlotClock> {
  const [summaries, start] = await Promise.all([chain.eraSummaries(), chain.networkStartTime()]);
  const systemStartMs = start.getTime();
  const eras = summaries.map((e) => ({
    startSlot: Number(e.start.slot),
    startMs: systemStartMs + Number(e.start.time.seconds) * 1000,
    slotMs: Number(e.parameters.slotLength.milliseconds),
  }));
  if (eras.length === 0) eras.push({ startSlot: 0, startMs: systemStartMs, slotMs: 1000 });
  return slotClockFrom(eras);
}
