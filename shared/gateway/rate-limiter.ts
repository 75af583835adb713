/**
 * Per-client fixed-window rate limits (docs/api.md#rate-limits): every POST (and DELETE), and GETs of the reads that cost the
 * services work (`readBudget` routes: `/verify/...`, `/proof/...`, connected-goods reads), each with its own
 * budget. A client is an IPv4 address or an IPv6 /64 (`clientKeyOf`). The clock is injected so tests can cross a
 * window without waiting.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIPv4, isIPv6 } from "node:net";
import { FixedWindowCounter } from "../domain/fixed-window-counter";
import { RateLimitedError } from "./errors";

export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until this client's window resets (>= 1). */
  retryAfterSeconds: number;
}

/** Counts hits per key in windows that start at a key's first hit. In-memory: one count per gateway replica. */
export class FixedWindowRateLimiter {
  private readonly hits: FixedWindowCounter;

  constructor(
    private readonly limit: number,
    windowMs: number,
    now: () => number,
  ) {
    this.hits = new FixedWindowCounter(windowMs, now);
  }

  hit(key: string): RateLimitDecision {
    const { count, resetsInMs } = this.hits.add(key);
    const retryAfterSeconds = Math.max(1, Math.ceil(resetsInMs / 1000));
    return { allowed: count <= this.limit, remaining: Math.max(0, this.limit - count), retryAfterSeconds };
  }

  /** Number of clients currently tracked (bounded by pruning expired windows). */
  get trackedClients(): number {
    return this.hits.size;
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

/** The 16-bit groups of an IPv6 address (zone id dropped, a trailing dotted quad as two groups), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  const text = address.split("%")[0]!;
  if (!isIPv6(text)) return undefined;
  let hex = text;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    hex = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = hex.split("::") as [string, string | undefined];
  const part = (s: string | undefined) => (s === undefined || s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)));
  const left = part(head);
  const right = part(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key a client is counted under: an IPv4 address as it is (also when written IPv4-mapped, `::ffff:1.2.3.4`,
 * as a dual-stack socket reports IPv4 peers), an IPv6 address by its /64 — the smallest block one subscriber is
 * given, and within which it can take any address it likes. Anything else (not an IP address) unchanged.
 */
export function clientKeyOf(address: string): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (groups === undefined) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The client key of a request: its client IP (behind `trustedProxies`), IPv6 by /64. */
export function clientKey(req: IncomingMessage, trustedProxies: number): string {
  return clientKeyOf(clientIp(req, trustedProxies));
}

export interface RateLimitOptions {
  limitPerMinute: number;
  trustProxy: number;
  now: () => number;
}

/** Connect-style middleware limiting the requests that change something (POST, DELETE) per client; other methods pass untouched. */
export function createPostRateLimit(options: RateLimitOptions) {
  const limiter = new FixedWindowRateLimiter(options.limitPerMinute, 60_000, options.now);
  return function postRateLimit(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    if ((req.method !== "POST" && req.method !== "DELETE") || options.limitPerMinute <= 0) return next();
    const decision = limiter.hit(clientKey(req, options.trustProxy));
    if (!decision.allowed) return next(new RateLimitedError(decision.retryAfterSeconds, options.limitPerMinute));
    res.setHeader("X-Rate-Limit-Remaining", String(decision.remaining));
    next();
  };
}

/** A request's read-budget decision, once taken (a verify answered from memory and the router share it). */
const READ_DECISION = Symbol("readDecision");
type Counted = IncomingMessage & { [READ_DECISION]?: RateLimitedError | null };

/**
 * The GET budget of the expensive reads: each request of a `readBudget` route counts once per client, whether the
 * gateway answers it from memory or a service does (`check` may be called twice for one request; it counts once).
 */
export class ReadRateLimit {
  private readonly limiter: FixedWindowRateLimiter;

  constructor(private readonly options: RateLimitOptions) {
    this.limiter = new FixedWindowRateLimiter(options.limitPerMinute, 60_000, options.now);
  }

  get enabled(): boolean {
    return this.options.limitPerMinute > 0;
  }

  /** Counts the request; the error to answer with when the client is over its budget, else undefined. */
  check(req: IncomingMessage, res: ServerResponse): RateLimitedError | undefined {
    const counted = req as Counted;
    if (!this.enabled) return undefined;
    const known = counted[READ_DECISION];
    if (known !== undefined) return known ?? undefined;
    const decision = this.limiter.hit(clientKey(req, this.options.trustProxy));
    const refusal = decision.allowed ? null : new RateLimitedError(decision.retryAfterSeconds, this.options.limitPerMinute, "GET");
    counted[READ_DECISION] = refusal;
    if (refusal === null && !res.headersSent) res.setHeader("X-Rate-Limit-Remaining", String(decision.remaining));
    return refusal ?? undefined;
  }
}
