/**
 * The API keys a request presents (`X-Api-Key`, or `Authorization: Bearer`): compared in constant time, named
 * by an id that says nothing of the key, and the guard of the admin routes.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AdminDisabledError, UnauthorizedError } from "./errors";
import { routeSpecOf, type GatewayThis } from "./gateway-request";

/** Whether a presented key is the expected one, in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A name for an API key that says nothing of the key: the first 16 hex digits of its SHA-256. */
export function apiKeyIdOf(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

/** The key the request presents, if any. */
export function presentedApiKey(req: IncomingMessage): string | undefined {
  const header = req.headers["x-api-key"];
  if (typeof header === "string" && header !== "") return header;
  const auth = req.headers.authorization;
  if (typeof auth === "string" && auth.startsWith("Bearer ")) return auth.slice(7).trim();
  return undefined;
}

/** Whether the request presents this key. */
export function presentsKey(req: IncomingMessage, key: string): boolean {
  const given = presentedApiKey(req);
  return given !== undefined && sameSecret(given, key);
}

/**
 * Guards the admin routes before anything else looks at the request (moleculer-web resolves the target service
 * before `onBeforeCall`, which would tell an unauthenticated caller whether the service runs). Whether a request is
 * an admin request is decided from the route the router itself resolves for it (`auth: "admin"` in the route
 * table), so spelling the path another way (`/Admin/…`, `//admin`) cannot slip past.
 */
export function createAdminGuard(adminApiKey: string | null, openWithoutKey: boolean) {
  return function adminGuard(this: GatewayThis, req: IncomingMessage, _res: ServerResponse, next: (err?: unknown) => void): void {
    if (routeSpecOf(this, req)?.auth !== "admin") return next();
    if (adminApiKey === null) return next(openWithoutKey ? undefined : new AdminDisabledError());
    next(presentsKey(req, adminApiKey) ? undefined : new UnauthorizedError());
  };
}
