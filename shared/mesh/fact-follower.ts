/**
 * Keeps a fact consumer (shared/indexer/fact-consumer.ts) caught up inside a Moleculer service: on every
 * `chain.block` / `chain.rollback` notification, and on a timer as a safety net for lost notifications or an
 * indexer that was unreachable. The facts themselves always come from the indexer's log (`indexer.factsAfter`).
 */
import { Errors, type ServiceBroker } from "moleculer";
import type { FactRecord } from "../indexer/fact-log";
import { FactConsumer, type FactSource, type Projection } from "../indexer/fact-consumer";
import type { Store } from "../store";
import { internalActions } from "./route-actions";
import type { ServiceDeps } from "./service-deps";

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

/**
 * The lifecycle every projection service shares (verifier, stats, credential, …): open its projection when the
 * service starts, follow the indexer's facts, stop following when it stops; `ready()` answers 503 before that.
 */
export function projectionLifecycle<P extends Projection>(service: string, deps: ServiceDeps, open: (store: Store) => Promise<P>) {
  let projection: P | undefined;
  let follower: FactFollower | undefined;
  return {
    ready(): P {
      if (!projection) throw new Errors.MoleculerRetryableError(`${service} is starting`, 503, "SERVICE_STARTING");
      return projection;
    },
    /**
     * Mixin for the service: the internal `sync` action (catch up with the indexer now; resolves with the consumer
     * cursor — tests, tools), the chain notifications, and the start/stop of the projection.
     */
    mixin: {
      actions: internalActions({ sync: { handler: () => follower?.catchUp() ?? 0 } }),
      events: chainNotificationHandlers(() => follower),
      async started(this: { broker: ServiceBroker }): Promise<void> {
        const store = await deps.resources.store();
        projection = await open(store);
        follower = followFacts(this.broker, store, projection);
        // First catch-up once the indexer is there (in one process it starts alongside us); the timer and the
        // chain notifications take over after that.
        const f = follower;
        void this.broker.waitForServices(["indexer"]).then(() => f.poke(), () => undefined);
      },
      stopped(): void {
        follower?.stop();
      },
    },
  };
}
