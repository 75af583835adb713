/**
 * Reads a request body for the gateway, bounded by a byte limit, and parses it as JSON. Replaces moleculer-web's
 * body-parser so that:
 * - a body sent as anything but JSON is a 415 before it is read, unless the route accepts raw text; so is a body
 *   sent compressed (any `Content-Encoding` but identity: bodies are small, and decoding them would let a small
 *   request grow past the limits) or in a character set other than UTF-8 (the only one JSON is read in);
 * - an oversized body is a 413 JSON error (by Content-Length up front, or by counting a chunked stream);
 * - a body that is not valid JSON does not fail here: the route decides (most routes answer 400 MALFORMED_JSON, a
 *   route with `wholeBodyAs` takes the raw text);
 * - a route that takes bytes (`binaryBodyAs`) reads an `application/octet-stream` body as a Buffer, and a route may
 *   have larger limits than the default (the batch route, for its million hashes).
 */
import type { IncomingMessage } from "node:http";
import {
  MalformedJsonError,
  PayloadTooLargeError,
  UnsupportedCharsetError,
  UnsupportedContentEncodingError,
  UnsupportedMediaTypeError,
} from "./errors";

export const BODY_LIMIT_BYTES = 512 * 1024;

/** What the reader leaves on the request. */
export interface BodyState {
  body?: unknown;
  /** Set when the body was present but not JSON. */
  $bodyError?: MalformedJsonError;
  /** The raw text of a body that was not JSON (for routes that accept raw text). */
  $rawBody?: string;
  /** The bytes of an `application/octet-stream` body (routes that accept bytes). */
  $binaryBody?: Buffer;
}

/** What the matched route accepts besides JSON within the default limit. */
export interface RouteBodyPolicy {
  acceptsRawText?: boolean;
  acceptsOctetStream?: boolean;
  /** this route's limits (JSON or text, and bytes) */
  limitBytes?: { json: number; binary?: number };
}

type Next = (err?: unknown) => void;

const METHODS_WITHOUT_BODY = new Set(["GET", "HEAD", "OPTIONS"]);

/** Drops `__proto__` keys so merging the body into params cannot change their prototype. */
const safeReviver = (key: string, value: unknown): unknown => (key === "__proto__" ? undefined : value);

/** Parses JSON text; an empty body is `undefined`. */
function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text, safeReviver) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: reason.length > 160 ? `${reason.slice(0, 160)}…` : reason };
  }
}

/** `application/json` or a `+json` type such as `application/merge-patch+json`, with any parameters. */
function isJsonContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** `application/octet-stream`, with any parameters. */
function isOctetStreamContentType(contentType: string | undefined): boolean {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase() === "application/octet-stream";
}

/** The `charset` parameter of a Content-Type, lowercased and unquoted; undefined when it names none. */
function charsetOf(contentType: string | undefined): string | undefined {
  for (const param of (contentType ?? "").split(";").slice(1)) {
    const eq = param.indexOf("=");
    if (eq >= 0 && param.slice(0, eq).trim().toLowerCase() === "charset")
      return param
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .toLowerCase();
  }
  return undefined;
}

/** Character sets a body is read in: UTF-8, and ASCII, which is a part of it. */
const READABLE_CHARSETS = new Set(["utf-8", "utf8", "us-ascii"]);

/** The codings of a Content-Encoding other than identity (a body is only read as sent). */
function codingsOf(req: IncomingMessage): string[] {
  return String(req.headers["content-encoding"] ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
}

/** Whether the request carries a body at all (a declared non-zero length, or a chunked stream). */
function hasBody(req: IncomingMessage): boolean {
  const declared = Number(req.headers["content-length"]);
  return (Number.isFinite(declared) && declared > 0) || req.headers["transfer-encoding"] !== undefined;
}

/**
 * Connect-style middleware: fills `req.body` (parsed JSON), `req.$bodyError` + `req.$rawBody`, or `req.$binaryBody`.
 * `policyOf(req)` says what the matched route takes besides JSON: `true` is raw text (then any Content-Type is read).
 */
export function createBodyReader(
  limitBytes: number = BODY_LIMIT_BYTES,
  policyOf: (req: IncomingMessage) => boolean | RouteBodyPolicy = () => false,
) {
  return function readBody(req: IncomingMessage & BodyState, _res: unknown, next: Next): void {
    if (METHODS_WITHOUT_BODY.has(req.method ?? "GET")) return next();
    const contentType = req.headers["content-type"];
    const found = policyOf(req);
    const policy: RouteBodyPolicy = typeof found === "boolean" ? { acceptsRawText: found } : found;
    const binary = policy.acceptsOctetStream === true && isOctetStreamContentType(contentType);
    if (hasBody(req)) {
      const codings = codingsOf(req);
      const charset = binary ? undefined : charsetOf(contentType);
      const refusal =
        codings.length > 0
          ? new UnsupportedContentEncodingError(codings.join(", "))
          : !binary && !isJsonContentType(contentType) && policy.acceptsRawText !== true
            ? new UnsupportedMediaTypeError(contentType, policy.acceptsOctetStream === true)
            : charset !== undefined && !READABLE_CHARSETS.has(charset)
              ? new UnsupportedCharsetError(charset)
              : undefined;
      if (refusal !== undefined) {
        // Not read: drain what the client sends so it can read the 415 instead of a reset.
        req.resume();
        return next(refusal);
      }
    }
    const limit = binary ? (policy.limitBytes?.binary ?? limitBytes) : (policy.limitBytes?.json ?? limitBytes);
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      return next(new PayloadTooLargeError(limit));
    }

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
      if (size > limit) {
        // Keep draining (discarding) so the client can read our 413 instead of a reset.
        req.resume();
        finish(new PayloadTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      if (binary) {
        req.$binaryBody = Buffer.concat(chunks, size);
        return finish();
      }
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
