/**
 * Typed errors of the webhook engine. Callers match on `type` (docs/architecture.md#domain: errors crossing NATS
 * keep `type` and `data`, not their class). The gateway's status table needs a line for each type the routes can
 * reach (see docs/webhooks.md#errors).
 */
import { TypedError } from "../domain/errors";

export type WebhookErrorType =
  /** The endpoint URL is malformed, too long, carries credentials or a fragment, or uses a scheme not allowed. */
  | "INVALID_ENDPOINT_URL"
  /** The endpoint's host is, or resolves to, an address the SSRF policy refuses (loopback, private, …), or does not resolve. */
  | "ENDPOINT_ADDRESS_REFUSED"
  /** A subject or event type filter is malformed, or there are too many or none. */
  | "INVALID_WEBHOOK_FILTER"
  /** The operator's bound on endpoints (in total, or for this owner) is reached. */
  | "WEBHOOK_LIMIT_REACHED"
  /** No endpoint with this id (for this owner). */
  | "WEBHOOK_ENDPOINT_NOT_FOUND"
  /** The endpoint is disabled: enable it before replaying. */
  | "WEBHOOK_ENDPOINT_DISABLED"
  /** An event id that is not a decimal sequence number. */
  | "INVALID_EVENT_ID"
  /** A replay from an event id older than the event log keeps (EVENTS_RETENTION_DAYS; `data.oldestId`). */
  | "EVENTS_EXPIRED"
  /** A secret that is not `whsec_` + base64 of 24 to 64 bytes, or a message id with a `.`. */
  | "INVALID_WEBHOOK_SECRET"
  /** Verification failed: missing headers, a timestamp outside the tolerance, or no matching `v1` signature. */
  | "INVALID_WEBHOOK_SIGNATURE"
  /** The engine's settings are inconsistent (a programming or configuration error). */
  | "INVALID_WEBHOOK_SETTINGS"
  /** A request body or query field of the webhook routes is missing or malformed (`data.field` names it). */
  | "INVALID_WEBHOOK_REQUEST"
  /** An `address:` subject without a proof that the caller controls the address (`data.subject`). */
  | "ADDRESS_PROOF_REQUIRED"
  /** A route that manages an endpoint was called without `Authorization: Bearer <management token>`. */
  | "WEBHOOK_TOKEN_REQUIRED"
  /** The `Authorization` header is not `Bearer whm_…` with a token of the form the service issues. */
  | "INVALID_WEBHOOK_TOKEN"
  /** The token is well-formed but does not manage this endpoint. */
  | "WEBHOOK_TOKEN_REJECTED"
  /** The client registered as many endpoints in the current hour as the operator allows (`data.retryAfterSeconds`). */
  | "WEBHOOK_REGISTRATIONS_RATE_LIMITED";

export class WebhookError extends TypedError<WebhookErrorType> {
  override readonly name = "WebhookError";
}

/** @throws WebhookError of `type`. */
export function webhookError(type: WebhookErrorType, message: string, data: Record<string, unknown> = {}): never {
  throw new WebhookError(type, message, data);
}
