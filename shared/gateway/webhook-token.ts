/**
 * The management token of the webhook routes (`bearer` in the route table; docs/webhooks.md#who-may-do-what): read
 * from `Authorization: Bearer whm_…` before anything else looks at the request, and handed to the route's action
 * only as its SHA-256 (`meta.webhookOwner`), so the token itself never crosses the bus or reaches a log.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { webhookError } from "../webhooks/errors";
import { ownerOfAuthorization } from "../webhooks/management-token";
import { routeSpecOf, type GatewayThis } from "./gateway-request";

/** Where the guard leaves the owner for `onBeforeCall` (before-call.ts). */
export const WEBHOOK_OWNER = Symbol("webhookOwner");
export type WithWebhookOwner = IncomingMessage & { [WEBHOOK_OWNER]?: string };

/** Middleware: a `bearer: "required"` route needs a token; a `bearer: "optional"` one reads it when it comes. */
export function createWebhookTokenGuard() {
  return function webhookTokenGuard(this: GatewayThis, req: IncomingMessage, _res: ServerResponse, next: (err?: unknown) => void): void {
    const bearer = routeSpecOf(this, req)?.bearer;
    if (bearer === undefined) return next();
    try {
      const owner = ownerOfAuthorization(req.headers.authorization);
      if (owner === undefined && bearer === "required")
        webhookError(
          "WEBHOOK_TOKEN_REQUIRED",
          "This route needs `Authorization: Bearer <management token>` (the registration's managementToken).",
        );
      if (owner !== undefined) (req as WithWebhookOwner)[WEBHOOK_OWNER] = owner;
      next();
    } catch (err) {
      next(err);
    }
  };
}
