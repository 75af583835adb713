/**
 * The per-client budget of claiming-password key derivations (docs/connected-goods.md#limits): a token bucket per
 * client key (the gateway's: an IPv4 address or an IPv6 /64), `burst` tokens when full, refilled at `perMinute`.
 * A derivation costs one token, whichever key it derives. A mint takes every token it needs before the first
 * derivation (so a mint is refused whole, not half-way) and gives back what it did not use; claims and reads pay
 * per derivation. In memory, per service replica, as the gateway's rate limits are.
 */
import type { KdfCaller } from "./kdf";
import { ConnectedGoodsError } from "./errors";

interface KdfBudgetOptions {
  burst: number;
  /** 0: no budget (every take succeeds) */
  perMinute: number;
  now: () => number;
}

/** Buckets are forgotten once full again; past this many clients, full ones are swept at once. */
const SWEEP_ABOVE = 10_000;

export class KdfBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep: number;

  constructor(readonly options: KdfBudgetOptions) {
    this.lastSweep = options.now();
  }

  get enabled(): boolean {
    return this.options.perMinute > 0;
  }

  /** Tokens `client` has now. */
  available(client: string): number {
    return this.level(client, this.options.now());
  }

  /**
   * Takes `n` tokens from `client`'s bucket, or none.
   * @throws ConnectedGoodsError KDF_BUDGET_EXCEEDED (429) with `retryAfterSeconds`
   */
  take(client: string, n: number): void {
    if (!this.enabled || n <= 0) return;
    const now = this.options.now();
    this.sweep(now);
    const level = this.level(client, now);
    if (level < n) {
      const { burst, perMinute } = this.options;
      const retryAfterSeconds = n > burst ? 60 : Math.max(1, Math.ceil(((n - level) * 60) / perMinute));
      throw new ConnectedGoodsError(
        "KDF_BUDGET_EXCEEDED",
        `This client has spent its budget of password key derivations (${burst} at once, ${perMinute} more per minute): the request needs ${n}, ${Math.floor(level)} ${Math.floor(level) === 1 ? "is" : "are"} left. Retry after ${retryAfterSeconds} seconds.`,
        { needed: n, available: Math.floor(level), burst, perMinute, retryAfterSeconds },
      );
    }
    this.buckets.set(client, { tokens: level - n, at: now });
  }

  /** Gives `n` unused tokens back to `client`. */
  give(client: string, n: number): void {
    if (!this.enabled || n <= 0) return;
    const now = this.options.now();
    this.buckets.set(client, { tokens: Math.min(this.options.burst, this.level(client, now) + n), at: now });
  }

  /** Clients with a bucket that is not full (tests: memory stays bounded). */
  get trackedClients(): number {
    return this.buckets.size;
  }

  private level(client: string, now: number): number {
    const b = this.buckets.get(client);
    if (!b) return this.options.burst;
    return Math.min(this.options.burst, b.tokens + (Math.max(0, now - b.at) * this.options.perMinute) / 60_000);
  }

  private sweep(now: number): void {
    if (this.buckets.size <= SWEEP_ABOVE && now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const client of [...this.buckets.keys()]) {
      if (this.level(client, now) >= this.options.burst) this.buckets.delete(client);
    }
  }
}

/**
 * One request's side of the budget: its client, its AbortSignal, and the tokens it reserved. `runScrypt` calls
 * `pay` before each derivation: a reserved token if any is left, else one from the bucket.
 */
export class KdfAllowance implements KdfCaller {
  private reserved = 0;

  constructor(
    private readonly budget: KdfBudget | undefined,
    readonly client: string,
    readonly signal?: AbortSignal,
  ) {}

  /** The most derivations one request can reserve (the bucket's size), or Infinity without a budget. */
  get maxAtOnce(): number {
    return this.budget?.enabled ? this.budget.options.burst : Infinity;
  }

  /** Takes `n` tokens at once, before the first of `n` derivations. @throws KDF_BUDGET_EXCEEDED */
  reserve(n: number): void {
    this.signal?.throwIfAborted();
    this.budget?.take(this.client, n);
    this.reserved += n;
  }

  pay(): void {
    if (this.reserved > 0) this.reserved -= 1;
    else this.budget?.take(this.client, 1);
  }

  refund(): void {
    this.reserved += 1;
  }

  /** Gives the reserved tokens no derivation used back to the bucket; call when the request ends. */
  close(): void {
    this.budget?.give(this.client, this.reserved);
    this.reserved = 0;
  }
}
