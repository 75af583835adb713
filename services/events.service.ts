/**
 * events: the public event log (shared/events/, docs/events.md). Derives the chain's events from the indexer's fact
 * log (shared/events/chain-producer.ts: on `chain.block` / `chain.rollback`, and every 5 s; one replica at a time, by
 * a store lease), takes the events other services produce (`append`: the submitter's submissions, the calendar's
 * receipts, the list extensions' rebuilds), and serves the log to the gateway's event streams (`after`, the action
 * behind `GET /events`). Each append is announced to the gateways as `events.appended { lastId }`, a hint: they also
 * read on a timer. Runs the webhook engine on the log (shared/mesh/webhook-runtime.ts, docs/webhooks.md): each
 * append wakes its dispatcher, and the webhook routes are its actions.
 */
import type { Context, ServiceBroker, ServiceSchema } from "moleculer";
import { networkIdOfNetwork } from "../shared/config/network";
import { badRequest, stillStarting } from "../shared/domain/errors";
import { ChainEventProducer, type TipPoint } from "../shared/events/chain-producer";
import { eventsExpired, expectNewEvents, MAX_SUBJECTS, parseEventFilter } from "../shared/events/event-checks";
import { EventLog } from "../shared/events/event-log";
import type { FactRecord } from "../shared/indexer/fact-log";
import type { WrittenTip } from "../shared/indexer/indexer";
import type { TransactionRecord } from "../shared/records/protocol-records";
import { defineRouteActions, internalActions } from "../shared/gateway/route-actions";
import { addReadinessCheck } from "../shared/mesh/health-middleware";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { webhookRouteActions, WebhookRuntime } from "../shared/mesh/webhook-runtime";
import { eventLogPublisher } from "../shared/mesh/event-log-publisher";
import { whenIndexerAvailable } from "../shared/mesh/indexer-availability";

/** The producer's safety net when notifications are lost. */
const PRODUCE_EVERY_MS = 5_000;
/** How often the log's expired events are deleted (EVENTS_RETENTION_DAYS). */
const PRUNE_EVERY_MS = 10 * 60_000;
const DAY_MS = 86_400_000;
/** Most events one read answers. */
const MAX_READ = 500;

interface AfterParams {
  after?: string;
  subjects?: string[];
  types?: string[];
  limit?: number;
}

