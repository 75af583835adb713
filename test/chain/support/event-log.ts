/** Collects events and lets a test wait until a condition holds (no sleeps: woken on every push). */
export class EventLog<T> {
  readonly items: T[] = [];
  private waiters: Array<{ check(): boolean; resolve(): void }> = [];

  push(item: T): void {
    this.items.push(item);
    this.waiters = this.waiters.filter((w) => {
      if (!w.check()) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `predicate(items)` holds; rejects after `timeoutMs` with what was seen. */
  waitFor(predicate: (items: readonly T[]) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (predicate(this.items)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `timed out waiting for ${what}; saw ${JSON.stringify(this.items, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}`,
          ),
        );
      }, timeoutMs);
      const waiter = {
        check: () => predicate(this.items),
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }
}
