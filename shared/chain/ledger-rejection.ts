/**
 * A ledger rejection (Ogmios submitTransaction error) as one readable sentence plus its Ogmios code, for the
 * submit endpoint's 400 body (docs/api.md#submit). It reads the Ogmios error codes and their `data` shapes (Ogmios v6.14 ogmios.json,
 * SubmitTransactionFailure*), so it lives with the chain client: no other module looks at Ogmios codes.
 */
import { typeOfCode } from "./errors";

export interface LedgerFailureLike {
  /** Ogmios JSON-RPC error code (31xx, 3005, 399x, …) */
  code?: number | undefined;
  /** Ogmios schema name of the code, e.g. `MissingSignatories` */
  reason?: string | undefined;
  message?: string | undefined;
  data?: unknown;
}

export interface LedgerRejection {
  code: number | null;
  reason: string | null;
  message: string;
  /** the Ogmios `data`, JSON-safe (bigints as decimal strings) */
  details: unknown;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** bigint → string, recursively: the broker's JSON serializer refuses bigints. */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}

const refText = (r: unknown): string => {
  if (!isObject(r)) return String(r);
  const tx = isObject(r["transaction"]) ? String(r["transaction"]["id"]) : String(r["txId"] ?? "?");
  return `${tx}#${String(r["index"])}`;
};

const list = (xs: readonly string[], max = 5): string =>
  xs.length <= max ? xs.join(", ") : `${xs.slice(0, max).join(", ")} and ${xs.length - max} more`;

const lovelaceOf = (v: unknown): string | null => {
  if (isObject(v) && isObject(v["ada"])) return String(v["ada"]["lovelace"]);
  return null;
};

/** Script traces and the failing rule out of a phase-2 failure text (trace lines, deduplicated). */
function scriptFailureText(reason: unknown): string {
  const text = typeof reason === "string" ? reason : JSON.stringify(reason ?? "");
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return [...new Set(lines)].slice(0, 8).join(" | ");
}

/** The sentence for each rejection we expect users to hit; anything else falls back to the ledger's own text. */
function sentence(code: number | undefined, data: unknown, fallback: string): string {
  const d = isObject(data) ? data : {};
  switch (code) {
    case 3100: {
      const keys = Array.isArray(d["invalidSignatories"]) ? (d["invalidSignatories"] as string[]) : [];
      return `Some signatures do not verify against the transaction body (tampered transaction or wrong witness)${keys.length ? `: keys ${list(keys)}` : ""}.`;
    }
    case 3101: {
      const keys = Array.isArray(d["missingSignatories"]) ? (d["missingSignatories"] as string[]) : [];
      return `The transaction is missing signatures${keys.length ? ` from key hash(es) ${list(keys)}` : ""}: sign it with the wallet that owns them and submit it with the witness set.`;
    }
    case 3117: {
      const refs = Array.isArray(d["unknownOutputReferences"]) ? (d["unknownOutputReferences"] as unknown[]).map(refText) : [];
      return `The transaction spends or references outputs that do not exist (already spent or never created)${refs.length ? `: ${list(refs)}` : ""}. Build a fresh transaction.`;
    }
    case 3118: {
      const v = isObject(d["validityInterval"]) ? d["validityInterval"] : {};
      const window = [
        v["invalidBefore"] !== undefined ? `from slot ${String(v["invalidBefore"])}` : "",
        v["invalidAfter"] !== undefined ? `until slot ${String(v["invalidAfter"])}` : "",
      ]
        .filter((s) => s !== "")
        .join(" ");
      return `The transaction is outside its validity interval${window ? ` (valid ${window}` : ""}${d["currentSlot"] !== undefined ? `${window ? "; " : " ("}current slot ${String(d["currentSlot"])})` : window ? ")" : ""}: it expired or is not valid yet. Build a fresh transaction.`;
    }
    case 3122: {
      const min = lovelaceOf(d["minimumRequiredFee"]);
      const given = lovelaceOf(d["providedFee"]);
      return `The transaction fee is too small${min ? `: ${given ?? "?"} lovelace given, at least ${min} required` : ""}.`;
    }
    case 3123:
      return "The transaction does not balance: the value consumed differs from the value produced.";
    case 3125:
      return "Some outputs hold less than the minimum UTxO value (min-ADA).";
    case 3124:
      return "Some addresses belong to another network.";
    case 3102: {
      const s = Array.isArray(d["missingScripts"]) ? (d["missingScripts"] as string[]) : [];
      return `Scripts needed to validate the transaction are missing${s.length ? `: ${list(s)}` : ""}.`;
    }
    case 3113:
      return "The script integrity hash does not match the redeemers, datums and cost models of the transaction (it was altered after building).";
    case 3128:
    case 3132:
    case 3133:
      return `The transaction's collateral is missing or insufficient. ${fallback}`;
    case 3136:
    case 3010:
    case 3012: {
      const traces = scriptFailureText(d["mismatchReason"] ?? d["validationError"] ?? fallback);
      return `A script rejected the transaction${traces ? `: ${traces}` : "."}`;
    }
    case 3141:
      return "The transaction withdraws from a reward account that is not registered, or withdraws the wrong amount.";
    default:
      return fallback;
  }
}

/**
 * Whether a ledger rejection's Ogmios code (LEDGER_REJECTED carries it as `data.code`) says the transaction spends
 * an output the ledger does not know: spent by another transaction, or never created (UNKNOWN_OUTPUT_REFERENCES).
 */
export function isUnknownInputsRejection(code: unknown): boolean {
  return typeof code === "number" && typeOfCode(code) === "UNKNOWN_OUTPUT_REFERENCES";
}

/** The 400 body parts of a ledger rejection. */
export function describeLedgerRejection(err: LedgerFailureLike): LedgerRejection {
  const raw = (err.message ?? "the ledger rejected the transaction").replace(/^submitTransaction:\s*/, "");
  return {
    code: err.code ?? null,
    reason: err.reason ?? null,
    message: `The ledger rejected the transaction${err.reason ? ` (${err.reason})` : ""}: ${sentence(err.code, err.data, raw)}`,
    details: jsonSafe(err.data ?? null),
  };
}
