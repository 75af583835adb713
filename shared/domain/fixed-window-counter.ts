/**
 * Amounts counted per key in fixed windows: a key's window opens at its first count and lasts `windowMs`; the next
 * count after it ends opens a new one. In memory; windows that ended are forgotten at most once a window, so memory
 * stays bounded by the keys counted within about two windows. The clock is injected.
 */
interface WindowCount {
  /** what the key's current window holds (0 when it has none open) */
  count: number;
  /** milliseconds until that window ends (a whole window when none is open) */
  resetsInMs: number;
}

export class FixedWindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastPrune: number;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {
    this.lastPrune = now();
  }

  /** The key's current window, without counting. */
  peek(key: string): WindowCount {
    const now = this.now();
    const w = this.open(key, now);
    return w ? { count: w.count, resetsInMs: w.start + this.windowMs - now } : { count: 0, resetsInMs: this.windowMs };
  }

  /** Adds `amount` to the key's current window, opening one when it has none; the window after the count. */
  add(key: string, amount = 1): WindowCount {
    const now = this.now();
    this.prune(now);
    let w = this.open(key, now);
    if (w === undefined) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += amount;
    return { count: w.count, resetsInMs: w.start + this.windowMs - now };
  }

  /** Keys with a window remembered (open, or ended and not yet forgotten). */
  get size(): number {
    return this.windows.size;
  }

  private open(key: string, now: number): { start: number; count: number } | undefined {
    const w = this.windows.get(key);
    return w !== undefined && now - w.start < this.windowMs ? w : undefined;
  }

  private prune(now: number): void {
    if (now - this.lastPrune < this.windowMs) return;
    this.lastPrune = now;
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}
