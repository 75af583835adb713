/**
 * The request connection's busiest methods (UTxO queries, submit, evaluate) over one JSON-RPC multiplexer: one
 * `message` listener per socket, each answer parsed once and handed to the request whose id it carries.
 * @cardano-ogmios/client's `Method` adds a listener per pending request, and each listener parses every message
 * the socket receives: with n requests in flight each answer was parsed n times (8 wallets building at once: about
 * 4.7 parses per answer, most of them of the largest answers, UTxO lists). Answers keep the library's meaning: the
 * same parser (big numbers as bigint), the same success tests, a refusal rejected with the library's JSON-RPC error,
 * a closed socket with its -32000 "Connection closed".
 */
import { JSONRPCError, safeJSON } from "@cardano-ogmios/client";
import type { InteractionContext } from "@cardano-ogmios/client";
import { randomBytes } from "node:crypto";

interface Answer {
  method?: string;
  result?: unknown;
  error?: unknown;
  id?: { requestId?: string } | null;
}

interface Pending {
  succeeded: (answer: Answer) => boolean;
  resolve: (answer: Answer) => void;
  reject: (reason: unknown) => void;
}

export interface RequestMux {
  /**
   * Sends one request; resolves with the answer when `succeeded` says it is one (the library's test for the
   * method), rejects with the library's JSONRPCError (or the answer itself, as the library does) otherwise.
   */
  request(method: string, params: unknown, succeeded: (answer: Answer) => boolean): Promise<Answer>;
}

/** Installs the multiplexer on `context`'s socket (once per connection). */
export function requestMux(context: InteractionContext): RequestMux {
  const { socket } = context;
  const pending = new Map<string, Pending>();
  socket.on("message", (data: unknown) => {
    if (pending.size === 0) return;
    let answer: Answer;
    try {
      // the library's own parser, which it exports (a Buffer from the socket, as its own listeners hand it)
      answer = safeJSON.parse(data as string) as Answer;
    } catch {
      return; // not an answer of ours (the library's listeners see it too)
    }
    const requestId = answer?.id?.requestId;
    const p = requestId === undefined ? undefined : pending.get(requestId);
    if (!p) return;
    pending.delete(requestId!);
    if (p.succeeded(answer)) p.resolve(answer);
    else p.reject(JSONRPCError.tryFrom(answer) ?? answer);
  });
  socket.once("close", (code: number, reason: unknown) => {
    const err = new JSONRPCError(-32000, "Connection closed", { code, reason });
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  });
  return {
    request(method, params, succeeded) {
      return new Promise<Answer>((resolve, reject) => {
        if (socket.readyState !== socket.OPEN) {
          reject(new Error("WebSocket is closed"));
          return;
        }
        const requestId = randomBytes(12).toString("base64url");
        pending.set(requestId, { succeeded, resolve, reject });
        try {
          socket.send(safeJSON.stringify({ jsonrpc: "2.0", method, params, id: { requestId } }));
        } catch (err) {
          pending.delete(requestId);
          reject(err);
        }
      });
    },
  };
}
