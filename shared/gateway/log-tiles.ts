/**
 * The transparency log's files, answered before the router as plain files are: the monitoring prefix `/api/v1/log`
 * as c2sp.org/tlog-tiles lays it out — `checkpoint` (text, cached a second at most) and `tile/<L>/<N>[.p/<W>]`,
 * `tile/entries/<N>[.p/<W>]` (bytes that never change: cached here and, by their headers, by any CDN for a year) —
 * and a receipt's RFC 9942 COSE receipt, `/api/v1/batch/receipt/{id}/receipt.cose` (`application/cose`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceBroker } from "moleculer";
import { ByteLru } from "../domain/byte-lru";
import { toHttpErrorReply } from "./error-mapping";
import { API_PREFIX } from "./openapi";

const PREFIX = `${API_PREFIX}/log/`;
const COSE_RECEIPT = new RegExp(`^${API_PREFIX}/batch/receipt/([0-9a-f]{32})/receipt\\.cose$`);
const IMMUTABLE = "public, max-age=31536000, immutable";

type Answer = { status: number; type: string; body: Buffer; cache: string };

export interface LogTilesOptions {
  broker: Pick<ServiceBroker, "call">;
  /** bytes of tiles kept in memory */
  cacheBytes: number;
}

/** The handler: true when it answered the request. */
export function createLogTileHandler(opts: LogTilesOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const cache = new ByteLru(opts.cacheBytes);

  async function answer(path: string): Promise<Answer> {
    if (path === "checkpoint") {
      const { checkpoint } = await opts.broker.call<{ checkpoint: string }, Record<string, never>>("calendar.logCheckpoint", {});
      return { status: 200, type: "text/plain; charset=utf-8", body: Buffer.from(checkpoint), cache: "public, max-age=1" };
    }
    const cached = cache.get(path);
    if (cached !== undefined) return { status: 200, type: "application/octet-stream", body: Buffer.from(cached), cache: IMMUTABLE };
    const tile = await opts.broker.call<{ bytes: string }, { path: string }>("calendar.logTile", { path });
    const body = Buffer.from(tile.bytes, "base64");
    // a partial tile's bytes never change either: its width is in its path
    cache.set(path, body);
    return { status: 200, type: "application/octet-stream", body, cache: IMMUTABLE };
  }

  async function coseReceipt(receiptId: string): Promise<Answer> {
    const { bytes } = await opts.broker.call<{ bytes: string }, { receiptId: string }>("calendar.receiptCose", { receiptId });
    // a newer checkpoint makes a newer receipt: not cached
    return { status: 200, type: "application/cose", body: Buffer.from(bytes, "base64"), cache: "no-cache" };
  }

  return (req, res) => {
    const url = req.url ?? "";
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const cose = COSE_RECEIPT.exec(url);
    const path = url.startsWith(PREFIX) ? url.slice(PREFIX.length) : undefined;
    if (cose === null && path !== "checkpoint" && !path?.startsWith("tile/")) return false;
    (cose ? coseReceipt(cose[1]!) : answer(path!)).then(
      (a) => send(req, res, a),
      (err: unknown) => send(req, res, errorAnswer(err)),
    );
    return true;
  };
}

function errorAnswer(err: unknown): Answer {
  const reply = toHttpErrorReply(err);
  return {
    status: reply.status,
    type: "application/json; charset=utf-8",
    body: Buffer.from(JSON.stringify(reply.body)),
    cache: "no-store",
  };
}

function send(req: IncomingMessage, res: ServerResponse, a: Answer): void {
  if (res.headersSent) return;
  res.writeHead(a.status, {
    "Content-Type": a.type,
    "Content-Length": a.body.length,
    "Cache-Control": a.cache,
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Allow-Origin": "*",
  });
  res.end(req.method === "HEAD" ? undefined : a.body);
}
