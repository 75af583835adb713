/**
 * A bounded memo of a pure function of a string (an address, a datum's CBOR): the answer for a key never changes,
 * so a remembered one is never stale; only successful answers are kept, and past `limit` keys the oldest remembered
 * is forgotten first. Answers are frozen, since every caller shares them.
 */
export class BoundedMemo<T> {
  private readonly kept = new Map<string, T>();

  constructor(
    private readonly limit: number,
    private readonly compute: (key: string) => T,
  ) {}

  get(key: string): T {
    if (this.kept.has(key)) return this.kept.get(key)!;
    const value = deepFreeze(this.compute(key));
    this.kept.set(key, value);
    if (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value!);
    return value;
  }

  /** How many answers are remembered now (at most `limit`). */
  get size(): number {
    return this.kept.size;
  }
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
