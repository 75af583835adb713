/**
 * The management token (docs/webhooks.md#who-may-do-what): whoever holds it manages the endpoints registered with
 * it — no accounts. It is `whm_` + base64url of 32 random bytes, shown once by the registration that made it; the
 * service keeps only its SHA-256 (the endpoints' `owner`), so a copy of the store manages nothing. The gateway
 * hashes the `Authorization: Bearer` token it receives and hands the services only the hash: the token itself
 * never crosses the bus or reaches a log.
 */
import { createHash, randomBytes } from "node:crypto";
import { webhookError } from "./errors";

export const MANAGEMENT_TOKEN_PREFIX = "whm_";
const TOKEN = /^whm_[A-Za-z0-9_-]{43}$/;
const OWNER = /^[0-9a-f]{64}$/;

/** A new management token. */
export function generateManagementToken(): string {
  return MANAGEMENT_TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** True for a string of the form `generateManagementToken` makes. */
export function isManagementToken(value: unknown): value is string {
  return typeof value === "string" && TOKEN.test(value);
}

/** The owner a token stands for: the hex SHA-256 of the token. */
export function ownerOfToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** True for an owner as `ownerOfToken` makes it (what the gateway hands the services). */
export function isTokenOwner(value: unknown): value is string {
  return typeof value === "string" && OWNER.test(value);
}

/**
 * The owner named by an `Authorization` header, undefined without one.
 * @throws WebhookError `INVALID_WEBHOOK_TOKEN` when the header is there but is not `Bearer <management token>`
 */
export function ownerOfAuthorization(header: string | readonly string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = typeof header === "string" ? header : header.join(",");
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(value);
  if (match === null || !isManagementToken(match[1]))
    webhookError("INVALID_WEBHOOK_TOKEN", "Authorization must be `Bearer <management token>`, the whm_… token the registration answered.");
  return ownerOfToken(match[1]);
}
