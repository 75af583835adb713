import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AliasLike, GatewayThis } from "./gateway-request";
import { API_PREFIX } from "./openapi";
import type { ReadRateLimit } from "./rate-limiter";
import { certificateCacheControl, ifNoneMatchNames, validatorKeyOf } from "./read-caching";
import { JSON_CONTENT_TYPE, type ValidatorCache } from "./validator-cache";

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
