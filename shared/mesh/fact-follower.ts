/**
 * Keeps a fact consumer (shared/indexer/fact-consumer.ts) caught up inside a Moleculer service: on every
 * `chain.block` / `chain.rollback` notification, and on a timer as a safety net for lost notifications or an
 * indexer that was unreachable. The facts themselves always come from the indexer's log (`indexer.factsAfter`).
 */
import { addReadinessCheck } from "./health-middleware";
import { stillStarting } from "../domain/errors";
import type { ServiceBroker, ServiceSchema } from "moleculer";
import type { FactRecord } from "../indexer/fact-log";
import { FactConsumer, type FactSource, type Projection } from "../indexer/fact-consumer";
import type { Store } from "../store";
import type { ServiceName } from "./service-names";
import { defineRouteActions, internalActions, type RouteActions } from "../gateway/route-actions";
import type { ServiceDeps } from "./service-deps";
import { whenIndexerAvailable } from "./indexer-availability";

export interface FactFollower {
  /** Catch up now (coalesces with a run in progress). */
  poke(): void;
  /** Resolves once caught up with what the indexer has now. */
  catchUp(): Promise<number>;
  /** The fact sequence the projection holds everything through (FactConsumer.appliedSeq). */
  appliedSeq(): number | undefined;
  stop(): void;
}

/** The indexer's fact log, reached over the broker. */
function indexerFactSource(broker: ServiceBroker): FactSource {
  return {
    after: (cursor, limit) => broker.call<FactRecord[], { cursor: number; limit: number }>("indexer.factsAfter", { cursor, limit }),
  };
}

function followFacts(
  broker: ServiceBroker,
  store: Store,
  projection: Projection,
  opts: { intervalMs?: number; source?: FactSource } = {},
): FactFollower {
  const consumer = new FactConsumer(store, opts.source ?? indexerFactSource(broker), projection);
  const run = () =>
    consumer.catchUp().catch((err: unknown) => {
      broker.logger.warn(`${projection.name}: catching up with the indexer failed; will retry`, {
        error: err instanceof Error ? err.message : String(err),
      });
      return -1;
    });
  const timer = setInterval(() => void run(), opts.intervalMs ?? 5000);
  timer.unref();
  return {
    poke: () => void run(),
    catchUp: () => consumer.catchUp(),
    appliedSeq: () => consumer.appliedSeq(),
    stop: () => clearInterval(timer),
  };
}

/**
 * Brings every projection service of the mesh up to the indexer's head (each answers its internal `sync`), so a
 * read that follows sees what the indexer has. Every replica is asked, not one: a replica may keep what it follows
 * in memory (the gateway's remembered ETags, a consumer's applied sequence). Services not running are skipped.
 */
export async function catchUpProjections(broker: ServiceBroker): Promise<void> {
  const actions = broker.registry.getActionList({ onlyAvailable: true, skipInternal: true, withEndpoints: true }) as {
    name: string;
    endpoints?: { nodeID: string; available: boolean }[];
  }[];
  const calls = actions
    .filter((a) => a.name.endsWith(".sync"))
    .flatMap((a) =>
      [...new Set((a.endpoints ?? []).filter((e) => e.available).map((e) => e.nodeID))].map((nodeID) => ({ name: a.name, nodeID })),
    );
  await Promise.all(calls.map(({ name, nodeID }) => broker.call(name, {}, { nodeID }).catch(() => undefined)));
}

/** Event handlers that poke a follower; they bypass the bulkhead so bursts of blocks are never rejected. */
function chainNotificationHandlers(follower: () => FactFollower | undefined) {
  const handler = { bulkhead: { enabled: false }, handler: () => follower()?.poke() } as const;
  return { "chain.block": handler, "chain.rollback": handler };
}

/**
 * The lifecycle every projection service shares (verifier, stats, credential, …): open its projection when the
 * service starts, follow the indexer's facts, stop following when it stops; `ready()` answers 503 before that.
 */
function projectionLifecycle<P extends Projection>(service: string, deps: ServiceDeps, open: (store: Store) => Promise<P>) {
  let projection: P | undefined;
  let follower: FactFollower | undefined;
  return {
    ready(): P {
      if (!projection) throw stillStarting(service);
      return projection;
    },
    /** The fact sequence the open projection holds everything through; undefined before its first catch-up. */
    appliedSeq(): number | undefined {
      return follower?.appliedSeq();
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
        addReadinessCheck(this.broker, `${service} projection is open`, () => projection !== undefined);
        // First catch-up once the indexer is there (in one process it starts alongside us); the timer and the
        // chain notifications take over after that.
        const f = follower;
        void whenIndexerAvailable(this.broker, service).then(
          () => f.poke(),
          () => undefined,
        );
      },
      stopped(): void {
        follower?.stop();
      },
    },
  };
}

/**
 * A service answering its gateway routes from one projection (verifier, stats, credential): the lifecycle's mixin,
 * and the routes built with `ready`, the open projection (503 `SERVICE_STARTING` until the service has started).
 */
export function projectionService<S extends ServiceName, P extends Projection>(
  name: S,
  deps: ServiceDeps,
  spec: { open: (store: Store) => Promise<P>; routes: (ready: () => P, appliedSeq: () => number | undefined) => RouteActions<S> },
): ServiceSchema {
  const lifecycle = projectionLifecycle(name, deps, spec.open);
  return {
    name,
    mixins: [lifecycle.mixin],
    actions: defineRouteActions(
      name,
      spec.routes(
        () => lifecycle.ready(),
        () => lifecycle.appliedSeq(),
      ),
    ),
  };
}
