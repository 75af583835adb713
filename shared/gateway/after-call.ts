import type { IncomingMessage, ServerResponse } from "node:http";
import type { Service } from "moleculer";
import type { GatewayRequest } from "./gateway-request";
import {
  certificateCacheControl,
  ifNoneMatchNames,
  LOOKUP_CACHE_CONTROL,
  lookupEtag,
  newestHeightOf,
  validatorKeyOf,
  type CertificateAnswerMeta,
} from "./read-caching";
import { answerBody, JSON_CONTENT_TYPE, type ValidatorCache } from "./validator-cache";

/**
 * After a cacheable route's call: its `Cache-Control`, a lookup's ETag, the certificate validator to remember,
 * and 304 when the request's If-None-Match names the ETag. (moleculer-web's own check ignores a conditional request
 * that also says `Cache-Control: no-cache`, which fetch() adds to every request with If-None-Match; an origin server
 * answers the condition whatever the request's cache directives, RFC 9110 §13.2.1.) An answer without an ETag is
 * never a 304: moleculer-web would answer `If-None-Match: *` with one on any route, so its conditions are dropped.
 */
export function afterCall(validators: ValidatorCache | undefined) {
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
    if (kind === undefined) return withoutConditions(req, data);
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
    if (etag === undefined) return withoutConditions(req, data);
    if (newestHeight === undefined) return data;
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

/** Drops the request's conditions, so the answer is sent whole (moleculer-web reads them from the request). */
function withoutConditions(req: IncomingMessage, data: unknown): unknown {
  delete req.headers["if-none-match"];
  delete req.headers["if-modified-since"];
  return data;
}
