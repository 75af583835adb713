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
  /** A secret that is not `whsec_` + base64 of 24 to 64 bytes, or a message id with a `.`. */
  | "INVALID_WEBHOOK_SECRET"
  /** Verification failed: missing headers, a timestamp outside the tolerance, or no matching `v1` signature. */
  | "INVALID_WEBHOOK_SIGNATURE"
  /** The engine's settings are inconsistent (a programming or configuration error). */
  | "INVALID_WEBHOOK_SETTINGS";

export class WebhookError extends TypedError<WebhookErrorType> {
  override readonly name = "WebhookError";
}

/** @throws WebhookError of `type`. */
export function webhookError(type: WebhookErrorType, message: string, data: Record<string, unknown> = {}): never {
  throw new WebhookError(type, message, data);
}
