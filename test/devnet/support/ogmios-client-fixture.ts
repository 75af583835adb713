// Connects the REAL @cardano-ogmios/client to a devnet server, and a raw WebSocket for protocol-level tests.
import {
  createInteractionContext,
  createLedgerStateQueryClient,
  createMempoolMonitoringClient,
  createTransactionSubmissionClient,
  type InteractionContext,
} from "@cardano-ogmios/client";
import WebSocket from "ws";
import { bigintJson } from "../../../shared/devnet/bigint-json";
import type { DevnetServer } from "../../../shared/devnet";

/** A fresh interaction context (one per client: the client's shutdown closes the shared socket). */
export function contextFor(server: DevnetServer, maxEventListeners?: number): Promise<InteractionContext> {
  return createInteractionContext(
    () => undefined,
    () => undefined,
    { connection: { host: server.host, port: server.port }, ...(maxEventListeners ? { maxEventListeners } : {}) },
  );
}

export async function ledgerClient(server: DevnetServer) {
  return createLedgerStateQueryClient(await contextFor(server));
}

export async function submissionClient(server: DevnetServer) {
  return createTransactionSubmissionClient(await contextFor(server));
}

export async function mempoolClient(server: DevnetServer) {
  return createMempoolMonitoringClient(await contextFor(server));
}

/** The Ogmios error code carried by a client rejection (JSONRPCError or raw response). */
export function rpcCode(err: unknown): number | undefined {
  const e = err as { code?: number; error?: { code?: number } };
  return e.code ?? e.error?.code;
}

export async function expectRpcRejection(promise: Promise<unknown>): Promise<{ code?: number; data?: unknown; error?: { code?: number; data?: unknown } }> {
  try {
    await promise;
  } catch (err) {
    return err as { code?: number; data?: unknown };
  }
  throw new Error("expected the request to be rejected, but it succeeded");
}

/** A JSON-RPC reply as the devnet sends it. */
export interface RpcReply {
  jsonrpc?: string;
  method?: string;
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A raw JSON-RPC WebSocket: send text, read replies in order. */
export class RawSocket {
  private readonly queue: string[] = [];
  private readonly waiters: ((text: string) => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data: Buffer) => {
      const text = data.toString("utf8");
      const waiter = this.waiters.shift();
      if (waiter) waiter(text);
      else this.queue.push(text);
    });
  }

  static async open(server: DevnetServer): Promise<RawSocket> {
    const ws = new WebSocket(server.url);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return new RawSocket(ws);
  }

  sendText(text: string): void {
    this.ws.send(text);
  }

  /** Sends a request and returns the next reply, parsed with bigint support. */
  async call(method: string, params?: unknown, id: unknown = method): Promise<RpcReply> {
    this.sendText(bigintJson.stringify({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }), id }));
    return this.next();
  }

  async next(): Promise<RpcReply> {
    const text = this.queue.shift() ?? (await new Promise<string>((resolve) => this.waiters.push(resolve)));
    return bigintJson.parse(text) as RpcReply;
  }

  close(): void {
    this.ws.close();
  }
}
