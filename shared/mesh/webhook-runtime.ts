/**
 * The webhook engine (shared/webhooks/, docs/webhooks.md) as the events service runs it, beside the event log it
 * owns: the registry, the dispatcher and the deliverer opened on the service's store; the dispatcher run on every
 * growth of the log (and every 5 s, should a wake-up be missed) and the deliverer woken whenever deliveries are
 * queued (and every second, for retries falling due); an endpoint the deliverer disables announced as an
 * `endpoint.disabled` event of the log. Neither runs inside a request or the indexer: they only get woken. Also the
 * route actions, each one call into `WebhookManagement`.
 *
 * Nothing here logs an endpoint's URL (a URL often holds a credential of its own), a secret or a token.
 */
import type { Context, Logger } from "moleculer";
import type { AppConfig } from "../config/config";
import { networkIdOfNetwork } from "../config/network";
import { stillStarting } from "../domain/errors";
import type { EventLog } from "../events/event-log";
import type { RouteActions } from "../gateway/route-actions";
import type { Store } from "../store";
import { ReplayGuard } from "../user-actions/replay-guard";
import { ServiceSigningKey } from "../user-actions/service-signing-key";
import {
  createHttpSender,
  DeliveryQueue,
  startPollingLoop,
  WebhookDeliverer,
  WebhookDispatcher,
  WebhookRegistry,
  webhookSettings,
  type EndpointDisabledNotice,
  type PollingLoop,
  type WebhookSettings,
} from "../webhooks";
import { eventLogSource } from "../webhooks/event-log-source";
import { WebhookManagement, type Caller } from "../webhooks/management";

/** The dispatcher's safety net when a wake-up is lost. */
const DISPATCH_EVERY_MS = 5_000;
/** How often the deliverer looks for retries that fell due. */
const DELIVER_EVERY_MS = 1_000;
/** The one-use guard of the address proofs' challenges (the user actions keep theirs apart). */
const USED_CHALLENGES = "webhook_used_challenges";

/** The engine's settings from the operator's (WEBHOOKS_*, docs/webhooks.md#settings). */
export function webhookSettingsOf(config: AppConfig): WebhookSettings {
  const w = config.webhooks;
  return webhookSettings({
    allowPrivateNetworks: w.allowPrivateNetworks,
    allowHttp: w.allowHttp,
    maxEndpoints: w.maxEndpoints,
    maxEndpointsPerOwner: w.maxEndpointsPerToken,
    retryScheduleMs: w.retryScheduleMs,
    disableAfterFailedDeliveries: w.disableAfterFailedDeliveries,
    requestTimeoutMs: w.requestTimeoutMs,
    concurrency: w.concurrency,
    // a claim outlives any attempt (its deadline) with room for the store's writes around it; a deliverer that died
    // leaves its claims to the others after this long (30 s by default)
    claimTtlMs: Math.max(5_000, 3 * w.requestTimeoutMs),
  });
}

export interface WebhookRuntimeOptions {
  store: Store;
  log: EventLog;
  config: AppConfig;
  /** Unix ms. */
  now: () => number;
  logger: Logger;
  /** Tells the gateways the log grew (the service's `events.appended`). */
  announce: (lastId: string) => void;
}

export class WebhookRuntime {
  private constructor(
    readonly management: WebhookManagement,
    private readonly dispatcher: WebhookDispatcher,
    private readonly deliverer: WebhookDeliverer,
    private readonly dispatching: PollingLoop,
  ) {}

