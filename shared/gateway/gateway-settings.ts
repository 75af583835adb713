/**
 * Builds the moleculer-web settings of the gateway from the route table: one route at `/api/v1` with explicit
 * aliases (no autoAliases, `mappingPolicy: "restrict"`, whitelist = the table's actions), our own body reader,
 * POST and read rate limits, CORS, admin-key check, and one error writer for every error (docs/api.md#errors wire
 * shape).
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Errors, type Service } from "moleculer";
import type { ApiRouteSchema, ApiSettingsSchema } from "moleculer-web";
import type { AppConfig } from "../config/config";
import { BODY_LIMIT_BYTES, createBodyReader, type BodyState, type RouteBodyPolicy } from "./body-reader";
import { DomainError, TypedError } from "../domain/errors";
import { findHealthMiddleware, PROTOCOL_DEPLOYMENT_CHECK } from "../mesh/health-middleware";
import { toHttpErrorReply, type HttpErrorReply } from "./error-mapping";
import { httpStatusOfError } from "./http-status";
import { AdminDisabledError, InvalidBodyError, NotImplementedError, UnauthorizedError } from "./errors";
import { API_PREFIX, toAliasPath } from "./openapi";
import { clientIp, clientKey, createPostRateLimit, ReadRateLimit } from "./rate-limiter";
import { ABORT_KEY_META, announceWhenGone } from "./request-gone";
import { serviceOfAction, type RouteSpec } from "./routes";
import {
  certificateCacheControl,
  ifNoneMatchNames,
  LOOKUP_CACHE_CONTROL,
  lookupEtag,
  newestHeightOf,
  NOT_FOUND_CACHE_CONTROL,
  validatorKeyOf,
  type CertificateAnswerMeta,
} from "./read-caching";
import { answerBody, type ValidatorCache } from "./validator-cache";

export interface GatewayOptions {
  port: number;
  host: string;
  routes: readonly RouteSpec[];
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
  /** Remembered certificate answers: verify requests answer from here (validator-cache.ts). */
  validators?: ValidatorCache;
  /** Byte budget of the remembered verify answers (VERIFY_CACHE_MB); 0 remembers validators only. */
  answerCacheBytes?: number;
}

export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 10_000;

/** The fields moleculer-web leaves on a request that our hooks read. */
type GatewayRequest = IncomingMessage &
  BodyState & {
    $params: Record<string, unknown>;
    $alias?: { routeSpec?: RouteSpec };
    $route?: { cors?: unknown };
    parsedUrl?: string;
    originalUrl?: string;
  };

interface AliasLike {
  method: string;
  routeSpec?: RouteSpec;
  match(url: string): unknown;
}

