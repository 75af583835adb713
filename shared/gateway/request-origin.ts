/**
 * The origin (`<scheme>://<host>`) a caller reached the gateway on: the API's self-links and the pages' absolute
 * links (share dialog, embed snippet, QR codes) are built from it. The scheme comes from `X-Forwarded-Proto` only
 * behind trusted proxies (TRUST_PROXY); a Host header that is not a plain host name or address reads as `localhost`.
 */
import type { IncomingMessage } from "node:http";

export function requestOrigin(req: IncomingMessage, trustedProxies: number): string {
  const forwarded =
    trustedProxies > 0
      ? String(req.headers["x-forwarded-proto"] ?? "")
          .split(",")[0]!
          .trim()
      : "";
  const scheme =
    forwarded === "https" || forwarded === "http" ? forwarded : "encrypted" in req.socket && req.socket.encrypted ? "https" : "http";
  const host = /^[A-Za-z0-9.:[\]-]+$/.test(req.headers.host ?? "") ? req.headers.host! : "localhost";
  return `${scheme}://${host}`;
}