  static async start(opts: WebhookRuntimeOptions): Promise<WebhookRuntime> {
    const { store, log, config, now, logger } = opts;
    const settings = webhookSettingsOf(config);
    const source = eventLogSource(log);
    const warn = (what: string) => (err: unknown) =>
      logger.warn(`webhooks: ${what} failed; will retry`, { error: err instanceof Error ? err.message : String(err) });

    const registry = await WebhookRegistry.open(store, { source, settings, clock: now });
    // the dispatcher wakes the deliverer (declared below: it is only called once both are open)
    const dispatcher = await WebhookDispatcher.open(store, { source, settings, clock: now, onEnqueued: () => deliverer.wake() });
    const deliverer = await WebhookDeliverer.open(store, {
      registry,
      send: createHttpSender({ policy: settings, timeoutMs: settings.requestTimeoutMs, maxResponseBytes: settings.maxResponseBytes }),
      settings,
      clock: now,
      onEndpointDisabled: async (notice) => {
        logger.info("webhooks: endpoint disabled", { endpointId: notice.endpointId, reason: notice.reason });
        const [appended] = await log.append([disabledEvent(notice)]);
        opts.announce(appended!.id);
      },
      onError: warn("a delivery"),
    });
    deliverer.start(DELIVER_EVERY_MS, warn("delivering"));
    let key: ServiceSigningKey | undefined;
    let replay: ReplayGuard | undefined;
    const management = new WebhookManagement({
      registry,
      dispatcher,
      queue: await DeliveryQueue.open(store),
      settings,
      clock: now,
      networkId: networkIdOfNetwork(config.network),
      registrationsPerHour: config.webhooks.registrationsPerHour,
      events: source,
      retentionDays: config.events.retentionDays,
      // the key of the user actions' challenges (USER_ACTION_SIGNING_MNEMONIC), read on first use
      addressProofs: async () => ({
        key: (key ??= ServiceSigningKey.load({ mnemonic: config.userActionSigningMnemonic, dataDir: config.dataDir })),
        replay: (replay ??= await ReplayGuard.open(store, USED_CHALLENGES)),
      }),
    });
    const dispatching: PollingLoop = startPollingLoop(
      async () => {
        // a long backlog is read a page budget per run: go round again at once
        if ((await dispatcher.catchUp()).more) dispatching.wake();
      },
      DISPATCH_EVERY_MS,
      warn("dispatching"),
    );
    return new WebhookRuntime(management, dispatcher, deliverer, dispatching);
  }

  /** The log grew: match the new events to the endpoints (coalesced; never waits). */
  logGrew(): void {
    this.dispatching.wake();
  }

  /** Stops dispatching and delivering (waiting for the attempts in flight) and lets go of the dispatcher's lease. */
  async stop(): Promise<void> {
    await this.dispatching.stop();
    await this.deliverer.stop();
    await this.dispatcher.release();
  }
}

/** The log's event for a disabled endpoint: public, so neither its URL nor its owner. */
function disabledEvent(n: EndpointDisabledNotice) {
  return {
    key: `endpoint.disabled:${n.endpointId}:${n.at}`,
    type: "endpoint.disabled" as const,
    timestamp: new Date(n.at).toISOString(),
    block: null,
    subjects: [`endpoint:${n.endpointId}`],
    data: { endpointId: n.endpointId, reason: n.reason, consecutiveFailures: n.consecutiveFailures },
  };
}

type WebhookCtx = Context<Record<string, unknown>, { webhookOwner?: string; clientKey?: string; $statusCode?: number }>;

type WebhookActionName =
  | "webhookChallenge"
  | "registerWebhook"
  | "listWebhooks"
  | "getWebhook"
  | "deleteWebhook"
  | "rotateWebhookSecret"
  | "enableWebhook"
  | "webhookDeadLetters"
  | "replayWebhook";

/** The webhook routes' actions of the events service (shared/gateway/routes/webhooks.ts). */
export function webhookRouteActions(runtime: () => WebhookRuntime | undefined): Pick<RouteActions<"events">, WebhookActionName> {
  const management = (): WebhookManagement => {
    const running = runtime();
    if (running === undefined) throw stillStarting("events");
    return running.management;
  };
  const caller = (ctx: WebhookCtx): Caller => ({
    ...(ctx.meta.webhookOwner !== undefined ? { owner: ctx.meta.webhookOwner } : {}),
    ...(ctx.meta.clientKey !== undefined ? { clientKey: ctx.meta.clientKey } : {}),
  });
  return {
    webhookChallenge: { handler: (ctx: WebhookCtx) => management().challenge(ctx.params) },
    registerWebhook: {
      async handler(ctx: WebhookCtx) {
        const answer = await management().register(ctx.params, caller(ctx));
        ctx.meta.$statusCode = 201;
        return answer;
      },
    },
    listWebhooks: { handler: (ctx: WebhookCtx) => management().list(ctx.params, caller(ctx)) },
    getWebhook: { handler: (ctx: WebhookCtx) => management().get(ctx.params, caller(ctx)) },
    deleteWebhook: { handler: (ctx: WebhookCtx) => management().delete(ctx.params, caller(ctx)) },
    rotateWebhookSecret: { handler: (ctx: WebhookCtx) => management().rotateSecret(ctx.params, caller(ctx)) },
    enableWebhook: { handler: (ctx: WebhookCtx) => management().enable(ctx.params, caller(ctx)) },
    webhookDeadLetters: { handler: (ctx: WebhookCtx) => management().deadLetters(ctx.params, caller(ctx)) },
    replayWebhook: { handler: (ctx: WebhookCtx) => management().replay(ctx.params, caller(ctx)) },
  };
}
