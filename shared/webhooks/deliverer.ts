/**
 * The deliverer: claims due deliveries from the queue and sends them, at most `concurrency` at a time and at most
 * `concurrencyPerEndpoint` to one endpoint, so a slow or dead endpoint holds a bounded number of slots and memory
 * holds at most the claimed deliveries' bodies and a bounded part of each response. Several replicas may run it:
 * each delivery has one claimant at a time (delivery-queue.ts).
 *
 * An attempt is a success on a 2xx. Otherwise the next attempt waits the schedule's delay for that attempt (moved by
 * the jitter; longer when the endpoint's `Retry-After` asks for it, up to `maxRetryAfterMs`); after the last
 * attempt the delivery is dead (status `failed`, the dead-letter view). A delivered message resets the endpoint's
 * count of dead deliveries; `disableAfterFailedDeliveries` dead ones in a row disable it, as does a `410 Gone`
 * (Standard Webhooks: the receiver wants no more), and the `endpoint.disabled` notice goes to `onEndpointDisabled`.
 * The pending deliveries of a disabled endpoint move to the dead letters (replay them once it is enabled again).
 *
 * Every attempt is signed at send time with the endpoint's secrets in force and the attempt's timestamp; the
 * `webhook-id` is the event's, whatever the attempt, so a receiver drops what it already processed.
 */
import { randomUUID } from "node:crypto";
import { openCollection, type Collection, type Store } from "../store";
import { ENDPOINTS, type DeliveryDocument, type EndpointDocument } from "./collections";
import { DeliveryQueue, type AttemptRecord } from "./delivery-queue";
import type { SendOutcome, WebhookSender } from "./http-sender";
import { startPollingLoop, type PollingLoop } from "./polling-loop";
import type { WebhookRegistry } from "./registry";
import type { WebhookSettings } from "./settings";
import { signedHeaders } from "./signature";

export type DisableReason = "FAILED_DELIVERIES" | "GONE";

/** Produced once when an endpoint is disabled. */
export interface EndpointDisabledNotice {
  type: "endpoint.disabled";
  endpointId: string;
  owner: string;
  url: string;
  reason: DisableReason;
  consecutiveFailures: number;
  /** Unix ms. */
  at: number;
}

export interface DelivererOptions {
  registry: Pick<WebhookRegistry, "signingTarget">;
  send: WebhookSender;
  settings: WebhookSettings;
  /** Unix ms. */
  clock: () => number;
  /** In [0, 1): the jitter's draw (default Math.random). */
  random?: () => number;
  /** This deliverer's name on its claims (default: a random one). */
  holder?: string;
  onEndpointDisabled?: (notice: EndpointDisabledNotice) => void | Promise<void>;
  /**
   * An attempt that failed inside the engine (the store unavailable, the notice callback throwing): the delivery
   * stays claimed and is sent again when its claim lapses. Default: ignored.
   */
  onError?: (err: unknown) => void;
}

export interface DeliveryRunResult {
  attempts: number;
  delivered: number;
  retried: number;
  failed: number;
}

const PURGE_EVERY_MS = 60 * 60 * 1000;

/** The delay before attempt `attempt + 1` after attempt `attempt` (1-based) failed, undefined after the last. */
export function retryDelay(settings: WebhookSettings, attempt: number, random: () => number): number | undefined {
  const base = settings.retryScheduleMs[attempt - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + settings.retryJitter * (2 * random() - 1)));
}

