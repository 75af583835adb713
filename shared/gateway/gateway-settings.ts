/**
 * Builds the moleculer-web settings of the gateway from the route table: one route at `/api/v1` with explicit
 * aliases (no autoAliases, `mappingPolicy: "restrict"`, whitelist = the table's actions), our own body reader,
 * POST and read rate limits, CORS, admin-key check, the webhook routes' management token, and one error writer for every error (docs/api.md#errors wire
 * shape).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ServiceBroker } from "moleculer";
import type { ApiRouteSchema, ApiSettingsSchema } from "moleculer-web";
import type { AppConfig } from "../config/config";
import { afterCall } from "./after-call";
import { createAdminGuard } from "./api-keys";
import { beforeCall } from "./before-call";
import { BODY_LIMIT_BYTES, createBodyReader, type RouteBodyPolicy } from "./body-reader";
import { keepingErrorData, onError } from "./error-writer";
import { NotImplementedError } from "./errors";
import { routeSpecOf, type GatewayThis } from "./gateway-request";
import { createMethodSemantics } from "./method-semantics";
import { API_PREFIX, toAliasPath } from "./openapi";
import { createPostRateLimit, ReadRateLimit } from "./rate-limiter";
import { serviceOfAction, type RouteSpec } from "./routes";
import type { ValidatorCache } from "./validator-cache";
import { createWebhookTokenGuard } from "./webhook-token";

export interface GatewayOptions {
  port: number;
  host: string;
  routes: readonly RouteSpec[];
  /** NAMESPACE: the first token of the published NATS subjects in `asyncapi.json` */
  namespace: string;
  corsOrigins: AppConfig["corsOrigins"];
  rateLimitPostPerMinute: number;
  /** GETs of `readBudget` routes allowed per client per minute (RATE_LIMIT_READ_PER_MINUTE); 0 or absent = no limit. */
  rateLimitReadPerMinute?: number;
  /** The read budget itself, when the caller shares it with `answerFromMemory` (else one is made from the above). */
  readLimit?: ReadRateLimit;
  /** trusted proxy hops (X-Forwarded-For) */
  trustProxy: number;
  adminApiKey: string | null;
  /** The calendar's API keys (BATCH_API_KEYS): a request presenting one reaches the calendar with that key's id. */
  calendarApiKeys?: readonly string[];
  /** Without a key, admin routes are open on the embedded devnet and forbidden on real networks. */
  adminOpenWithoutKey?: boolean;
  bodyLimitBytes?: number;
  /** the whole request, body included, must arrive within this (Node's default is 300 s) */
  requestTimeoutMs?: number;
  /** the request line and headers must arrive within this */
  headersTimeoutMs?: number;
  now: () => number;
  /** Log a line per request and response at debug (when LOG_LEVEL is debug or trace). */
  logRequests?: boolean;
  /** The access log: one `info` record per answered request (access-log.ts; ACCESS_LOG, when LOG_LEVEL lets info through). */
  accessLog?: boolean;
  /** Remembered certificate answers: verify requests answer from here (validator-cache.ts). */
  validators?: ValidatorCache;
  /** Byte budget of the remembered verify answers (VERIFY_CACHE_MB); 0 remembers validators only. */
  answerCacheBytes?: number;
  /** Limits of the Server-Sent Events streams (EVENTS_MAX_STREAMS, EVENTS_MAX_STREAMS_PER_CLIENT) and their heartbeat. */
  eventStreams?: { maxStreams: number; maxStreamsPerClient: number; heartbeatMs?: number; pollMs?: number };
  /** Whether the embedded first start is still deploying the protocol (`requiresProtocol` routes answer 503 meanwhile). */
  protocolDeploying?: (broker: ServiceBroker) => Promise<boolean>;
}

const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;

