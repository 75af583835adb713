/**
 * Standard Webhooks 1.0.0 (github.com/standard-webhooks/standard-webhooks, spec/standard-webhooks.md), the
 * symmetric scheme only:
 * - a secret is `whsec_` + base64 of 24 to 64 random bytes (we make 32), one per endpoint;
 * - a message carries `webhook-id` (the idempotency id: the same for every attempt and replay of an event),
 *   `webhook-timestamp` (Unix seconds of the attempt) and `webhook-signature`, a space-separated list of
 *   `v1,<base64 HMAC-SHA256(secret bytes, "<id>.<timestamp>.<body>")>`: one per secret in force, so a receiver
 *   keeps verifying through a rotation;
 * - the body is the JSON text `{type, timestamp, data}` plus the event's own metadata, signed exactly as sent.
 * `verifyWebhook` is the receiver's side (for the docs, clients and tests): constant-time comparison and a
 * timestamp tolerance (5 minutes, as the reference libraries), as the spec asks.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { webhookError } from "./errors";
import type { LogEvent } from "./event-source";

export const SECRET_PREFIX = "whsec_";
/** Bytes of a secret we generate (the spec allows 24 to 64). */
export const SECRET_BYTES = 32;
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;
/** How far a receiver lets `webhook-timestamp` stray from its clock (the reference libraries' value). */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MESSAGE_ID = /^[A-Za-z0-9_-]{1,255}$/;

/** A new secret: `whsec_` + base64 of `bytes` random bytes. */
export function generateSecret(bytes = SECRET_BYTES): string {
  if (!Number.isInteger(bytes) || bytes < SECRET_MIN_BYTES || bytes > SECRET_MAX_BYTES)
    webhookError("INVALID_WEBHOOK_SECRET", `A secret has ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} bytes.`, { bytes });
  return SECRET_PREFIX + randomBytes(bytes).toString("base64");
}

/**
 * The key bytes of a secret, with or without the `whsec_` prefix (receivers accept both).
 * @throws WebhookError `INVALID_WEBHOOK_SECRET` (not base64, or outside 24–64 bytes); the message never holds the secret
 */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = BASE64.test(encoded) && encoded.length % 4 !== 1 ? Buffer.from(encoded, "base64") : Buffer.alloc(0);
  if (key.length < SECRET_MIN_BYTES || key.length > SECRET_MAX_BYTES)
    webhookError("INVALID_WEBHOOK_SECRET", `A secret is ${SECRET_PREFIX} + base64 of ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} bytes.`);
  return key;
}

function signedContent(messageId: string, timestamp: number, body: string | Uint8Array): Buffer {
  if (!MESSAGE_ID.test(messageId)) webhookError("INVALID_WEBHOOK_SECRET", "A message id is 1 to 255 of A-Z a-z 0-9 _ -.", { messageId });
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    webhookError("INVALID_WEBHOOK_SECRET", "A timestamp is whole Unix seconds.", { timestamp });
  return Buffer.concat([Buffer.from(`${messageId}.${timestamp}.`, "utf8"), typeof body === "string" ? Buffer.from(body, "utf8") : body]);
}

/** One signature, `v1,<base64>`, of `body` sent as message `messageId` at `timestamp` (Unix seconds). */
export function sign(secret: string, messageId: string, timestamp: number, body: string | Uint8Array): string {
  return `v1,${createHmac("sha256", secretKey(secret))
    .update(signedContent(messageId, timestamp, body))
    .digest("base64")}`;
}

/** A type, not an interface, so it passes wherever a header record is expected. */
export type SignedHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/** The three headers of a message, signed with every secret in `secrets` (current first). */
export function signedHeaders(secrets: readonly string[], messageId: string, timestamp: number, body: string | Uint8Array): SignedHeaders {
  if (secrets.length === 0) webhookError("INVALID_WEBHOOK_SECRET", "A message needs at least one secret to be signed with.");
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => sign(s, messageId, timestamp, body)).join(" "),
  };
}

export interface VerifyOptions {
  /** The receiver's clock, Unix seconds. */
  nowSeconds: number;
  toleranceSeconds?: number;
}

type HeaderValue = string | readonly string[] | undefined;

function header(headers: Readonly<Record<string, HeaderValue>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return typeof value === "string" ? value : value?.join(" ");
  }
  return undefined;
}

/**
 * Checks a received message as a Standard Webhooks receiver does: the three headers present, the timestamp within
 * the tolerance of `nowSeconds`, and some `v1` signature in the list matching one of `secrets` (compared in
 * constant time). Pass the body exactly as received, never re-serialised JSON.
 * @returns the message id (the idempotency key)
 * @throws WebhookError `INVALID_WEBHOOK_SIGNATURE`
 */
export function verifyWebhook(
  secrets: string | readonly string[],
  body: string | Uint8Array,
  headers: Readonly<Record<string, HeaderValue>>,
  options: VerifyOptions,
): string {
  const id = header(headers, "webhook-id");
  const timestampText = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestampText || !signatures)
    webhookError("INVALID_WEBHOOK_SIGNATURE", "Missing webhook-id, webhook-timestamp or webhook-signature.");
  if (!/^[0-9]{1,15}$/.test(timestampText)) webhookError("INVALID_WEBHOOK_SIGNATURE", "webhook-timestamp is not Unix seconds.");
  const timestamp = Number(timestampText);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(options.nowSeconds - timestamp) > tolerance)
    webhookError("INVALID_WEBHOOK_SIGNATURE", "webhook-timestamp is outside the tolerance.", { timestamp, nowSeconds: options.nowSeconds });
  if (!MESSAGE_ID.test(id)) webhookError("INVALID_WEBHOOK_SIGNATURE", "webhook-id is not a message id.");
  const content = signedContent(id, timestamp, body);
  const expected = (typeof secrets === "string" ? [secrets] : secrets).map((s) =>
    createHmac("sha256", secretKey(s)).update(content).digest(),
  );
  for (const entry of signatures.split(" ")) {
    const [version, encoded] = entry.split(",", 2);
    if (version !== "v1" || encoded === undefined || !BASE64.test(encoded)) continue;
    const given = Buffer.from(encoded, "base64");
    if (expected.some((e) => e.length === given.length && timingSafeEqual(e, given))) return id;
  }
  return webhookError("INVALID_WEBHOOK_SIGNATURE", "No v1 signature matches.");
}

/** The idempotency id of an event's messages: the same for every endpoint, attempt and replay of that event. */
export function messageIdOf(eventId: string): string {
  return `evt_${eventId}`;
}

/**
 * The body delivered for an event: the spec's `{type, timestamp, data}` followed by the event's metadata (`eventId`,
 * `block`, `subjects`), as compact JSON. It is computed once, stored with the delivery and sent byte for byte.
 */
export function messageBody(event: LogEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.timestamp,
    data: event.data,
    eventId: event.id,
    block: event.block,
    subjects: event.subjects,
  });
}
