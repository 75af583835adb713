/**
 * Per-client fixed-window rate limit for POST requests (the reference limits POSTs under /api/v1 per IP).
 * The clock is injected so tests can cross a window without waiting.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RateLimitedError } from "./errors";

export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until this client's window resets (>= 1). */
  retryAfterSeconds: number;
}

/** Counts hits per key in windows that start at a key's first hit. In-memory: one count per gateway replica. */
export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastPrune: number;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {
    this.lastPrune = now();
  }

  hit(key: string): RateLimitDecision {
    const now = this.now();
    this.prune(now);
    let w = this.windows.get(key);
    if (w === undefined || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    const retryAfterSeconds = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    return { allowed: w.count <= this.limit, remaining: Math.max(0, this.limit - w.count), retryAfterSeconds };
  }

  /** Number of clients currently tracked (bounded by pruning expired windows). */
  get trackedClients(): number {
    return this.windows.size;
  }

  private prune(now: number): void {
    if (now - this.lastPrune < this.windowMs) return;
    this.lastPrune = now;
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}

/**
 * The client's IP behind `trustedProxies` proxies of our own: each appends the address it received the request
 * from to X-Forwarded-For, so the client is the entry that many hops from the right. Entries further left were
 * written by the client and prove nothing. With fewer entries than trusted hops, or none trusted, the socket peer.
 */
export function clientIp(req: IncomingMessage, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const header = req.headers["x-forwarded-for"];
    const entries = (Array.isArray(header) ? header.join(",") : (header ?? ""))
      .split(",")
      .map((e) => e.trim())
      .filter((e) => e !== "");
    const client = entries[entries.length - trustedProxies];
    if (client !== undefined) return client;
  }
  return req.socket.remoteAddress ?? "unknown";
}

/** Connect-style middleware limiting POSTs per client; other methods pass untouched. */
export function createPostRateLimit(options: { limitPerMinute: number; trustProxy: number; now: () => number }) {
  const limiter = new FixedWindowRateLimiter(options.limitPerMinute, 60_000, options.now);
  return function postRateLimit(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    if (req.method !== "POST" || options.limitPerMinute <= 0) return next();
    const decision = limiter.hit(clientIp(req, options.trustProxy));
    if (!decision.allowed) return next(new RateLimitedError(decision.retryAfterSeconds, options.limitPerMinute));
    res.setHeader("X-Rate-Limit-Remaining", String(decision.remaining));
    next();
  };
}
