/**
 * The webhook engine's settings, each with its default: the bounds on what callers may register, the retry
 * schedule, the disable rule, the SSRF policy's operator switches and the delivery limits that bound memory.
 * docs/webhooks.md states the defaults; `webhookSettings` checks any override.
 */
import { webhookError } from "./errors";

export interface WebhookSettings {
  /** Operator switch: endpoints on loopback, private, link-local, CGNAT and ULA addresses are allowed (tests, closed networks). */
  allowPrivateNetworks: boolean;
  /** Operator switch: `http:` endpoints are allowed (else `https:` only). */
  allowHttp: boolean;
  /** Endpoints registered in total. */
  maxEndpoints: number;
  /** Endpoints registered by one owner. */
  maxEndpointsPerOwner: number;
  /** Subjects one endpoint filters on (at least one). */
  maxSubjectsPerEndpoint: number;
  /** Event types one endpoint filters on (none: every type). */
  maxTypesPerEndpoint: number;
  /** The subject kinds of the event log (`<kind>:<value>`). */
  subjectKinds: readonly string[];
  /** How long a rotated-out secret keeps signing alongside the new one. */
  secretGraceMs: number;
  /** Delay after each failed attempt; one attempt more than delays, then the delivery is dead (failed). */
  retryScheduleMs: readonly number[];
  /** Each delay is moved by up to ± this fraction, at random (0 for none). */
  retryJitter: number;
  /** Longest delay a `Retry-After` answer may ask for. */
  maxRetryAfterMs: number;
  /** Consecutive dead deliveries after which an endpoint is disabled. */
  disableAfterFailedDeliveries: number;
  /** One attempt, from connecting to the end of the bounded response read. */
  requestTimeoutMs: number;
  /** Bytes of a response read (kept for the dead-letter view); the rest is discarded. */
  maxResponseBytes: number;
  /** Attempts in flight in one deliverer. */
  concurrency: number;
  /** Attempts in flight to one endpoint in one deliverer: a slow endpoint holds at most this many slots. */
  concurrencyPerEndpoint: number;
  /** How long a claimed delivery stays with its deliverer; after that another may send it. Longer than an attempt. */
  claimTtlMs: number;
  /** Events the dispatcher reads per page. */
  dispatchPageSize: number;
  /** How long the dispatcher's lease lasts (one dispatcher at a time across replicas). */
  dispatchLeaseMs: number;
  /** Events one replay call reads at most (a longer replay continues from where it stopped). */
  replayMaxEvents: number;
  /** Largest dead-letter page. */
  deadLetterPageMax: number;
  /** Delivered deliveries are kept this long (the dispatcher's duplicate guard needs them only through a crash). */
  deliveredRetentionMs: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h: ten attempts over 15 h 42 min 35 s. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
];

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowPrivateNetworks: false,
  allowHttp: false,
  maxEndpoints: 10_000,
  maxEndpointsPerOwner: 20,
  maxSubjectsPerEndpoint: 100,
  maxTypesPerEndpoint: 50,
  subjectKinds: ["address", "hash", "transaction", "request", "list", "state", "endpoint"],
  secretGraceMs: 24 * HOUR,
  retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
  retryJitter: 0.1,
  maxRetryAfterMs: 8 * HOUR,
  disableAfterFailedDeliveries: 5,
  requestTimeoutMs: 10 * SECOND,
  maxResponseBytes: 4_096,
  concurrency: 16,
  concurrencyPerEndpoint: 2,
  claimTtlMs: 60 * SECOND,
  dispatchPageSize: 200,
  dispatchLeaseMs: 30 * SECOND,
  replayMaxEvents: 1_000,
  deadLetterPageMax: 100,
  deliveredRetentionMs: 7 * 24 * HOUR,
};

const positiveInteger = (v: number) => Number.isSafeInteger(v) && v > 0;

/**
 * The defaults with `overrides` applied, checked.
 * @throws WebhookError `INVALID_WEBHOOK_SETTINGS` naming every bad setting
 */
export function webhookSettings(overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  const s: WebhookSettings = { ...DEFAULT_WEBHOOK_SETTINGS, ...overrides };
  const bad: string[] = [];
  for (const key of [
    "maxEndpoints",
    "maxEndpointsPerOwner",
    "maxSubjectsPerEndpoint",
    "maxTypesPerEndpoint",
    "secretGraceMs",
    "maxRetryAfterMs",
    "disableAfterFailedDeliveries",
    "requestTimeoutMs",
    "maxResponseBytes",
    "concurrency",
    "concurrencyPerEndpoint",
    "claimTtlMs",
    "dispatchPageSize",
    "dispatchLeaseMs",
    "replayMaxEvents",
    "deadLetterPageMax",
    "deliveredRetentionMs",
  ] as const)
    if (!positiveInteger(s[key])) bad.push(key);
  if (!s.retryScheduleMs.every((d) => Number.isSafeInteger(d) && d >= 0)) bad.push("retryScheduleMs");
  if (!(s.retryJitter >= 0 && s.retryJitter < 1)) bad.push("retryJitter");
  if (!(s.claimTtlMs > s.requestTimeoutMs)) bad.push("claimTtlMs (must exceed requestTimeoutMs)");
  if (s.subjectKinds.length === 0 || !s.subjectKinds.every((k) => /^[a-z][a-z0-9-]{0,31}$/.test(k))) bad.push("subjectKinds");
  if (bad.length > 0) webhookError("INVALID_WEBHOOK_SETTINGS", `Invalid webhook settings: ${bad.join(", ")}.`, { settings: bad });
  return s;
}
