/**
 * How a service hands its events to the events service (`events.append`, over the broker: the calendar and the
 * submitter may run in other processes than the log's store) without ever making its own work wait: `append` queues
 * and returns; one call at a time sends the queue, in order, and a failed call is tried again with a growing pause.
 * The queue is bounded: past `maxQueued` events the oldest are dropped (and counted in a warning), and what is queued
 * when the process dies is lost — docs/events.md#delivery says which events that can cost.
 */
import type { ServiceBroker } from "moleculer";
import type { NewEvent } from "../events/event-types";

/** Events sent per call. */
const PER_CALL = 100;
const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 30_000;

export class EventAppender {
  /** waiting to be sent, oldest first */
  private queue: NewEvent[] = [];
  /** sent, not yet taken */
  private inFlight: NewEvent[] = [];
  private retry: NodeJS.Timeout | undefined;
  private pauseMs = FIRST_PAUSE_MS;
  private dropped = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly broker: Pick<ServiceBroker, "call" | "logger" | "registry">,
    private readonly maxQueued = 10_000,
  ) {}

  /** Queues the events for the log; never throws, never waits. */
  append(events: readonly NewEvent[]): void {
    this.queue.push(...events);
    const over = this.queue.length - this.maxQueued;
    if (over > 0) {
      this.queue.splice(0, over);
      // told once per full queue (a mesh without an events service fills it for good)
      if (this.dropped === 0)
        this.broker.logger.warn("events: the queue for the events service is full; the oldest events are dropped", {
          maxQueued: this.maxQueued,
        });
      this.dropped += over;
    }
    this.send();
  }

  /** Resolves once the queue is empty, or after `timeoutMs` (a stop does not wait for an events service that is gone). */
  flush(timeoutMs: number): Promise<void> {
    if (this.queue.length === 0 && this.inFlight.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.idle.push(() => (clearTimeout(timer), resolve()));
    });
  }

  stop(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
  }

  private send(): void {
    if (this.inFlight.length > 0 || this.retry) return;
    if (this.queue.length === 0) return void this.idle.splice(0).forEach((done) => done());
    // no events service in the mesh (yet, or not configured): wait for one without calling
    if (!(this.broker.registry as unknown as { hasService(name: string): boolean }).hasService("events")) return this.later();
    const batch = (this.inFlight = this.queue.splice(0, PER_CALL));
    this.broker.call("events.append", { events: batch }).then(
      () => {
        this.inFlight = [];
        this.pauseMs = FIRST_PAUSE_MS;
        this.dropped = 0;
        this.send();
      },
      (err: unknown) => {
        // back to the head of the queue, in order
        this.queue.unshift(...batch);
        this.inFlight = [];
        this.broker.logger.warn("events: the events service did not take the events; trying again", {
          queued: this.queue.length,
          retryInMs: this.pauseMs,
          error: err instanceof Error ? err.message : String(err),
        });
        this.later();
      },
    );
  }

  /** Tries again after a pause that doubles each time, up to LONGEST_PAUSE_MS. */
  private later(): void {
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.send();
    }, this.pauseMs);
    this.retry.unref();
    this.pauseMs = Math.min(this.pauseMs * 2, LONGEST_PAUSE_MS);
  }
}
