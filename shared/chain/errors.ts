/**
 * Typed chain errors. Every Ogmios JSON-RPC error, transport failure and timeout is mapped here, in one place,
 * to a ChainError with a stable `type`, the Ogmios `code` and `reason` (schema name) and the code-specific `data`.
 */
import { TypedError } from "../domain/errors";
import { OGMIOS_ERROR_NAMES } from "./ogmios-error-codes";

export type ChainErrorType =
  /** the server cannot be reached, is not ready, or the connection dropped (retryable) */
  | "CHAIN_UNAVAILABLE"
  /** no reply within the request timeout (retryable) */
  | "CHAIN_TIMEOUT"
  /** 3117 (submit), or an evaluation failing because an input is unknown or already spent */
  | "UNKNOWN_OUTPUT_REFERENCES"
  /** 3002: `additionalUtxo` passed to an evaluation overlaps outputs the ledger already knows */
  | "OVERLAPPING_ADDITIONAL_UTXO"
  /** 3118: the tx validity interval does not contain the current slot */
  | "OUTSIDE_VALIDITY_INTERVAL"
  /** 3122 */
  | "FEE_TOO_SMALL"
  /** 3123 */
  | "VALUE_NOT_CONSERVED"
  /** 3100/3101: missing or invalid vkey witnesses */
  | "SIGNATURES_INVALID"
  /** 3010–3013 (evaluate) and 3136 SpendsMismatch (submit, phase 2): a script failed or a redeemer is invalid */
  | "SCRIPT_EXECUTION_FAILED"
  /** any other ledger rejection of a submitted tx (31xx, 3005, 399x); see `reason` */
  | "TX_REJECTED"
  /** evaluation could not run (3000–3004) */
  | "EVALUATION_UNAVAILABLE"
  /** 1000 / 1001 */
  | "INTERSECTION_NOT_FOUND"
  /** 2000–2004 */
  | "LEDGER_STATE_UNAVAILABLE"
  /** 4000 */
  | "MEMPOOL_NOT_ACQUIRED"
  /** -32xxx: malformed request/params or a method the server lacks */
  | "CHAIN_PROTOCOL_ERROR"
  /** anything else */
  | "CHAIN_ERROR";

export class ChainError extends TypedError<ChainErrorType> {
  override readonly name = "ChainError";
  constructor(
    type: ChainErrorType,
    message: string,
    /** the Ogmios JSON-RPC error code, when the server answered with one */
    readonly code: number | undefined,
    /** the Ogmios schema name of `code`, e.g. `MissingSignatories` */
    readonly reason: string | undefined,
    data: Record<string, unknown>,
    retryable: boolean,
  ) {
    super(type, message, data, { retryable });
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      type: this.type,
      message: this.message,
      code: this.code,
      reason: this.reason,
      data: this.data,
      retryable: this.retryable,
    };
  }
}

export function typeOfCode(code: number): ChainErrorType {
  if (code === 3117) return "UNKNOWN_OUTPUT_REFERENCES";
  if (code === 3002) return "OVERLAPPING_ADDITIONAL_UTXO";
  if (code === 3118) return "OUTSIDE_VALIDITY_INTERVAL";
  if (code === 3122) return "FEE_TOO_SMALL";
  if (code === 3123) return "VALUE_NOT_CONSERVED";
  if (code === 3100 || code === 3101) return "SIGNATURES_INVALID";
  if ((code >= 3010 && code <= 3013) || code === 3136) return "SCRIPT_EXECUTION_FAILED";
  if (code >= 3000 && code <= 3004) return "EVALUATION_UNAVAILABLE";
  if (code === 3005 || (code >= 3100 && code <= 3999)) return "TX_REJECTED";
  if (code === 1000 || code === 1001) return "INTERSECTION_NOT_FOUND";
  if (code >= 2000 && code <= 2004) return "LEDGER_STATE_UNAVAILABLE";
  if (code === 4000) return "MEMPOOL_NOT_ACQUIRED";
  if (code === -32000) return "CHAIN_UNAVAILABLE";
  if (code <= -32600 && code >= -32700) return "CHAIN_PROTOCOL_ERROR";
  return "CHAIN_ERROR";
}

interface RpcErrorLike {
  code: number;
  message: string;
  data?: unknown;
}

function asRpcError(err: unknown): RpcErrorLike | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as Record<string, unknown>;
  if (Number.isInteger(e["code"]) && typeof e["message"] === "string") {
    return { code: e["code"] as number, message: e["message"] as string, data: e["data"] };
  }
  // a raw JSON-RPC response object { jsonrpc, method, error: { code, message, data } }
  if (typeof e["error"] === "object" && e["error"] !== null) return asRpcError(e["error"]);
  return undefined;
}

/** An evaluation (3010) that failed because an input is unknown: Ogmios nests a 3117 error per validator. */
function unknownInputsInEvaluation(rpc: RpcErrorLike): boolean {
  return rpc.code === 3010 && /"code":3117|unknown transaction input/i.test(`${rpc.message} ${JSON.stringify(rpc.data ?? null)}`);
}

/** Ogmios error data is an object for every code we meet; anything else is kept under `value`. */
function dataRecord(data: unknown): Record<string, unknown> {
  if (data === undefined || data === null) return {};
  return typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : { value: data };
}

/** Maps anything a chain call can throw to a ChainError. `operation` names the call for the message. */
export function toChainError(err: unknown, operation: string): ChainError {
  if (err instanceof ChainError) return err;
  const rpc = asRpcError(err);
  if (rpc) {
    const type = unknownInputsInEvaluation(rpc) ? "UNKNOWN_OUTPUT_REFERENCES" : typeOfCode(rpc.code);
    return new ChainError(
      type,
      `${operation}: ${rpc.message}`,
      rpc.code,
      OGMIOS_ERROR_NAMES[rpc.code],
      dataRecord(rpc.data),
      type === "CHAIN_UNAVAILABLE" || type === "CHAIN_TIMEOUT" || type === "LEDGER_STATE_UNAVAILABLE",
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  const sysCode = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  const name = err instanceof Error ? err.name : "";
  if (
    name === "ServerNotReady" ||
    /ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|WebSocket is closed|WebSocket was closed|fetch failed|Unexpected server response|closed/i.test(
      `${String(sysCode ?? "")} ${message}`,
    )
  ) {
    return new ChainError("CHAIN_UNAVAILABLE", `${operation}: ${message}`, undefined, undefined, { cause: message }, true);
  }
  return new ChainError("CHAIN_ERROR", `${operation}: ${message}`, undefined, undefined, { cause: message }, false);
}

export function timeoutError(operation: string, ms: number): ChainError {
  return new ChainError("CHAIN_TIMEOUT", `${operation}: no reply within ${ms} ms`, undefined, undefined, { timeoutMs: ms }, true);
}