/** `Retry-After` (seconds or an HTTP date) as a delay from `now`, undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export class WebhookDeliverer {
  readonly holder: string;
  private readonly random: () => number;
  private loop: PollingLoop | undefined;
  private purgedAt = 0;
  /** Set by `stop`: a run claims nothing more and ends once its attempts in flight have. */
  private stopping = false;

  private constructor(
    private readonly queue: DeliveryQueue,
    private readonly endpoints: Collection<EndpointDocument>,
    private readonly options: DelivererOptions,
  ) {
    this.holder = options.holder ?? `deliverer-${randomUUID()}`;
    this.random = options.random ?? Math.random;
  }

  static async open(store: Store, options: DelivererOptions): Promise<WebhookDeliverer> {
    return new WebhookDeliverer(await DeliveryQueue.open(store), await openCollection(store, ENDPOINTS), options);
  }

  /** Sends every delivery due now, and those falling due while it runs, until none is left (or `stop` is called); then resolves. */
  async runOnce(): Promise<DeliveryRunResult> {
    const { concurrency, concurrencyPerEndpoint, claimTtlMs } = this.options.settings;
    const result: DeliveryRunResult = { attempts: 0, delivered: 0, retried: 0, failed: 0 };
    const inFlight = new Set<Promise<void>>();
    const perEndpoint = new Map<string, number>();
    for (;;) {
      if (this.stopping) {
        await Promise.all(inFlight);
        break;
      }
      const claimed = await this.queue.claim(
        concurrency - inFlight.size,
        this.holder,
        this.options.clock(),
        claimTtlMs,
        (id) => concurrencyPerEndpoint - (perEndpoint.get(id) ?? 0),
      );
      for (const delivery of claimed) {
        perEndpoint.set(delivery.endpointId, (perEndpoint.get(delivery.endpointId) ?? 0) + 1);
        const attempt: Promise<void> = this.attempt(delivery, result)
          .catch((err: unknown) => this.options.onError?.(err))
          .finally(() => {
            inFlight.delete(attempt);
            const left = (perEndpoint.get(delivery.endpointId) ?? 1) - 1;
            if (left > 0) perEndpoint.set(delivery.endpointId, left);
            else perEndpoint.delete(delivery.endpointId);
          });
        inFlight.add(attempt);
      }
      if (inFlight.size === 0) break;
      if (claimed.length === 0 || inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    return result;
  }

  /** Runs `runOnce` in the background every `intervalMs` (and when woken), purging old delivered deliveries hourly. */
  start(intervalMs: number, onError: (err: unknown) => void): void {
    this.loop ??= startPollingLoop(
      async () => {
        await this.runOnce();
        const now = this.options.clock();
        if (now - this.purgedAt >= PURGE_EVERY_MS) {
          this.purgedAt = now;
          await this.queue.purgeDelivered(now - this.options.settings.deliveredRetentionMs);
        }
      },
      intervalMs,
      onError,
    );
  }

  /** Runs the background loop at once (new deliveries were enqueued). */
  wake(): void {
    this.loop?.wake();
  }

  /**
   * Stops the background loop: the run in progress claims nothing more (a backlog stays in the store, for any
   * deliverer), and this resolves once its attempts in flight have ended (each within `requestTimeoutMs`).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop?.stop();
    this.loop = undefined;
  }

  private async attempt(delivery: DeliveryDocument, result: DeliveryRunResult): Promise<void> {
    const target = await this.options.registry.signingTarget(delivery.endpointId);
    if (target === undefined) return this.queue.drop(delivery);
    if (target.status !== "active") {
      if (await this.queue.failed(delivery, this.options.clock(), { failure: "ENDPOINT_DISABLED", message: "the endpoint is disabled" }))
        result.failed += 1;
      return;
    }
    result.attempts += 1;
    const headers = signedHeaders(target.secrets, delivery.messageId, Math.floor(this.options.clock() / 1000), delivery.body);
    const outcome = await this.options.send({ url: target.url, headers: { ...headers }, body: delivery.body });
    const now = this.options.clock();
    const record = recordOf(outcome);
    if (outcome.ok) {
      if (await this.queue.delivered(delivery, now, record)) {
        result.delivered += 1;
        await this.endpoints.updateOne({ _id: delivery.endpointId, consecutiveFailures: { $gt: 0 } }, { $set: { consecutiveFailures: 0 } });
      }
      return;
    }
    if (outcome.status === 410) {
      if (await this.queue.failed(delivery, now, record)) result.failed += 1;
      await this.disable(delivery.endpointId, "GONE", now);
      return;
    }
    const delay = retryDelay(this.options.settings, delivery.attempts, this.random);
    if (delay !== undefined) {
      const asked = retryAfterMs(outcome.retryAfter, now);
      const wait = asked === undefined ? delay : Math.max(delay, Math.min(asked, this.options.settings.maxRetryAfterMs));
      if (await this.queue.retryAt(delivery, now + wait, record)) result.retried += 1;
      return;
    }
    if (!(await this.queue.failed(delivery, now, record))) return;
    result.failed += 1;
    const endpoint = await this.endpoints.findOneAndUpdate({ _id: delivery.endpointId }, { $inc: { consecutiveFailures: 1 } });
    if (endpoint !== undefined && endpoint.consecutiveFailures >= this.options.settings.disableAfterFailedDeliveries)
      await this.disable(delivery.endpointId, "FAILED_DELIVERIES", now);
  }

  /** Disables an active endpoint, fails its pending deliveries and sends the notice (once: only the write that disables it does). */
  private async disable(endpointId: string, reason: DisableReason, now: number): Promise<void> {
    const endpoint = await this.endpoints.findOneAndUpdate(
      { _id: endpointId, status: "active" },
      { $set: { status: "disabled", disabledAt: now, disabledReason: reason, updatedAt: now } },
    );
    if (endpoint === undefined) return;
    await this.queue.failPendingOf(endpointId, now, "ENDPOINT_DISABLED", `the endpoint was disabled (${reason})`);
    await this.options.onEndpointDisabled?.({
      type: "endpoint.disabled",
      endpointId,
      owner: endpoint.owner,
      url: endpoint.url,
      reason,
      consecutiveFailures: endpoint.consecutiveFailures,
      at: now,
    });
  }
}

function recordOf(outcome: SendOutcome): AttemptRecord {
  return {
    ...(outcome.status !== undefined ? { status: outcome.status } : {}),
    ...(outcome.failure !== undefined ? { failure: outcome.failure } : {}),
    ...(outcome.message !== undefined ? { message: outcome.message } : {}),
    ...(outcome.responseExcerpt !== undefined ? { response: outcome.responseExcerpt } : {}),
  };
}
