/**
 * The public HTTP gateway (moleculer-web) at `/api/v1`. Everything it serves comes from the route table in
 * shared/gateway/routes/: implemented routes call their action, the others answer 501 NOT_IMPLEMENTED.
 * Its own actions: the OpenAPI document, the AsyncAPI document of the events published on NATS, and the extension
 * registry. Next to the API, at the web root, it serves the web pages (shared/web-pages, docs/web-pages.md).
 */
import type { Server } from "node:http";
import type { Context, ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import type { ApiSettingsSchema } from "moleculer-web";
import pkg from "../package.json";
import type { AppConfig } from "../shared/config/config";
import type { DataHash } from "../shared/domain/hex";
import { BODY_LIMIT_BYTES } from "../shared/gateway/body-reader";
import { answerClientErrorsWithJson } from "../shared/gateway/client-error";
import { answerFromMemory } from "../shared/gateway/answer-from-memory";
import { createAccessLog } from "../shared/gateway/access-log";
import { createLogTileHandler } from "../shared/gateway/log-tiles";
import { EventStreams } from "../shared/gateway/event-stream";
import type { GatewayThis } from "../shared/gateway/gateway-request";
import { applyServerTimeouts, buildGatewaySettings, type GatewayOptions } from "../shared/gateway/gateway-settings";
import { buildOpenApiDocument } from "../shared/gateway/openapi";
import { buildAsyncApiDocument } from "../shared/gateway/asyncapi";
import { defineRouteActions, internalActions } from "../shared/gateway/route-actions";
import { ROUTES } from "../shared/gateway/routes";
import { findHealthMiddleware, PROTOCOL_DEPLOYMENT_CHECK } from "../shared/mesh/health-middleware";
import { whenIndexerAvailable } from "../shared/mesh/indexer-availability";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { networkIdOfNetwork } from "../shared/config/network";
import { loadWebAssets } from "../shared/web-pages/assets";
import { attachPageHandler, createPageHandler, type ShortLinkAnswer } from "../shared/web-pages/page-server";
import type { CertificateRecord } from "../shared/verifier/certificate-projection";
import { ValidatorFollower } from "../shared/gateway/validator-follower";
import { ReadRateLimit } from "../shared/gateway/rate-limiter";
import { EXTENSION_SERVICES } from "../shared/extensions/registry";

/** Tiles the gateway keeps in memory: 4,096 full tiles (they never change). */
const LOG_TILE_CACHE_BYTES = 32 * 1024 * 1024;

export function gatewayOptionsFromConfig(config: AppConfig, now: () => number): GatewayOptions {
  return {
    port: config.port,
    host: config.host,
    routes: ROUTES,
    namespace: config.namespace,
    corsOrigins: config.corsOrigins,
    rateLimitPostPerMinute: config.rateLimitPostPerMinute,
    rateLimitReadPerMinute: config.rateLimitReadPerMinute,
    trustProxy: config.trustProxy,
    adminApiKey: config.adminApiKey,
    calendarApiKeys: config.batchCalendar.apiKeys,
    adminOpenWithoutKey: config.network === "devnet",
    logRequests: config.logLevel === "debug" || config.logLevel === "trace",
    accessLog: config.accessLog && ["info", "debug", "trace"].includes(config.logLevel),
    answerCacheBytes: config.verifyCacheMb * 1024 * 1024,
    eventStreams: { maxStreams: config.events.maxStreams, maxStreamsPerClient: config.events.maxStreamsPerClient },
    now,
  };
}

/** What the web pages need to know; without it the gateway serves the API only. */
export interface WebPagesSettings {
  network: string;
  networkId: number;
  /** A public explorer's transaction page, `{tx}` for the id (EXPLORER_URL); null: no explorer links. */
  explorerUrl: string | null;
  /** The service's own faucet runs (FAUCET_ENABLED): the devnet's unfunded wallets are pointed at it. */
  faucetEnabled: boolean;
  /** Base of short links (`<base>/<code>`): SHORT_LINK_DOMAIN. */
  shortLinkBase: string;
  /** The clock: a certificate page follows its hash while the newest anchor is recent (default `Date.now`). */
  now?: () => number;
  /** TRUST_PROXY: whose `X-Forwarded-Proto` names the scheme of the pages' absolute links. */
  trustProxy?: number;
}

export function webPagesFromConfig(config: AppConfig, now: () => number): WebPagesSettings {
  return {
    network: config.network,
    networkId: networkIdOfNetwork(config.network),
    explorerUrl: config.explorerUrl,
    faucetEnabled: config.faucet.enabled,
    shortLinkBase: config.shortLinkDomain,
    now,
    trustProxy: config.trustProxy,
  };
}

/** Every certificate of a hash through the action behind `GET /api/v1/verify/{hash}`; [] for its 404. */
async function certificatesOf(broker: Context["broker"], hash: DataHash): Promise<CertificateRecord[]> {
  try {
    return await broker.call<CertificateRecord[], { hash: string }>("verifier.byHash", { hash });
  } catch (err) {
    if ((err as { type?: unknown }).type === "NOT_FOUND") return [];
    throw err;
  }
}

/** The short-link code bound to a hash through the action behind `GET /api/v1/short-link/{hash}`; undefined for its 404. */
async function shortCodeOf(broker: Context["broker"], hash: DataHash): Promise<string | undefined> {
  try {
    return (await broker.call<{ code: string }, { hash: string }>("verifier.shortLink", { hash })).code;
  } catch (err) {
    if ((err as { type?: unknown }).type === "NOT_FOUND") return undefined;
    throw err;
  }
}

/**
 * A short link's page through the action behind `GET /api/v1/resolve/{code}`, with the status and headers it sets
 * (the action answers its own 404 page for an unknown code).
 */
async function shortLinkAnswerOf(
  broker: Context["broker"],
  code: string,
  query: ReadonlyArray<[string, string]>,
): Promise<ShortLinkAnswer> {
  // The router merges the query into the params, a repeated parameter as a list: the same here.
  const params: Record<string, string | string[]> = {};
  for (const [k, v] of query) {
    const had = params[k];
    params[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  const call = broker.call<string, Record<string, unknown>>("verifier.resolve", { ...params, code });
  const html = await call;
  const meta = ((call as unknown as { ctx?: { meta?: ResolveMeta } }).ctx?.meta ?? {}) as ResolveMeta;
  const { "Content-Security-Policy": contentSecurityPolicy = "default-src 'none'", ...headers } = meta.$responseHeaders ?? {};
  return { status: meta.$statusCode ?? 200, html, contentSecurityPolicy, headers };
}
type ResolveMeta = { $statusCode?: number; $responseHeaders?: Record<string, string> };

export function createGatewayService(opts: GatewayOptions, pages?: WebPagesSettings): ServiceSchema<ApiSettingsSchema> {
  // The certificate validators the gateway remembers, kept true from the indexer's fact log.
  const follower = new ValidatorFollower(opts.answerCacheBytes ?? 0);
  const validators = follower.validators;
  // One read budget for both ways a read is answered: from memory, and through the router.
  const readLimit = new ReadRateLimit({ limitPerMinute: opts.rateLimitReadPerMinute ?? 0, trustProxy: opts.trustProxy, now: opts.now });
  const notified = (ctx: Context<{ height?: unknown; lastSeq?: unknown }>) => follower.noteChainEvent(ctx.params);
  // GET /events, answered as Server-Sent Events before the router (docs/events.md)
  let streams: EventStreams | undefined;
  const openapi = buildOpenApiDocument(opts.routes, {
    title: "cert-anchor API",
    version: pkg.version,
    adminKeyConfigured: opts.adminApiKey !== null,
    rateLimitPostPerMinute: opts.rateLimitPostPerMinute,
    ...(opts.rateLimitReadPerMinute !== undefined ? { rateLimitReadPerMinute: opts.rateLimitReadPerMinute } : {}),
    bodyLimitBytes: opts.bodyLimitBytes ?? BODY_LIMIT_BYTES,
  });
  const asyncapi = buildAsyncApiDocument({ title: "cert-anchor chain events", version: pkg.version, namespace: opts.namespace });

  return {
    name: "gateway",
    mixins: [ApiGateway],
    settings: buildGatewaySettings({
      ...opts,
      validators,
      readLimit,
      protocolDeploying: async (broker) => (await findHealthMiddleware(broker)?.isFailing(PROTOCOL_DEPLOYMENT_CHECK)) ?? false,
    }),
    events: {
      // Bypass the bulkhead: a burst of blocks must never be rejected.
      "chain.block": { bulkhead: { enabled: false }, handler: notified } as never,
      "chain.rollback": { bulkhead: { enabled: false }, handler: notified } as never,
      "events.appended": {
        bulkhead: { enabled: false },
        handler: (ctx: Context<{ lastId?: unknown }>) => void (typeof ctx.params.lastId === "string" && streams?.notify(ctx.params.lastId)),
      } as never,
    },
    actions: {
      // The HTTP entry action must never be retried (it would re-run a consumed request), queued by the
      // bulkhead (it would cap HTTP concurrency), or tripped by the circuit breaker (it fails when callees do).
      rest: {
        retryPolicy: { enabled: false },
        bulkhead: { enabled: false },
        circuitBreaker: { enabled: false },
      } as never,
      // Read the fact log now (confirm calls it on every replica before answering 200: read-your-writes also holds
      // for the ETags this gateway remembers).
      ...internalActions({
        sync: { handler: () => validators.catchUp() },
        // How often full verify answers came from memory, and how much it holds (benchmarks, operators).
        answerCacheStats: { handler: () => validators.stats() },
      }),
      ...defineRouteActions("gateway", {
        openapi: {
          handler: () => openapi,
        },
        asyncapi: {
          handler: () => asyncapi,
        },
        extensions: {
          handler(this: { broker: Context["broker"] }) {
            const registry = this.broker.registry as unknown as { hasService(name: string): boolean };
            return Object.fromEntries(Object.entries(EXTENSION_SERVICES).map(([id, service]) => [id, registry.hasService(service)]));
          },
        },
      }),
    },
    created() {
      // Runs after moleculer-web's own `created`, which made the server.
      const self = this as unknown as { server?: Server; broker: Context["broker"]; logger: Context["broker"]["logger"] };
      follower.attach(self.broker);
      const server = self.server;
      if (server) {
        answerClientErrorsWithJson(server);
        applyServerTimeouts(server, opts);
      }
      if (server && pages) {
        const handler = createPageHandler({
          ...pages,
          lookup: (hash) => certificatesOf(self.broker, hash),
          shortCode: (hash) => shortCodeOf(self.broker, hash),
          resolveShortLink: (code, query) => shortLinkAnswerOf(self.broker, code, query),
          readBudget: (req, res) => {
            const refusal = readLimit.check(req, res);
            return refusal === undefined ? undefined : (refusal.data as { retryAfterSeconds: number }).retryAfterSeconds;
          },
          assets: loadWebAssets,
          onError: (err) => self.logger.warn("Page request failed", { message: err instanceof Error ? err.message : String(err) }),
        });
        attachPageHandler(server, handler);
      }
      if (server) {
        streams = new EventStreams({
          broker: self.broker,
          ...(opts.eventStreams ?? { maxStreams: 1000, maxStreamsPerClient: 10 }),
          trustProxy: opts.trustProxy,
          corsOrigins: opts.corsOrigins,
          readLimit,
        });
        attachPageHandler(server, streams.handle);
      }
      // The transparency log's checkpoint and tiles (docs/transparency-log.md#tiles).
      if (server) attachPageHandler(server, createLogTileHandler({ broker: this.broker, cacheBytes: LOG_TILE_CACHE_BYTES }));
      // Verify requests the gateway can answer from memory go first (docs/api.md#caching).
      if (server)
        attachPageHandler(server, (req, res) => answerFromMemory(this as unknown as GatewayThis, validators, req, res, readLimit));
      // Attached last, so it runs first: every request, whoever answers it, gets its record.
      if (server && opts.accessLog)
        attachPageHandler(
          server,
          createAccessLog((record) => self.logger.info("request", record)),
        );
    },
    async started() {
      // Build (or read) the page assets now, so a broken bundle fails the start instead of the first visitor.
      if (pages) await loadWebAssets();
      follower.start(() => whenIndexerAvailable(this.broker, "gateway"));
    },
    stopped() {
      follower.stop();
      streams?.close();
    },
    methods: {
      // moleculer-web's default logs err.data of 5xx errors; ours logs (without bodies) in onError.
      errorHandler(this: { sendError(req: unknown, res: unknown, err: unknown): void }, req: unknown, res: unknown, err: unknown) {
        this.sendError(req, res, err);
      },
    },
  };
}

export default (deps: ServiceDeps) =>
  createGatewayService(gatewayOptionsFromConfig(deps.config, deps.now), webPagesFromConfig(deps.config, deps.now));
