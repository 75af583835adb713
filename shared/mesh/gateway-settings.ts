/**
 * Builds the moleculer-web settings of the gateway from the route table: one route at `/api/v1` with explicit
 * aliases (no autoAliases, `mappingPolicy: "restrict"`, whitelist = the table's actions), our own body reader and
 * POST rate limit, CORS, admin-key check, and one error writer for every error (decisions.md wire shape).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Service } from "moleculer";
import type { ApiRouteSchema, ApiSettingsSchema } from "moleculer-web";
import type { AppConfig } from "./config";
import { BODY_LIMIT_BYTES, createBodyReader, type BodyState } from "./body-reader";
import { toHttpErrorReply, type HttpErrorReply } from "./error-mapping";
import { AdminDisabledError, InvalidBodyError, NotImplementedError, UnauthorizedError } from "./errors";
import { API_PREFIX, toAliasPath } from "./openapi";
import { createPostRateLimit } from "./rate-limiter";
import { serviceOfAction, type RouteSpec } from "./routes";

export interface GatewayOptions {
  port: number;
  host: string;
  routes: readonly RouteSpec[];
  corsOrigins: AppConfig["corsOrigins"];
  rateLimitPostPerMinute: number;
  trustProxy: boolean;
  adminApiKey: string | null;
  /** Without a key, admin routes are open on the embedded devnet and forbidden on real networks. */
  adminOpenWithoutKey?: boolean;
  bodyLimitBytes?: number;
  now: () => number;
}

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
  match(url: string): unknown;
}

/** The gateway service instance, as far as the error writer needs it. */
type GatewayThis = Service & {
  aliases: AliasLike[];
  writeCorsHeaders(route: unknown, req: IncomingMessage, res: ServerResponse, isPreFlight: boolean): void;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
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
  if (!noRoute) return reply;
  const path = req.parsedUrl ?? (req.url ?? "/").split("?")[0]!;
  const allowed = [...new Set(service.aliases.filter((a) => a.match(path) !== false).map((a) => a.method))];
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
      path: greq.parsedUrl ?? (req.url ?? "").split("?")[0],
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
    methods: ["GET", "POST", "OPTIONS"],
    allowedHeaders: ["Content-Type", "X-Api-Key", "Authorization", "X-Request-ID"],
    exposedHeaders: ["Retry-After", "X-Rate-Limit-Remaining", "X-Request-ID"],
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
    if (spec.implemented) {
      aliases[key] = { action: spec.action, routeSpec: spec };
    } else {
      const fullPath = API_PREFIX + spec.path;
      aliases[key] = {
        routeSpec: spec,
        handler(_req: IncomingMessage, _res: ServerResponse, next?: (err?: unknown) => void) {
          next?.(new NotImplementedError(spec.method, fullPath, serviceOfAction(spec.action)));
        },
      };
    }
  }
  return aliases;
}

/**
 * Guards `/admin/*` before anything else looks at the request (moleculer-web resolves the target service before
 * `onBeforeCall`, which would tell an unauthenticated caller whether the service runs).
 */
function createAdminGuard(adminApiKey: string | null, openWithoutKey: boolean) {
  return function adminGuard(req: IncomingMessage, _res: ServerResponse, next: (err?: unknown) => void): void {
    const url = (req as GatewayRequest).originalUrl ?? req.url ?? "";
    if (!/^(\/api\/v1)?\/admin(\/|\?|$)/.test(url)) return next();
    if (adminApiKey === null) return next(openWithoutKey ? undefined : new AdminDisabledError());
    const given = presentedApiKey(req);
    if (given === undefined || !sameSecret(given, adminApiKey)) return next(new UnauthorizedError());
    next();
  };
}

/** The checks that need the matched route: admin key, body shape, whole-body params, fixed params. */
function beforeCall(adminApiKey: string | null) {
  return function onBeforeCall(_ctx: unknown, _route: unknown, req: IncomingMessage): void {
    const greq = req as GatewayRequest;
    const spec = greq.$alias?.routeSpec;
    if (spec === undefined) return;
    if (spec.auth === "admin" && adminApiKey !== null) {
      const given = presentedApiKey(req);
      if (given === undefined || !sameSecret(given, adminApiKey)) throw new UnauthorizedError();
    }
    if (spec.wholeBodyAs !== undefined) {
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

/** moleculer-web settings for the gateway. */
export function buildGatewaySettings(opts: GatewayOptions): ApiSettingsSchema {
  const route: ApiRouteSchema = {
    path: "/",
    aliases: buildAliases(opts.routes),
    autoAliases: false,
    mappingPolicy: "restrict",
    whitelist: [...new Set(opts.routes.filter((r) => r.implemented).map((r) => r.action))],
    bodyParsers: false,
    mergeParams: true,
    use: [
      createAdminGuard(opts.adminApiKey, opts.adminOpenWithoutKey ?? true),
      // Rate limit next, so a rejected request's body is never read.
      createPostRateLimit({ limitPerMinute: opts.rateLimitPostPerMinute, trustProxy: opts.trustProxy, now: opts.now }),
      createBodyReader(opts.bodyLimitBytes ?? BODY_LIMIT_BYTES),
    ] as unknown as ApiRouteSchema["use"],
    onBeforeCall: beforeCall(opts.adminApiKey) as unknown as ApiRouteSchema["onBeforeCall"],
    logging: true,
  };
  return {
    port: opts.port,
    ip: opts.host,
    path: API_PREFIX,
    server: true,
    routes: [route],
    cors: corsSettings(opts.corsOrigins),
    onError: onError as unknown as ApiSettingsSchema["onError"],
    qsOptions: { parameterLimit: 100, depth: 2, arrayLimit: 20 },
    // Per-request lines at debug (info costs ~35% throughput); params and response data are never logged.
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
