/**
 * Keeps a fact consumer (shared/indexer/fact-consumer.ts) caught up inside a Moleculer service: on every
 * `chain.block` / `chain.rollback` notification, and on a timer as a safety net for lost notifications or an
 * indexer that was unreachable. The facts themselves always come from the indexer's log (`indexer.factsAfter`).
 */
import type { ServiceBroker } from "moleculer";
import type { FactRecord } from "../indexer/fact-log";
import { FactConsumer, type FactSource, type Projection } from "../indexer/fact-consumer";
import type { Store } from "../store";

export interface FactFollower {
  /** Catch up now (coalesces with a run in progress). */
  poke(): void;
  /** Resolves once caught up with what the indexer has now. */
  catchUp(): Promise<number>;
  stop(): void;
}

/** The indexer's fact log, reached over the broker. */
export function indexerFactSource(broker: ServiceBroker): FactSource {
  return { after: (cursor, limit) => broker.call<FactRecord[], { cursor: number; limit: number }>("indexer.factsAfter", { cursor, limit }) };
}

export function followFacts(
  broker: ServiceBroker,
  store: Store,
  projection: Projection,
  opts: { intervalMs?: number; source?: FactSource } = {},
): FactFollower {
  const consumer = new FactConsumer(store, opts.source ?? indexerFactSource(broker), projection);
  const run = () =>
    consumer.catchUp().catch((err: unknown) => {
      broker.logger.warn(`${projection.name}: catching up with the indexer failed; will retry`, { error: err instanceof Error ? err.message : String(err) });
      return -1;
    });
  const timer = setInterval(() => void run(), opts.intervalMs ?? 5000);
  timer.unref();
  return {
    poke: () => void run(),
    catchUp: () => consumer.catchUp(),
    stop: () => clearInterval(timer),
  };
}

/** Event handlers that poke a follower; they bypass the bulkhead so bursts of blocks are never rejected. */
export function chainNotificationHandlers(follower: () => FactFollower | undefined) {
  const handler = { bulkhead: { enabled: false }, handler: () => follower()?.poke() } as const;
  return { "chain.block": handler, "chain.rollback": handler };
}
