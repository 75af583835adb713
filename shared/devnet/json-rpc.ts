// JSON-RPC 2.0 framing as Ogmios does it: every reply mirrors `method` and `id` (errors included — the Ogmios
// client pairs submit/evaluate replies by method, FIFO, and would hang on a reply without one), bigints as numbers.
import { bigintJson } from "./bigint-json";
import { DevnetError } from "./errors";

export interface RpcRequest {
  method: string;
  params: Record<string, unknown>;
  id: unknown;
}

export type ParsedRequest = { ok: true; request: RpcRequest } | { ok: false; error: DevnetError; method?: string; id?: unknown };

/** Parses one incoming message. Malformed JSON → -32700, not a request object → -32600, bad params → -32602. */
export function parseRequest(text: string): ParsedRequest {
  let message: unknown;
  try {
    message = bigintJson.parse(text);
  } catch {
    return { ok: false, error: new DevnetError(-32700, "Parse error: the message is not valid JSON.") };
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { ok: false, error: new DevnetError(-32600, "Invalid request: expected a JSON-RPC 2.0 request object.") };
  }
  const { method, params, id } = message as { method?: unknown; params?: unknown; id?: unknown };
  if (typeof method !== "string") {
    return { ok: false, error: new DevnetError(-32600, "Invalid request: missing 'method'."), id };
  }
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
    return { ok: false, error: new DevnetError(-32602, "Invalid params: 'params' must be an object."), method, id };
  }
  return { ok: true, request: { method, params: (params ?? {}) as Record<string, unknown>, id } };
}

/** A success reply. */
export function resultMessage(method: string, result: unknown, id: unknown): string {
  return bigintJson.stringify({ jsonrpc: "2.0", method, result, ...(id === undefined ? {} : { id }) });
}

/** A success reply whose result is already JSON text (the same text `resultMessage` gives for its value). */
export function resultTextMessage(method: string, resultText: string, id: unknown): string {
  const idText = id === undefined ? "" : `,"id":${bigintJson.stringify(id)}`;
  return `{"jsonrpc":"2.0","method":${bigintJson.stringify(method)},"result":${resultText}${idText}}`;
}

/** An error reply; `data` is included only when the error has some. */
export function errorMessage(method: string | undefined, error: DevnetError, id: unknown): string {
  const body = { code: error.code, message: error.message, ...(error.payload === undefined ? {} : { data: error.payload }) };
  return bigintJson.stringify({
    jsonrpc: "2.0",
    ...(method === undefined ? {} : { method }),
    error: body,
    ...(id === undefined ? {} : { id }),
  });
}