export default function createEventsService(deps: ServiceDeps): ServiceSchema {
  const locals: {
    log?: EventLog;
    producer?: ChainEventProducer;
    webhooks?: WebhookRuntime;
    timer?: NodeJS.Timeout;
    pruneTimer?: NodeJS.Timeout;
    announced?: string;
    announcing?: boolean;
  } = {};
  const logOf = (): EventLog => {
    if (!locals.log) throw stillStarting("events");
    return locals.log;
  };
  /** One `events.appended` per turn of the event loop, naming the newest id; the webhooks' dispatcher woken with it. */
  const announce = (broker: ServiceBroker, lastId: string): void => {
    if (locals.announced === undefined || Number(lastId) > Number(locals.announced)) locals.announced = lastId;
    if (locals.announcing) return;
    locals.announcing = true;
    setImmediate(() => {
      locals.announcing = false;
      void broker.broadcast("events.appended", { lastId: locals.announced });
      locals.webhooks?.logGrew();
    });
  };
  const produce = (broker: ServiceBroker): void =>
    void locals.producer?.advance().catch((err: unknown) =>
      broker.logger.warn("events: deriving the chain's events failed; will retry", {
        error: err instanceof Error ? err.message : String(err),
      }),
    );
  /**
   * Deletes the events older than EVENTS_RETENTION_DAYS, on the replica holding the producer's lease.
   * @returns how many, or false when another replica holds the lease or nothing is ever deleted
   */
  const prune = async (): Promise<number | false> => {
    const days = deps.config.events.retentionDays;
    const { log, producer } = locals;
    if (days === 0 || !log || !producer) return false;
    return producer.whileLeased(() => log.prune(deps.now() - days * DAY_MS));
  };
  const onChain = {
    bulkhead: { enabled: false },
    handler(this: { broker: ServiceBroker }, ctx: Context<Partial<TipPoint>>) {
      const p = ctx.params;
      if (typeof p.height === "number" && typeof p.slot === "number" && typeof p.id === "string" && typeof p.lastSeq === "number")
        locals.producer?.noteTip({ slot: p.slot, id: p.id, height: p.height, time: Number(p.time ?? 0), lastSeq: p.lastSeq });
      produce(this.broker);
    },
  };

  return {
    name: "events",
    actions: {
      ...defineRouteActions("events", {
        /** Events after an id (none: from the latest on), filtered; `next` is where to read on. */
        after: {
          params: {
            after: { type: "string", optional: true, max: 16 },
            subjects: { type: "array", optional: true, max: MAX_SUBJECTS, items: { type: "string", max: 256 } },
            types: { type: "array", optional: true, max: 32, items: { type: "string", max: 64 } },
            limit: { type: "number", integer: true, min: 1, max: MAX_READ, optional: true },
          },
          async handler(ctx: Context<AfterParams>) {
            const parsed = parseEventFilter({ subject: ctx.params.subjects, type: ctx.params.types, after: ctx.params.after });
            if (!parsed.ok) return badRequest(parsed.problem);
            const { subjects, types, after } = parsed.filter;
            const log = logOf();
            // a resume id retention has passed: reading on would skip the deleted events unseen ("0": from the oldest kept)
            const expired = after !== undefined && after !== "0" ? await log.expiredBefore(Number(after) + 1) : undefined;
            if (expired !== undefined) throw eventsExpired(after!, expired, deps.config.events.retentionDays);
            const from = after ?? (await log.latestId());
            return log.after(from, { subjects, types, limit: ctx.params.limit ?? 100 });
          },
        },
        ...webhookRouteActions(() => locals.webhooks),
      }),
      ...internalActions({
        /** Events another service produced (shared/mesh/event-appender.ts); those whose key the log holds are kept once. */
        append: {
          params: { events: { type: "array", min: 1, max: 1000, items: "object" } },
          async handler(this: { broker: ServiceBroker }, ctx: Context<{ events: unknown[] }>) {
            const appended = await logOf().append(expectNewEvents(ctx.params.events));
            announce(this.broker, appended[appended.length - 1]!.id);
            return { ids: appended.map((e) => e.id) };
          },
        },
        /** Derive the chain's events now (tests, tools); false when another replica derives them. */
        catchUp: { handler: () => locals.producer?.advance() ?? false },
        /** Delete the expired events now (tests, tools): how many; false when another replica holds the lease. */
        prune: { handler: () => prune() },
      }),
    },
    events: { "chain.block": onChain, "chain.rollback": onChain },
    async started() {
      const broker = this.broker;
      const store = await deps.resources.store();
      // each stored event goes out on `<NAMESPACE>.events.<type>` too (scale mode; docs/nats-contract.md#the-event-log)
      const log = await EventLog.open(store, { onStored: eventLogPublisher(broker, deps.config.namespace, broker.logger), now: deps.now });
      locals.log = log;
      locals.producer = await ChainEventProducer.open(
        store,
        log,
        {
          factsAfter: (cursor, limit) =>
            broker.call<FactRecord[], { cursor: number; limit: number }>("indexer.factsAfter", { cursor, limit }),
          writtenTip: async () => (await broker.call<{ tip?: WrittenTip }>("indexer.status")).tip,
          transaction: (id) => broker.call<TransactionRecord | null, { id: string }>("indexer.transaction", { id }),
        },
        {
          finalityDepth: deps.config.events.finalityDepth,
          networkId: networkIdOfNetwork(deps.config.network),
          now: deps.now,
          onAppended: (lastId) => announce(broker, lastId),
        },
      );
      locals.webhooks = await WebhookRuntime.start({
        store,
        log,
        config: deps.config,
        now: deps.now,
        logger: broker.logger,
        announce: (lastId) => announce(broker, lastId),
      });
      addReadinessCheck(broker, "events log is open", () => locals.log !== undefined);
      locals.timer = setInterval(() => produce(broker), PRODUCE_EVERY_MS);
      locals.timer.unref();
      locals.pruneTimer = setInterval(
        () =>
          void prune().catch((err: unknown) =>
            broker.logger.warn("events: deleting the expired events failed; will retry", {
              error: err instanceof Error ? err.message : String(err),
            }),
          ),
        PRUNE_EVERY_MS,
      );
      locals.pruneTimer.unref();
      // the first run once the indexer is there (in one process it starts alongside us)
      void whenIndexerAvailable(broker, "events").then(
        () => produce(broker),
        () => undefined,
      );
    },
    async stopped() {
      if (locals.timer) clearInterval(locals.timer);
      if (locals.pruneTimer) clearInterval(locals.pruneTimer);
      await locals.webhooks?.stop();
      await locals.producer?.release();
    },
  };
}
