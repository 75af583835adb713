/**
 * Reads a request body for the gateway, bounded by a byte limit, and parses it as JSON. Replaces moleculer-web's
 * body-parser so that:
 * - a body sent as anything but JSON is a 415 before it is read, unless the route accepts raw text;
 * - an oversized body is a 413 JSON error (by Content-Length up front, or by counting a chunked stream);
 * - a body that is not valid JSON does not fail here: the route decides (most routes answer 400 MALFORMED_JSON, a
 *   route with `wholeBodyAs` takes the raw text).
 */
import type { IncomingMessage } from "node:http";
import { MalformedJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from "./errors";

export const BODY_LIMIT_BYTES = 512 * 1024;

/** What the reader leaves on the request. */
export interface BodyState {
  body?: unknown;
  /** Set when the body was present but not JSON. */
  $bodyError?: MalformedJsonError;
  /** The raw text of a body that was not JSON (for routes that accept raw text). */
  $rawBody?: string;
}

type Next = (err?: unknown) => void;

const METHODS_WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

/** Drops `__proto__` keys so merging the body into params cannot change their prototype. */
const safeReviver = (key: string, value: unknown): unknown => (key === "__proto__" ? undefined : value);

/** Parses JSON text; an empty body is `undefined`. */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text, safeReviver) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: reason.length > 160 ? `${reason.slice(0, 160)}…` : reason };
  }
}

/** `application/json` or a `+json` type such as `application/merge-patch+json`, with any parameters. */
export function isJsonContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Whether the request carries a body at all (a declared non-zero length, or a chunked stream). */
function hasBody(req: IncomingMessage): boolean {
  const declared = Number(req.headers["content-length"]);
  return (Number.isFinite(declared) && declared > 0) || req.headers["transfer-encoding"] !== undefined;
}

/**
 * Connect-style middleware: fills `req.body` (parsed JSON) or `req.$bodyError` + `req.$rawBody`.
 * `acceptsRawText(req)` says whether the matched route takes raw text too (then any Content-Type is read).
 */
export function createBodyReader(limitBytes: number = BODY_LIMIT_BYTES, acceptsRawText: (req: IncomingMessage) => boolean = () => false) {
  return function readBody(req: IncomingMessage & BodyState, _res: unknown, next: Next): void {
    if (METHODS_WITHOUT_BODY.has(req.method ?? "GET")) return next();
    const contentType = req.headers["content-type"];
    if (hasBody(req) && !isJsonContentType(contentType) && !acceptsRawText(req)) {
      // Not read: drain what the client sends so it can read the 415 instead of a reset.
      req.resume();
      return next(new UnsupportedMediaTypeError(contentType));
    }
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limitBytes) return next(new PayloadTooLargeError(limitBytes));

    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err?: unknown): void => {
      if (done) return;
      done = true;
      req.removeListener("data", onData);
      req.removeListener("end", onEnd);
      req.removeListener("error", onError);
      next(err);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) {
        // Keep draining (discarding) so the client can read our 413 instead of a reset.
        req.resume();
        finish(new PayloadTooLargeError(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      const text = Buffer.concat(chunks).toString("utf8");
      const parsed = parseJsonBody(text);
      if (parsed.ok) req.body = parsed.value;
      else {
        req.$bodyError = new MalformedJsonError(parsed.reason);
        req.$rawBody = text;
      }
      finish();
    };
    const onError = (err: Error): void => finish(err);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  };
}
