import type { IncomingMessage, ServerResponse } from "node:http";
import type { Service, ServiceBroker } from "moleculer";
import { DomainError } from "../domain/errors";
import { apiKeyIdOf, presentedApiKey, presentsKey, sameSecret } from "./api-keys";
import { InvalidBodyError, UnauthorizedError } from "./errors";
import type { GatewayRequest } from "./gateway-request";
import { clientIp, clientKey } from "./rate-limiter";
import { ABORT_KEY_META, announceWhenGone } from "./request-gone";
import { requestOrigin } from "./request-origin";
import { serviceOfAction } from "./routes";
import { WEBHOOK_OWNER, type WithWebhookOwner } from "./webhook-token";

export interface BeforeCallOptions {
  adminApiKey: string | null;
  calendarApiKeys: readonly string[];
  trustProxy: number;
  /** Whether the embedded first start is still deploying the protocol (routes that need it answer 503 meanwhile). */
  protocolDeploying?: (broker: ServiceBroker) => Promise<boolean>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The checks that need the matched route: admin key, body shape, whole-body params, fixed params. Also hands the
 * client's address (behind the trusted proxies) to the action in `meta.clientIp`, and the key per-client limits
 * count it under (IPv6 by /64) in `meta.clientKey`; for an `abandonable` route, `meta.abortKey` names the request
 * the gateway announces gone if the client leaves before the answer (request-gone.ts); the id of a calendar
 * API key presented in `meta.calendarKeyId`; and a webhook route's management token, hashed, in `meta.webhookOwner`.
 */
export function beforeCall({ adminApiKey, calendarApiKeys, trustProxy, protocolDeploying }: BeforeCallOptions) {
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
    // the webhook routes' management token, as its hash (webhook-token.ts read it before the body)
    const webhookOwner = (req as WithWebhookOwner)[WEBHOOK_OWNER];
    if (webhookOwner !== undefined) ctx.meta["webhookOwner"] = webhookOwner;
    // the absolute URL the caller reached the API at, for answers that name one (the log's monitoring prefix)
    if (spec.path === "/log") ctx.meta["apiBaseUrl"] = apiBaseUrlOf(req, trustProxy);
    if (spec.abandonable === true) {
      ctx.meta[ABORT_KEY_META] = ctx.id;
      announceWhenGone(this.broker, res, ctx.id, serviceOfAction(spec.action));
    }
    // On a fresh embedded devnet the first start deploys the protocol right after the API opens: until that is
    // indexed, a build would only fail with a misleading message.
    if (spec.requiresProtocol && (await protocolDeploying?.(this.broker))) {
      throw new DomainError(
        "PROTOCOL_DEPLOYING",
        "The protocol is being deployed on this fresh devnet (first start); retry in a few seconds.",
        {},
        { retryable: true },
      );
    }
    if (spec.auth === "admin" && adminApiKey !== null && !presentsKey(req, adminApiKey)) throw new UnauthorizedError();
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

/** `<scheme>://<host>/api/v1` as the caller reached it (the scheme from X-Forwarded-Proto behind trusted proxies). */
const apiBaseUrlOf = (req: IncomingMessage, trustedProxies: number): string => `${requestOrigin(req, trustedProxies)}/api/v1`;