/** The gateway service instance, as far as the error writer needs it. */
export type GatewayThis = Service & {
  aliases: AliasLike[];
  /** moleculer-web's own alias lookup, the one its router uses */
  resolveAlias(url: string, method: string): { alias: AliasLike; params: Record<string, unknown> } | false;
  writeCorsHeaders(route: unknown, req: IncomingMessage, res: ServerResponse, isPreFlight: boolean): void;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A request's resolved route, kept so the hooks resolve each request once (null: no route). */
const RESOLVED_ROUTE = Symbol("resolvedRoute");

/** The route the router itself resolves for a request (for a CORS preflight: for the method it announces). */
function routeSpecOf(service: GatewayThis, req: IncomingMessage): RouteSpec | undefined {
  const memo = req as IncomingMessage & { [RESOLVED_ROUTE]?: RouteSpec | null };
  const known = memo[RESOLVED_ROUTE];
  if (known !== undefined) return known ?? undefined;
  const greq = req as GatewayRequest;
  const method = req.method === "OPTIONS" ? String(req.headers["access-control-request-method"] ?? "") : (req.method ?? "GET");
  const found = service.resolveAlias(greq.parsedUrl ?? (req.url ?? "/").split("?")[0]!, method);
  const spec = found === false ? undefined : found.alias.routeSpec;
  memo[RESOLVED_ROUTE] = spec ?? null;
  return spec;
}

/** The methods the route table serves on a path, for `Allow` headers. */
function allowedMethods(service: GatewayThis, path: string): string[] {
  return [...new Set(service.aliases.filter((a) => a.match(path) !== false).map((a) => a.method))];
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A name for an API key that says nothing of the key: the first 16 hex digits of its SHA-256. */
export function apiKeyIdOf(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

function presentedApiKey(req: IncomingMessage): string | undefined {
  const header = req.headers["x-api-key"];
  if (typeof header === "string" && header !== "") return header;
  const auth = req.headers.authorization;
  if (typeof auth === "string" && auth.startsWith("Bearer ")) return auth.slice(7).trim();
  return undefined;
}

function writeReply(res: ServerResponse, reply: HttpErrorReply): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.statusCode = reply.status;
  for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** Builds the reply for an error, turning the gateway's own "no alias" 404 into 404/405 naming the route. */
function replyFor(service: GatewayThis, req: GatewayRequest, err: unknown): HttpErrorReply {
  const reply = toHttpErrorReply(err);
  const e = err as { name?: unknown; type?: unknown };
  const noRoute = reply.status === 404 && e.name === "NotFoundError" && req.$alias === undefined;
  // A cacheable thing not found now may exist in the next block: never stored.
  if (reply.status === 404 && req.$alias?.routeSpec?.cache !== undefined) {
    return { ...reply, headers: { ...reply.headers, "Cache-Control": NOT_FOUND_CACHE_CONTROL } };
  }
  if (!noRoute) return reply;
  const path = req.parsedUrl ?? (req.url ?? "/").split("?")[0]!;
  const allowed = allowedMethods(service, path);
  if (allowed.length > 0 && !allowed.includes(req.method ?? "")) {
    return {
      status: 405,
      body: { error: "METHOD_NOT_ALLOWED", message: `${req.method} is not allowed on ${path}; use ${allowed.join(", ")}.` },
      headers: { Allow: allowed.join(", ") },
      log: null,
    };
  }
  return { ...reply, body: { error: "NOT_FOUND", message: `No route ${req.method} ${path}.` } };
}

/** A connected-goods read carries the item id, or the claiming password itself, as its last segment: never log it. */
export function redactPath(method: string | undefined, path: string): string {
  return method === "GET" ? path.replace(/(\/extension\/connected-goods\/[^/]+\/)[^/]+$/, "$1<itemId>") : path;
}

/** Global error writer (moleculer-web `onError`): every error response of the gateway goes through here. */
function onError(this: GatewayThis, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  const greq = req as GatewayRequest;
  const reply = replyFor(this, greq, err);
  // Errors raised before moleculer-web's CORS step (rate limit, body) still need CORS headers to be readable.
  const corsRoute = greq.$route ?? { cors: (this.settings as ApiSettingsSchema).cors };
  try {
    if ((corsRoute as { cors?: unknown }).cors) this.writeCorsHeaders(corsRoute, req, res, false);
  } catch {
    // origin not allowed: answer without CORS headers
  }
  if (reply.log !== null) {
    const e = err as { name?: unknown; message?: unknown; type?: unknown; stack?: unknown };
    // Never the body or query: they may hold passwords or signatures.
    const entry = {
      method: req.method,
      path: redactPath(req.method, greq.parsedUrl ?? (req.url ?? "").split("?")[0] ?? ""),
      status: reply.status,
      name: e.name,
      type: e.type,
      message: e.message,
    };
    if (reply.log === "error") this.logger.error("Request failed", entry, e.stack);
    else this.logger.warn("Request failed", entry);
  }
  writeReply(res, reply);
}

function corsSettings(origins: AppConfig["corsOrigins"]): ApiSettingsSchema["cors"] {
  if (origins === null) return undefined;
  return {
    origin: origins === "*" ? "*" : [...origins],
    methods: ["GET", "HEAD", "POST", "OPTIONS"],
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

/**
 * Guards the admin routes before anything else looks at the request (moleculer-web resolves the target service
 * before `onBeforeCall`, which would tell an unauthenticated caller whether the service runs). Whether a request is
 * an admin request is decided from the route the router itself resolves for it (`auth: "admin"` in the route
 * table), so spelling the path another way (`/Admin/…`, `//admin`) cannot slip past.
 */
function createAdminGuard(adminApiKey: string | null, openWithoutKey: boolean) {
  return function adminGuard(this: GatewayThis, req: IncomingMessage, _res: ServerResponse, next: (err?: unknown) => void): void {
    if (routeSpecOf(this, req)?.auth !== "admin") return next();
    if (adminApiKey === null) return next(openWithoutKey ? undefined : new AdminDisabledError());
    const given = presentedApiKey(req);
    if (given === undefined || !sameSecret(given, adminApiKey)) return next(new UnauthorizedError());
    next();
  };
}

/**
 * HTTP method semantics moleculer-web lacks:
 * - OPTIONS never runs a route's handler. With CORS on, a preflight (it names Access-Control-Request-Method) is
 *   left to moleculer-web's CORS step; any other OPTIONS answers 204 with the methods the path serves.
 * - HEAD answers what GET would, headers only. moleculer-web would end a HEAD answer without its Content-Length:
 *   it writes the GET answer instead, and Node leaves the body out (the response knows it answers a HEAD).
 */
function createMethodSemantics(corsEnabled: boolean) {
  return function methodSemantics(this: GatewayThis, req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    if (req.method === "HEAD") {
      req.method = "GET";
      const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if ((typeof chunk === "string" || Buffer.isBuffer(chunk)) && !res.headersSent && !res.hasHeader("Content-Length")) {
          res.setHeader("Content-Length", Buffer.byteLength(chunk));
        }
        return end(chunk, ...rest);
      }) as ServerResponse["end"];
      return next();
    }
    if (req.method !== "OPTIONS") return next();
    if (corsEnabled && req.headers["access-control-request-method"] !== undefined) return next();
    const greq = req as GatewayRequest;
    const allowed = allowedMethods(this, greq.parsedUrl ?? (req.url ?? "/").split("?")[0]!);
    res.writeHead(204, { Allow: [...allowed, "OPTIONS"].join(", "), "Content-Length": "0" });
    res.end();
  };
}

const VERIFY_PREFIX = `${API_PREFIX}/verify/`;
const HEX_SEGMENT = /^[0-9A-Fa-f]+$/;
type ResolvedAlias = ReturnType<GatewayThis["resolveAlias"]>;
/** Per gateway: the alias every one-segment hex path under /verify/ resolves to, or false when that is not certain. */
const hexVerifyAliasOf = new WeakMap<object, ResolvedAlias>();

/**
 * The router's alias for a `/verify/…` path, without its walk through every alias for the most common shape: one
 * segment of hex digits can only resolve to `/verify/{hash}` when that is the table's only route of one segment
 * under `/verify/` and no route starts with a parameter (checked once per gateway; otherwise the router decides).
 */
function resolveVerifyPath(service: Pick<GatewayThis, "aliases" | "resolveAlias">, url: string): ResolvedAlias {
  const rest = url.slice(VERIFY_PREFIX.length);
  if (!HEX_SEGMENT.test(rest)) return service.resolveAlias(url, "GET");
  let hexAlias = hexVerifyAliasOf.get(service);
  if (hexAlias === undefined) {
    const paths = service.aliases.map((a) => a.routeSpec?.path);
    const oneSegment = paths.filter((p) => p === undefined || p.startsWith("/{") || /^\/verify\/[^/]+$/.test(p));
    const probe = service.resolveAlias(`${VERIFY_PREFIX}00`, "GET");
    const certain = oneSegment.every((p) => p === "/verify/{hash}") && probe !== false && probe.alias.routeSpec?.path === "/verify/{hash}";
    hexAlias = certain ? probe : false;
    hexVerifyAliasOf.set(service, hexAlias);
  }
  return hexAlias === false ? service.resolveAlias(url, "GET") : { alias: hexAlias.alias, params: { hash: rest } };
}

/** The request id moleculer-web would answer with: the caller's `X-Request-ID` or `X-Correlation-ID`, else a new one. */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-correlation-id"] ?? req.headers["x-request-id"];
  return typeof given === "string" ? given : randomUUID();
}

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * Answers a GET (or HEAD) of a certificate answer from the gateway's memory (validator-cache.ts), without an action
 * call or the store: 304 when If-None-Match names the remembered validator, else the remembered 200 answer when the
 * byte budget kept it. Runs on the HTTP server before moleculer-web's router (a profile showed the router costing
 * as much as the rest of the answer), so it only takes plain paths the router itself resolves to a certificate
 * route, and writes what the router would: CORS headers, `ETag`, `Cache-Control`, `X-Request-ID`, JSON with its
 * length. Anything else — including an Origin CORS refuses — returns false and goes the usual way.
 * @returns whether the request was answered
 */
export function answerFromMemory(
  service: Pick<GatewayThis, "aliases" | "resolveAlias" | "writeCorsHeaders">,
  validators: ValidatorCache,
  req: IncomingMessage,
  res: ServerResponse,
  reads?: ReadRateLimit,
): boolean {
  if ((req.method !== "GET" && req.method !== "HEAD") || !validators.started) return false;
  const url = req.url ?? "";
  if (!url.startsWith(`${API_PREFIX}/verify/`) || url.includes("?") || url.includes("%") || url.endsWith("/")) return false;
  const found = resolveVerifyPath(service, url);
  if (found === false) return false;
  const kind = found.alias.routeSpec?.cache;
  const key = validatorKeyOf(kind, found.params);
  if (!key) return false;
  const condition = req.headers["if-none-match"];
  let known = condition === undefined ? undefined : validators.find(key.dataHash, key.routeKey);
  const notModified = known !== undefined && ifNoneMatchNames(condition, known.etag);
  if (!notModified) known = validators.findAnswer(key.dataHash, key.routeKey);
  if (!known) return false;
  // Over the read budget: the router answers the 429 (the decision is kept on the request, counted once).
  if (found.alias.routeSpec?.readBudget === true && reads?.check(req, res) !== undefined) return false;
  const route = (found.alias as AliasLike & { route?: { cors?: unknown } }).route;
  if (route?.cors && req.headers.origin !== undefined) {
    try {
      // `true`: every CORS header, as moleculer-web's router writes them on every answer.
      service.writeCorsHeaders(route, req, res, true);
    } catch {
      return false; // origin not allowed: the router answers 403
    }
  }
  const cacheControl = certificateCacheControl(kind as "certificate-list" | "certificate-record", known.newestHeight, validators.tipHeight);
  if (notModified) {
    res.writeHead(304, { ETag: known.etag, "Cache-Control": cacheControl, "X-Request-ID": requestIdOf(req) });
    res.end();
    return true;
  }
  const body = known.body!;
  res.writeHead(200, {
    "Content-Type": JSON_CONTENT_TYPE,
    "Content-Length": body.length,
    ETag: known.etag,
    "Cache-Control": cacheControl,
    "X-Request-ID": requestIdOf(req),
  });
  // Node leaves the body of a HEAD answer out.
  res.end(body);
  return true;
}

/**
 * After a cacheable route's call: its `Cache-Control`, a lookup's ETag, the certificate validator to remember,
 * and 304 when the request's If-None-Match names the ETag. (moleculer-web's own check ignores a conditional request
 * that also says `Cache-Control: no-cache`, which fetch() adds to every request with If-None-Match; an origin server
 * answers the condition whatever the request's cache directives, RFC 9110 §13.2.1.)
 */
function afterCall(validators: ValidatorCache | undefined) {
  return function onAfterCall(
    this: Service,
    ctx: { meta: CertificateAnswerMeta & { $statusCode?: number; $responseType?: string } },
    _route: unknown,
    req: IncomingMessage,
    res: ServerResponse,
    data: unknown,
  ): unknown {
    const greq = req as GatewayRequest;
    const kind = greq.$alias?.routeSpec?.cache;
    if (kind === undefined) return data;
    const condition = req.headers["if-none-match"];
    if (kind === "lookup") {
      const etag = lookupEtag(data);
      ctx.meta.$responseHeaders = { ...ctx.meta.$responseHeaders, ETag: etag };
      res.setHeader("Cache-Control", LOOKUP_CACHE_CONTROL);
      if (ifNoneMatchNames(condition, etag)) ctx.meta.$statusCode = 304;
      return data;
    }
    const etag = ctx.meta.$responseHeaders?.["ETag"];
    const newestHeight = newestHeightOf(data);
    if (etag === undefined || newestHeight === undefined) return data;
    res.setHeader("Cache-Control", certificateCacheControl(kind, newestHeight, validators?.tipHeight));
    const key = validatorKeyOf(kind, greq.$params);
    const notModified = ifNoneMatchNames(condition, etag);
    if (notModified) ctx.meta.$statusCode = 304;
    if (!validators || !key || ctx.meta.$factSeq === undefined) return data;
    if (!validators.keepsAnswers || notModified) {
      validators.remember(key.dataHash, key.routeKey, { etag, newestHeight }, ctx.meta.$factSeq);
      return data;
    }
    // The JSON text is made once: sent now, and remembered for the next GET of the same answer.
    const body = answerBody(data);
    ctx.meta.$responseType = JSON_CONTENT_TYPE;
    validators.remember(key.dataHash, key.routeKey, { etag, newestHeight, body }, ctx.meta.$factSeq);
    return body;
  };
}

/**
 * The checks that need the matched route: admin key, body shape, whole-body params, fixed params. Also hands the
 * client's address (behind the trusted proxies) to the action in `meta.clientIp`, and the key per-client limits
 * count it under (IPv6 by /64) in `meta.clientKey`; for an `abandonable` route, `meta.abortKey` names the request
 * the gateway announces gone if the client leaves before the answer (request-gone.ts); and the id of a calendar
 * API key presented in `meta.calendarKeyId`.
 */
function beforeCall(adminApiKey: string | null, calendarApiKeys: readonly string[], trustProxy: number) {
  return async function onBeforeCall(
    this: Service,
    ctx: { id: string; meta: Record<string, unknown> },
    _route: unknown,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const greq = req as GatewayRequest;
    ctx.meta["clientIp"] = clientIp(req, trustProxy);
    ctx.meta["clientKey"] = clientKey(req, trustProxy);
    // Which calendar API key the caller presented, if any (the calendar serves mainnet only to their holders, and
    // counts each key's pending leaves apart). Only the key's id travels, never the key.
    const presented = presentedApiKey(req);
    const calendarKey = presented === undefined ? undefined : calendarApiKeys.find((k) => sameSecret(presented, k));
    if (calendarKey !== undefined) ctx.meta["calendarKeyId"] = apiKeyIdOf(calendarKey);
    const spec = greq.$alias?.routeSpec;
    if (spec === undefined) return;
    if (spec.abandonable === true) {
      ctx.meta[ABORT_KEY_META] = ctx.id;
      announceWhenGone(this.broker, res, ctx.id, serviceOfAction(spec.action));
    }
    // On a fresh embedded devnet the first start deploys the protocol right after the API opens: until that is
    // indexed, a build would only fail with a misleading message.
    if (spec.requiresProtocol && (await findHealthMiddleware(this.broker)?.isFailing(PROTOCOL_DEPLOYMENT_CHECK))) {
      throw new DomainError(
        "PROTOCOL_DEPLOYING",
        "The protocol is being deployed on this fresh devnet (first start); retry in a few seconds.",
        {},
        { retryable: true },
      );
    }
    if (spec.auth === "admin" && adminApiKey !== null) {
      const given = presentedApiKey(req);
      if (given === undefined || !sameSecret(given, adminApiKey)) throw new UnauthorizedError();
    }
    if (spec.binaryBodyAs !== undefined && greq.$binaryBody !== undefined) {
      greq.$params[spec.binaryBodyAs] = greq.$binaryBody;
    } else if (spec.wholeBodyAs !== undefined) {
      const value = greq.$bodyError !== undefined ? greq.$rawBody : greq.body;
      if (value !== undefined) greq.$params[spec.wholeBodyAs] = value;
    } else if (greq.$bodyError !== undefined) {
      throw greq.$bodyError;
    } else if (greq.body !== undefined && !isPlainObject(greq.body)) {
      throw new InvalidBodyError("Request body must be a JSON object.");
    }
    if (spec.fixedParams !== undefined) Object.assign(greq.$params, spec.fixedParams);
  };
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

type Middleware = (this: unknown, req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** The GET budget of the routes the table marks `readBudget` (rate-limiter.ts). */
function createReadRateLimit(reads: ReadRateLimit) {
  return function readRateLimit(this: GatewayThis, req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    if (req.method !== "GET" || !reads.enabled || routeSpecOf(this, req)?.readBudget !== true) return next();
    next(reads.check(req, res));
  };
}

/**
 * moleculer-web rebuilds an error handed to a middleware's `next` as a MoleculerError and drops its `data` unless
 * it is one already; this hands ours over as MoleculerErrors with type, data and the status of our table.
 */
function keepingErrorData(mw: Middleware): Middleware {
  // `this` is the gateway service, as moleculer-web calls its middlewares.
  return function (this: unknown, req, res, next) {
    mw.call(this, req, res, (err) => {
      if (!(err instanceof TypedError)) return next(err);
      const e = new Errors.MoleculerError(err.message, httpStatusOfError(err), err.type, err.data);
      e.name = err.name;
      next(e);
    });
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
      // Rate limit next, so a rejected request's body is never read.
      createPostRateLimit({ limitPerMinute: opts.rateLimitPostPerMinute, trustProxy: opts.trustProxy, now: opts.now }),
      createReadRateLimit(reads),
      readBodyForRoute(opts.bodyLimitBytes ?? BODY_LIMIT_BYTES),
    ].map(keepingErrorData) as unknown as ApiRouteSchema["use"],
    onBeforeCall: beforeCall(opts.adminApiKey, opts.calendarApiKeys ?? [], opts.trustProxy) as unknown as ApiRouteSchema["onBeforeCall"],
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
