/**
 * Opening and closing Ogmios interaction contexts. The only module (with the clients in this folder) that
 * touches @cardano-ogmios/client. A context = one WebSocket; Ogmios keeps per-connection state (chain-sync
 * cursor, acquired mempool), so each long-running consumer gets its own.
 */
import { createInteractionContext, type InteractionContext } from "@cardano-ogmios/client";
import { ChainError, timeoutError, toChainError } from "./errors";

export interface Endpoint {
  http: string;
  webSocket: string;
}

/** ws://host:port (or wss://) → the HTTP and WebSocket addresses the Ogmios client wants. */
export function endpointOf(url: string): Endpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ChainError("CHAIN_ERROR", `invalid chain url ${url}`, undefined, undefined, { url }, false);
  }
  if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") {
    throw new ChainError("CHAIN_ERROR", `chain url must be ws:// or wss://, got ${parsed.protocol}`, undefined, undefined, { url }, false);
  }
  const base = `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  return {
    http: `${parsed.protocol === "wss:" ? "https" : "http"}://${base}`,
    webSocket: `${parsed.protocol}//${base}`,
  };
}

export interface OpenedContext {
  context: InteractionContext;
  /** resolves when the socket closes (for any reason) */
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
  isOpen(): boolean;
}

/** Opens a context (health check + WebSocket) within `timeoutMs`. @throws ChainError CHAIN_UNAVAILABLE, CHAIN_TIMEOUT */
export async function openContext(endpoint: Endpoint, timeoutMs: number): Promise<OpenedContext> {
  let onClose: (v: { code: number; reason: string }) => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClose = resolve));
  const opening = createInteractionContext(
    () => undefined, // socket errors surface as a close; requests fail through the client's close handling
    (code, reason) => onClose({ code, reason: String(reason) }),
    { connection: { address: endpoint }, maxEventListeners: 1000 },
  );
  let context: InteractionContext;
  try {
    context = await withTimeout(opening, timeoutMs, "connect");
  } catch (err) {
    // a context that opens after the timeout must not leak
    opening.then((late) => late.socket.close()).catch(() => undefined);
    throw toChainError(err, "connect");
  }
  return {
    context,
    closed,
    close: () => {
      try {
        context.socket.close();
      } catch {
        // already closing
      }
    },
    isOpen: () => context.socket.readyState === context.socket.OPEN,
  };
}

/** Rejects with CHAIN_TIMEOUT when `p` does not settle within `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number, operation: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError(operation, ms)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Exponential backoff delay for reconnect attempt n (1-based). */
export function backoffMs(attempt: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
}
