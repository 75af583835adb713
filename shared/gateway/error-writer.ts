/**
 * Every error answer of the gateway goes through here: the reply of the error mapping (a "no alias" 404 becomes a
 * 404 or 405 naming the route), CORS headers, one log line without bodies or secrets, and errors handed over by
 * middlewares keeping their type and data.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Errors } from "moleculer";
import type { ApiSettingsSchema } from "moleculer-web";
import { TypedError } from "../domain/errors";
import { toHttpErrorReply, type HttpErrorReply } from "./error-mapping";
import { allowedMethods, type GatewayRequest, type GatewayThis } from "./gateway-request";
import { httpStatusOfError } from "./http-status";
import { NOT_FOUND_CACHE_CONTROL } from "./read-caching";
import { JSON_CONTENT_TYPE } from "./validator-cache";

function writeReply(res: ServerResponse, reply: HttpErrorReply): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.statusCode = reply.status;
  for (const [k, v] of Object.entries(reply.headers)) res.setHeader(k, v);
  res.setHeader("Content-Type", JSON_CONTENT_TYPE);
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
export function onError(this: GatewayThis, req: IncomingMessage, res: ServerResponse, err: unknown): void {
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

/** A moleculer-web route middleware (moleculer-web calls it with the gateway service as `this`). */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * moleculer-web rebuilds an error handed to a middleware's `next` as a MoleculerError and drops its `data` unless
 * it is one already; this hands ours over as MoleculerErrors with type, data and the status of our table.
 */
export function keepingErrorData(mw: Middleware): Middleware {
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
