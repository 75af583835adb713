/**
 * The access log (ACCESS_LOG): one `info` record per HTTP request the gateway's server answers — the API, the web
 * pages, the log's tiles and the event streams alike — written when the answer is finished (or the client left).
 * It names the request, never its content: method, path without the query string (queries may carry keys), status,
 * duration and request id. No bodies, no headers: API keys and webhook management tokens travel in headers.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { redactPath } from "./error-writer";

export interface AccessRecord {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** the client went away before the answer was complete */
  aborted?: true;
}

/** The longest caller-given request id kept (longer ones are cut). */
const MAX_REQUEST_ID = 128;

/** A webhook management token pasted into a URL by mistake stays out of the log too. */
const TOKEN_IN_PATH = /whm_[A-Za-z0-9_-]+/g;

/** The path a record shows: no query, secret-bearing segments masked. */
export function loggedPath(method: string, url: string): string {
  const path = url.split("?")[0]!.split("#")[0]!;
  return redactPath(method, path).replace(TOKEN_IN_PATH, "whm_***");
}

/**
 * The request's id, the one moleculer-web answers with in `X-Request-ID` (the caller's `X-Request-ID` or
 * `X-Correlation-ID`); a request without one is given one here, before any handler reads it, so the record and
 * the answer name the same id.
 */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-correlation-id"] ?? req.headers["x-request-id"];
  if (typeof given === "string" && given !== "") return given.slice(0, MAX_REQUEST_ID);
  const id = randomUUID();
  req.headers["x-request-id"] = id;
  return id;
}

/**
 * A request listener to run before every other one (it never answers: it returns false so the request goes on):
 * it notes the start, and writes the record once the response is finished or the connection closed.
 */
export function createAccessLog(write: (record: AccessRecord) => void) {
  return function trackRequest(req: IncomingMessage, res: ServerResponse): boolean {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req);
    const method = req.method ?? "GET";
    // as it arrived: the router later rewrites `req.url` relative to its mount point
    const path = loggedPath(method, req.url ?? "/");
    let written = false;
    const done = (): void => {
      if (written) return;
      written = true;
      const record: AccessRecord = {
        method,
        path,
        status: res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        requestId,
      };
      if (!res.writableFinished) record.aborted = true;
      write(record);
    };
    res.once("finish", done);
    res.once("close", done);
    return false;
  };
}
