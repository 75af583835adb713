// The devnet's network face: Ogmios v6 JSON-RPC over WebSocket (`ws`) plus HTTP `GET /health` on the same port,
// so the unchanged @cardano-ogmios/client talks to it exactly as to a real Ogmios server.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { LOWER_HEX_PATTERNS } from "../domain/hex";
import { bigintJson } from "./bigint-json";
import { ConnectionSession } from "./connection-session";
import type { Devnet, DevnetPoint } from "./devnet";
import { DevnetError } from "./errors";
import { errorMessage, parseRequest, resultMessage, resultTextMessage, type RpcRequest } from "./json-rpc";
import { ledgerStateQuery, networkQuery, utxoQueryText } from "./ledger-queries";
import { observeOutgoing } from "./message-observer";
import type { OgmiosUtxo } from "./ogmios-types";

export { setOutgoingMessageObserver } from "./message-observer";

export interface DevnetServerOptions {
  host?: string;
  port?: number;
  /** Enables `devnet/produceBlock` and `devnet/rollback {blocks}` (tests and `npm run devnet -- --test-control`). */
  testControl?: boolean;
  /** Messages above this size get a JSON-RPC error (default 4 MiB); above 4× this the socket is closed. */
  maxMessageBytes?: number;
}

export interface DevnetServer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const VERSION = "v6.14.0 (embedded devnet)";

