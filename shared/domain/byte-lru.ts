/** A least-recently-used map of byte strings under a byte budget (immutable content: log tiles). */
export class ByteLru {
  private readonly entries = new Map<string, Uint8Array>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string): Uint8Array | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Uint8Array): void {
    if (value.length > this.budgetBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.length;
    }
    this.entries.set(key, value);
    this.bytes += value.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }

  get size(): number {
    return this.bytes;
  }
}