function corsSettings(origins: AppConfig["corsOrigins"]): ApiSettingsSchema["cors"] {
  if (origins === null) return undefined;
  return {
    origin: origins === "*" ? "*" : [...origins],
    methods: ["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
    allowedHeaders: ["Content-Type", "X-Api-Key", "Authorization", "X-Request-ID", "If-None-Match"],
    exposedHeaders: ["Retry-After", "X-Rate-Limit-Remaining", "X-Request-ID", "ETag"],
    // Credentials only with an explicit origin list ("*" with credentials is rejected by browsers).
    credentials: origins !== "*",
    maxAge: 600,
  };
}

function buildAliases(routes: readonly RouteSpec[]): NonNullable<ApiRouteSchema["aliases"]> {
  const aliases: NonNullable<ApiRouteSchema["aliases"]> = {};
  for (const spec of routes) {
    const key = `${spec.method} ${toAliasPath(spec.path)}`;
    if (aliases[key] !== undefined) throw new Error(`Route table has ${key} twice`);
    const fullPath = API_PREFIX + spec.path;
    const alias = spec.implemented
      ? { action: spec.action, routeSpec: spec }
      : {
          routeSpec: spec,
          handler(_req: IncomingMessage, _res: ServerResponse, next?: (err?: unknown) => void) {
            next?.(new NotImplementedError(spec.method, fullPath, serviceOfAction(spec.action)));
          },
        };
    aliases[key] = alias;
    // HEAD wherever GET: the same answer, whose body Node leaves out.
    if (spec.method === "GET") aliases[`HEAD ${toAliasPath(spec.path)}`] = alias;
  }
  return aliases;
}

/** The body reader, told by the resolved route what it accepts besides JSON, and its own limits. */
function readBodyForRoute(limitBytes: number) {
  let reader: ReturnType<typeof createBodyReader> | undefined;
  return function readBody(this: GatewayThis, req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    // `this` is the one gateway service: the reader is made once, on the first request.
    reader ??= createBodyReader(limitBytes, (r) => {
      const spec = routeSpecOf(this, r);
      const policy: RouteBodyPolicy = {
        acceptsRawText: spec?.wholeBodyAs !== undefined,
        acceptsOctetStream: spec?.binaryBodyAs !== undefined,
      };
      if (spec?.bodyLimitBytes !== undefined) policy.limitBytes = spec.bodyLimitBytes;
      return policy;
    });
    reader(req, res, next);
  };
}

/** The GET budget of the routes the table marks `readBudget` (rate-limiter.ts). */
function createReadRateLimit(reads: ReadRateLimit) {
  return function readRateLimit(this: GatewayThis, req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    if (req.method !== "GET" || !reads.enabled || routeSpecOf(this, req)?.readBudget !== true) return next();
    next(reads.check(req, res));
  };
}

/**
 * Timeouts moleculer-web does not set: the headers limit, and how often Node checks them (every 30 s by default,
 * which would let a 10 s limit stretch to 40 s). Call before the server listens.
 */
export function applyServerTimeouts(server: Server, opts: Pick<GatewayOptions, "headersTimeoutMs" | "requestTimeoutMs">): void {
  const headers = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  server.headersTimeout = headers;
  // A public property of http.Server read when it starts listening, missing from @types/node.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    100,
    Math.min(1_000, Math.floor(headers / 2)),
  );
}

/** moleculer-web settings for the gateway. */
export function buildGatewaySettings(opts: GatewayOptions): ApiSettingsSchema {
  const reads =
    opts.readLimit ?? new ReadRateLimit({ limitPerMinute: opts.rateLimitReadPerMinute ?? 0, trustProxy: opts.trustProxy, now: opts.now });
  const route: ApiRouteSchema = {
    path: "/",
    aliases: buildAliases(opts.routes),
    autoAliases: false,
    mappingPolicy: "restrict",
    whitelist: [...new Set(opts.routes.filter((r) => r.implemented).map((r) => r.action))],
    bodyParsers: false,
    mergeParams: true,
    use: [
      createMethodSemantics(opts.corsOrigins !== null),
      createAdminGuard(opts.adminApiKey, opts.adminOpenWithoutKey ?? true),
      createWebhookTokenGuard(),
      // Rate limit next, so a rejected request's body is never read.
      createPostRateLimit({ limitPerMinute: opts.rateLimitPostPerMinute, trustProxy: opts.trustProxy, now: opts.now }),
      createReadRateLimit(reads),
      readBodyForRoute(opts.bodyLimitBytes ?? BODY_LIMIT_BYTES),
    ].map(keepingErrorData) as unknown as ApiRouteSchema["use"],
    onBeforeCall: beforeCall({ ...opts, calendarApiKeys: opts.calendarApiKeys ?? [] }) as unknown as ApiRouteSchema["onBeforeCall"],
    onAfterCall: afterCall(opts.validators) as unknown as ApiRouteSchema["onAfterCall"],
    // moleculer-web formats a colored line for every response whenever `logging` is on, even when the level drops
    // it (a profile showed it on the verify path): on only when request lines are wanted.
    logging: opts.logRequests ?? false,
  };
  return {
    port: opts.port,
    ip: opts.host,
    path: API_PREFIX,
    server: true,
    routes: [route],
    cors: corsSettings(opts.corsOrigins),
    onError: onError as unknown as ApiSettingsSchema["onError"],
    requestTimeout: opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    qsOptions: { parameterLimit: 100, depth: 2, arrayLimit: 20 },
    // Per-request lines at debug, when `logRequests` (info costs ~35% throughput); params and data are never logged.
    logRequest: "debug",
    logResponse: "debug",
    logRequestParams: null,
    logResponseData: null,
    log4XXResponses: false,
    logRouteRegistration: "debug",
    // Explicit aliases exist at `created`; the debounce only matters for autoAliases (unused).
    debounceTime: 500,
  };
}
