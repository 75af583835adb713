/**
 * The witness's HTTP side (c2sp.org/tlog-witness §add-checkpoint): `POST <prefix>/add-checkpoint` with a bounded
 * body, decided by `decideAddCheckpoint` (shared/tlog/witness-protocol.ts, which makes every check) and persisted
 * with the compare-and-set of witness-state.ts before the cosignature is answered. Plain `node:http`: the answers are
 * a status, a content type and a short text body, and nothing else may be reached.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_SIGNATURES, type NoteVerifier, type SignerKey } from "../tlog/note";
import { decideAddCheckpoint, MAX_PROOF_LINES, malformedRequest, parseAddCheckpoint } from "../tlog/witness-protocol";
import type { WitnessState } from "./witness-state";

/**
 * The largest body taken. The spec bounds the proof (63 lines) and our note parser the signatures (100), not the
 * line lengths: `old` and a 20-digit size; 63 lines of base64 of 32 bytes; the empty line; 8 KiB of checkpoint text;
 * 100 signature lines of up to 4 KiB (an ML-DSA-44 cosignature line is about 3.3 KB).
 */
export const MAX_ADD_CHECKPOINT_BYTES = 25 + MAX_PROOF_LINES * 45 + 1 + 8192 + MAX_SIGNATURES * 4096;

/** pino's shape, so the script hands in its logger; fields first, message second. */
export interface WitnessLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface WitnessConfig {
  /** the witness's cosigner key (type 0x04) */
  witnessKey: SignerKey;
  /** the verifier keys of each log the witness follows, by origin */
  logs: ReadonlyMap<string, readonly NoteVerifier[]>;
  state: WitnessState;
  /** the submission prefix, default `/` */
  prefix?: string;
  logger?: WitnessLogger;
  /** now, POSIX seconds (the cosignature's timestamp) */
  nowSeconds?: () => bigint;
  maxBodyBytes?: number;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const TEXT = "text/plain; charset=utf-8";
const text = (status: number, message: string): Answer => ({ status, contentType: TEXT, body: `${message}\n` });
/** A request that loses the compare-and-set is decided again on the new record; more losses than this: 503. */
const MAX_ATTEMPTS = 3;
const silent: WitnessLogger = { info() {}, warn() {}, error() {} };

/** `/`, `/witness` and `/witness/` all give `/…/add-checkpoint` with one slash. */
export function addCheckpointPath(prefix = "/"): string {
  const trimmed = prefix.replace(/\/+$/, "");
  return `${trimmed.startsWith("/") || trimmed === "" ? trimmed : `/${trimmed}`}/add-checkpoint`;
}

type BodyRead = { ok: true; body: Uint8Array } | { ok: false };

/** The request body, or not ok once it exceeds `max` bytes (announced or received): nothing past the bound is kept. */
function readBoundedBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  const announced = Number(req.headers["content-length"] ?? 0);
  if (announced > max) return Promise.resolve({ ok: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > max) {
        req.off("data", onData);
        req.pause();
        resolve({ ok: false });
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve({ ok: true, body: new Uint8Array(Buffer.concat(chunks)) }));
    req.once("error", reject);
    req.once("aborted", () => reject(new Error("the client aborted the request")));
  });
}

/** The add-checkpoint answer for a body within the bound, with the record advanced when the answer is a cosignature. */
async function addCheckpoint(config: WitnessConfig, body: Uint8Array, log: WitnessLogger): Promise<Answer> {
  const parsed = parseAddCheckpoint(body);
  if (!parsed.ok) {
    log.warn({ status: 400, reason: parsed.error }, "add-checkpoint refused");
    return malformedRequest(parsed.error);
  }
  const request = parsed.value;
  const origin = request.checkpoint.origin;
  const logKeys = config.logs.get(origin);
  const nowSeconds = config.nowSeconds ?? (() => BigInt(Math.floor(Date.now() / 1000)));
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const latest = logKeys ? await config.state.latest(origin) : null;
    const decision = decideAddCheckpoint({ request, logKeys, latest, witnessKey: config.witnessKey, time: nowSeconds() });
    if (!decision.cosign) {
      log.warn({ origin, status: decision.status, reason: decision.reason }, "add-checkpoint refused");
      return decision;
    }
    const advanced = await config.state.advance(origin, latest, decision.state);
    if (advanced.won) {
      log.info({ origin, oldSize: request.oldSize, size: request.checkpoint.size }, "checkpoint cosigned");
      return decision;
    }
    // Another request advanced the record between the read and the write: decide again against it (a 409 then).
    log.warn({ origin, attempt, current: advanced.current?.size ?? 0 }, "add-checkpoint lost a race");
  }
  return text(503, "the witness's record of this log kept changing during the request; retry");
}

function send(res: ServerResponse, answer: Answer, headers: Record<string, string> = {}): void {
  res.writeHead(answer.status, { "Content-Type": answer.contentType, "Cache-Control": "no-store", ...headers });
  res.end(answer.body);
}

/** The request handler: add-checkpoint under the prefix; 405 for another method there; 404 anywhere else. */
export function createWitnessHandler(config: WitnessConfig): (req: IncomingMessage, res: ServerResponse) => void {
  const path = addCheckpointPath(config.prefix);
  const log = config.logger ?? silent;
  const maxBody = config.maxBodyBytes ?? MAX_ADD_CHECKPOINT_BYTES;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = (req.url ?? "/").split("?")[0];
    if (url !== path) return send(res, text(404, `not found; the witness answers POST ${path}`));
    if (req.method !== "POST") return send(res, text(405, "add-checkpoint takes POST"), { Allow: "POST" });
    const read = await readBoundedBody(req, maxBody);
    if (!read.ok) {
      log.warn({ status: 413, reason: "body too large" }, "add-checkpoint refused");
      // Close the connection rather than read (and discard) the rest of an oversized body.
      return send(res, text(413, `the body exceeds ${maxBody} bytes`), { Connection: "close" });
    }
    send(res, await addCheckpoint(config, read.body, log));
  };
  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      const storeDown = (err as { type?: unknown }).type === "STORE_UNAVAILABLE";
      log.error({ err: message }, "add-checkpoint failed");
      if (res.headersSent) return void res.destroy();
      if (req.destroyed) return;
      send(res, storeDown ? text(503, "the witness's store is unavailable; retry") : text(500, "the witness failed to answer"));
    });
  };
}

export interface WitnessServerOptions extends WitnessConfig {
  host?: string;
  /** 0 picks a free port */
  port?: number;
  /** the whole request (headers and body) must arrive within this (ms); a slower client gets 408 */
  requestTimeoutMs?: number;
}

export interface RunningWitness {
  server: Server;
  /** `http://host:port` (no prefix) */
  url: string;
  close(): Promise<void>;
}

export async function startWitnessServer(options: WitnessServerOptions): Promise<RunningWitness> {
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.min(requestTimeoutMs, 5_000),
      keepAliveTimeout: 5_000,
      // Node checks the timeouts above every 30 s by default: a stalled client would hold its socket that much longer.
      connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs),
    },
    createWitnessHandler(options),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    server,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