/** Starts the Ogmios-compatible server for `devnet` (port 0 = any free port). */
export async function startDevnetServer(devnet: Devnet, opts: DevnetServerOptions = {}): Promise<DevnetServer> {
  const host = opts.host ?? "127.0.0.1";
  const maxMessageBytes = opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const startedAt = new Date(devnet.now()).toISOString();
  const sessions = new Set<ConnectionSession>();
  let totalConnections = 0;
  let totalMessages = 0;

  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET" && (req.url === "/health" || req.url?.startsWith("/health?"))) {
      const body = bigintJson.stringify({
        startTime: startedAt,
        lastKnownTip: devnet.tipWithHeight() === "origin" ? { slot: 0, id: "0".repeat(64), height: 0 } : devnet.tipWithHeight(),
        lastTipUpdate: new Date(devnet.lastTipUpdate()).toISOString(),
        networkSynchronization: 1,
        currentEra: "conway",
        metrics: {
          activeConnections: sessions.size,
          totalConnections,
          totalMessages,
          totalUnrouted: 0,
          sessionDurations: { max: 0, mean: 0, min: 0 },
        },
        connectionStatus: "connected",
        currentEpoch: devnet.currentEpoch(),
        slotInEpoch: devnet.slotInEpoch(),
        version: VERSION,
        network: "preview",
      });
      res.writeHead(200, { "content-type": "application/json" }).end(body);
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
  });

  const wss = new WebSocketServer({ server: http, maxPayload: maxMessageBytes * 4 });
  const unsubscribe = [
    devnet.on("block", () => sessions.forEach((s) => s.onChainChanged())),
    devnet.on("rollback", () => sessions.forEach((s) => s.onChainChanged())),
    devnet.on("mempool", () => sessions.forEach((s) => s.onMempoolChanged())),
  ];

  wss.on("connection", (socket: WebSocket) => {
    const session = new ConnectionSession(devnet);
    sessions.add(session);
    totalConnections += 1;
    const send = (text: string, method: string | undefined) => {
      observeOutgoing(text, method);
      if (socket.readyState === socket.OPEN) socket.send(text);
    };
    socket.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      totalMessages += 1;
      const size = Array.isArray(data)
        ? data.reduce((n, b) => n + b.length, 0)
        : data instanceof ArrayBuffer
          ? data.byteLength
          : data.length;
      if (size > maxMessageBytes) {
        send(
          errorMessage(
            undefined,
            new DevnetError(-32600, `Invalid request: message of ${size} bytes exceeds the limit of ${maxMessageBytes}.`),
            null,
          ),
          undefined,
        );
        return;
      }
      const text = isBinary
        ? ""
        : Array.isArray(data)
          ? Buffer.concat(data).toString("utf8")
          : Buffer.from(data as Buffer).toString("utf8");
      const parsed = parseRequest(text);
      if (!parsed.ok) {
        send(errorMessage(parsed.method, parsed.error, parsed.id ?? null), parsed.method);
        return;
      }
      const { method, id } = parsed.request;
      const reply = (result: unknown) => send(resultMessage(method, result, id), method);
      const replyText = (resultText: string) => send(resultTextMessage(method, resultText, id), method);
      const fail = (error: unknown) => {
        const devnetError =
          error instanceof DevnetError
            ? error
            : new DevnetError(-32603, `Internal error: ${String(error instanceof Error ? error.message : error)}`);
        send(errorMessage(method, devnetError, id), method);
      };
      try {
        dispatch(devnet, session, parsed.request, reply, replyText, fail, opts.testControl === true);
      } catch (error) {
        fail(error);
      }
    });
    socket.on("close", () => {
      session.close();
      sessions.delete(session);
    });
    socket.on("error", () => socket.terminate());
  });

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `ws://${host}:${port}`,
    host,
    port,
    close: async () => {
      unsubscribe.forEach((off) => off());
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function invalidParams(message: string): DevnetError {
  return new DevnetError(-32602, `Invalid params: ${message}`);
}

function isPoint(value: unknown): value is DevnetPoint {
  if (value === "origin") return true;
  if (typeof value !== "object" || value === null) return false;
  const { slot, id } = value as { slot?: unknown; id?: unknown };
  return (typeof slot === "number" || typeof slot === "bigint") && typeof id === "string" && LOWER_HEX_PATTERNS.hash32.test(id);
}

const toPoint = (p: DevnetPoint): DevnetPoint => (p === "origin" ? p : { slot: Number(p.slot), id: p.id });

function transactionCbor(params: Record<string, unknown>): string {
  const cbor = (params.transaction as { cbor?: unknown } | undefined)?.cbor;
  if (typeof cbor !== "string") throw invalidParams("expected { transaction: { cbor: <base16> } }");
  return cbor;
}

function dispatch(
  devnet: Devnet,
  session: ConnectionSession,
  request: RpcRequest,
  reply: (result: unknown) => void,
  replyText: (resultText: string) => void,
  fail: (error: unknown) => void,
  testControl: boolean,
): void {
  const { method, params } = request;
  if (method === "queryLedgerState/utxo") return replyText(utxoQueryText(devnet, params));
  if (method.startsWith("queryLedgerState/")) return reply(ledgerStateQuery(devnet, method, params));
  if (method.startsWith("queryNetwork/")) return reply(networkQuery(devnet, method, params));
  switch (method) {
    case "submitTransaction":
      devnet.submitTransaction(transactionCbor(params)).then((id) => reply({ transaction: { id } }), fail);
      return;
    case "evaluateTransaction": {
      const additional = params.additionalUtxo;
      if (additional !== undefined && !Array.isArray(additional)) throw invalidParams("'additionalUtxo' must be an array of UTxO");
      devnet.evaluateTransaction(transactionCbor(params), (additional ?? []) as OgmiosUtxo[]).then(reply, fail);
      return;
    }
    case "acquireLedgerState": {
      const point = params.point;
      if (!isPoint(point)) throw invalidParams('expected { point: { slot, id } | "origin" }');
      if (devnet.heightOf(toPoint(point)) === undefined) {
        throw new DevnetError(2000, "Failed to acquire requested point.", "The requested point is not on the chain.");
      }
      return reply({ acquired: "ledgerState", point: toPoint(point) });
    }
    case "releaseLedgerState":
      return reply({ released: "ledgerState" });
    case "findIntersection": {
      const points = params.points;
      if (!Array.isArray(points) || !points.every(isPoint)) throw invalidParams('expected { points: [ { slot, id } | "origin" ] }');
      return reply(session.findIntersection(points.map(toPoint)));
    }
    case "nextBlock":
      return session.nextBlock(reply, replyText);
    case "acquireMempool":
      return session.enqueueMempool(() => session.acquireMempool(reply));
    case "nextTransaction":
      return session.enqueueMempool(() => session.nextTransaction(params.fields, reply, fail));
    case "hasTransaction": {
      const id = params.id;
      if (typeof id !== "string") throw invalidParams("expected { id: <transaction id> }");
      return session.enqueueMempool(() => session.hasTransaction(id, reply, fail));
    }
    case "sizeOfMempool":
      return session.enqueueMempool(() => session.sizeOfMempool(reply, fail));
    case "releaseMempool":
      return session.enqueueMempool(() => session.releaseMempool(reply, fail));
    case "devnet/produceBlock":
      if (!testControl) break;
      {
        const block = devnet.produceBlock();
        return reply({ block: block ? { id: block.id, slot: block.slot, height: block.height } : null });
      }
    case "devnet/rollback":
      if (!testControl) break;
      {
        const blocks = Number(params.blocks);
        devnet.rollback(blocks);
        return reply({ tip: devnet.tipWithHeight() });
      }
    default:
      break;
  }
  throw new DevnetError(-32601, `Method not found: '${method}' is not a method this server knows.`);
}
