/**
 * The two body forms of `POST /extension/fractionized-certificate/build` (docs/api.md#fractionized-certificates),
 * parsed into one request:
 * - reference form: `type: CREATE | REDEEM`, `senderAddress`, `initUtxoTxHash`/`initUtxoOutputIndex` (the list),
 *   `key`, `totalAmount`, `claimants`, `assetName` (hex), `config?`, `bootstrapTokenName?`, `amount`; CREATE is an
 *   Init when the list does not exist yet, else an Insert. Answered with the raw hex of the transaction;
 * - spec form: `type: Init | Insert | Claim`, `address`, `policyId?`, `certificate { hash, metadata?, algorithm? }`,
 *   `tokenAmount`, `assetName` (hex), `claimants`, `claimer`, `amount`, `key`. Answered with JSON.
 * Every problem is a FractionizedError INVALID_FIELD naming the field.
 */
import type { OutRef } from "../domain/out-ref";
import { MAX_HASH_BYTES } from "../domain/certificate-request";
import { refuseFractionized } from "./errors";

export type BodyForm = "reference" | "spec";

import type { ListRef } from "../sorted-list";

export type { ListRef };

export interface IssueTerms {
  readonly key: string;
  readonly algorithm: string | undefined;
  /** JSON text of an object, or "" */
  readonly metadata: string;
  readonly totalAmount: bigint;
  readonly claimants: readonly string[];
  readonly assetName: string;
  /** the bootstrap datum whose states anchor the key (default: any) */
  readonly bootstrapName: string | undefined;
}

export type FractionizedRequest =
  | {
      readonly form: BodyForm;
      readonly action: "Init";
      readonly address: string;
      readonly initRef: OutRef | undefined;
      readonly config: { readonly allowedInserters?: readonly string[]; readonly deployer?: string } | undefined;
      readonly terms: IssueTerms;
    }
  | { readonly form: BodyForm; readonly action: "Insert"; readonly address: string; readonly list: ListRef; readonly terms: IssueTerms }
  /** reference CREATE: Init or Insert, depending on whether the list exists */
  | {
      readonly form: "reference";
      readonly action: "Create";
      readonly address: string;
      readonly initRef: OutRef;
      readonly config: { readonly allowedInserters?: readonly string[]; readonly deployer?: string } | undefined;
      readonly terms: IssueTerms;
    }
  | {
      readonly form: BodyForm;
      readonly action: "Claim";
      readonly address: string;
      readonly list: ListRef;
      readonly key: string;
      /** key hash; default: the address's payment key */
      readonly claimer: string | undefined;
      readonly amount: bigint;
    };

type Body = Record<string, unknown>;

const HEX = /^[0-9a-fA-F]*$/;
/** Token amounts stay within JSON's exact integers, so status answers them as numbers. */
export const MAX_TOKEN_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_CLAIMANTS = 100;

function pick(body: Body, ...names: string[]): unknown {
  for (const n of names) if (body[n] !== undefined && body[n] !== null) return body[n];
  return undefined;
}

function bad(field: string, message: string): never {
  return refuseFractionized("INVALID_FIELD", `${field} ${message}`, { field });
}

export function hexField(
  v: unknown,
  field: string,
  opts: { bytes?: number; maxBytes?: number; required?: boolean } = {},
): string | undefined {
  if (v === undefined || v === "") {
    if (opts.required !== false) bad(field, "is required");
    return undefined;
  }
  if (typeof v !== "string" || !HEX.test(v) || v.length % 2 !== 0) bad(field, "must be even-length hexadecimal");
  const bytes = v.length / 2;
  if (opts.bytes !== undefined && bytes !== opts.bytes) bad(field, `must be ${opts.bytes} bytes (${opts.bytes * 2} hex digits)`);
  if (opts.maxBytes !== undefined && bytes > opts.maxBytes) bad(field, `must be at most ${opts.maxBytes} bytes`);
  return v.toLowerCase();
}

function requiredHex(v: unknown, field: string, opts: { bytes?: number; maxBytes?: number } = {}): string {
  return hexField(v, field, opts)!;
}

/** A positive integer (number or decimal string) up to MAX_TOKEN_AMOUNT; amounts ≤ 0 are AMOUNT_OUT_OF_RANGE. */
export function amountField(v: unknown, field: string): bigint {
  if (v === undefined) bad(field, "is required");
  let n: bigint | undefined;
  if (typeof v === "number" && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === "string" && /^-?\d{1,20}$/.test(v.trim())) n = BigInt(v.trim());
  if (n === undefined) bad(field, "must be an integer");
  if (n <= 0n) refuseFractionized("AMOUNT_OUT_OF_RANGE", `${field} must be greater than 0 (got ${n})`, { field });
  if (n > MAX_TOKEN_AMOUNT) refuseFractionized("AMOUNT_OUT_OF_RANGE", `${field} must be at most ${MAX_TOKEN_AMOUNT}`, { field });
  return n;
}

function keyHashes(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) bad(field, "must be an array of 56-hex-digit key hashes");
  if (v.length > MAX_CLAIMANTS) bad(field, `holds more than ${MAX_CLAIMANTS} entries`);
  return [...new Set(v.map((x, i) => requiredHex(x, `${field}[${i}]`, { bytes: 28 })))];
}

function addressField(v: unknown, field: string): string {
  if (typeof v !== "string" || v.trim() === "") bad(field, "is required: the bech32 address of the wallet that pays and signs");
  return v.trim();
}

function outRefOf(body: Body, required: boolean): OutRef | undefined {
  const txHash = hexField(pick(body, "initUtxoTxHash", "init_utxo_tx_hash"), "initUtxoTxHash", { bytes: 32, required });
  const rawIndex = pick(body, "initUtxoOutputIndex", "init_utxo_output_index");
  if (txHash === undefined) {
    if (rawIndex !== undefined) bad("initUtxoTxHash", "is required with initUtxoOutputIndex");
    return undefined;
  }
  const index = typeof rawIndex === "string" && /^\d{1,5}$/.test(rawIndex) ? Number(rawIndex) : rawIndex;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > 65535)
    bad("initUtxoOutputIndex", "must be an integer from 0 to 65535");
  return { txHash, index };
}

function configOf(v: unknown): { allowedInserters?: readonly string[]; deployer?: string } | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) bad("config", "must be an object { allowedInserters?, deployer? }");
  const c = v as Body;
  const deployer = hexField(pick(c, "deployer"), "config.deployer", { bytes: 28, required: false });
  const inserters = pick(c, "allowedInserters", "allowed_inserters");
  return {
    ...(inserters !== undefined ? { allowedInserters: keyHashes(inserters, "config.allowedInserters") } : {}),
    ...(deployer !== undefined ? { deployer } : {}),
  };
}

function metadataOf(v: unknown, field: string): string {
  if (v === undefined || v === "") return "";
  let parsed: unknown = v;
  if (typeof v === "string") {
    try {
      parsed = JSON.parse(v);
    } catch {
      bad(field, "must be a JSON object (or its JSON text)");
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) bad(field, "must be a JSON object (or its JSON text)");
  return JSON.stringify(parsed);
}

function bootstrapNameOf(v: unknown): string | undefined {
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "string" || v.length > 64) bad("bootstrapTokenName", "must be the name of a bootstrap datum (at most 64 characters)");
  return v;
}

function listRefOf(body: Body, what: string): ListRef {
  const policyId = hexField(pick(body, "policyId", "policy_id"), "policyId", { bytes: 28, required: false });
  if (policyId) return { policyId };
  const initRef = outRefOf(body, false);
  if (initRef) return { initRef };
  return bad("policyId", `is required for ${what} (or initUtxoTxHash and initUtxoOutputIndex)`);
}

const SPEC_TYPES = ["init", "insert", "claim"];
const REFERENCE_TYPES = ["create", "redeem"];

/** @throws FractionizedError INVALID_FIELD / AMOUNT_OUT_OF_RANGE */
export function parseFractionizedRequest(body: Body): FractionizedRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) bad("body", "must be a JSON object");
  const rawType = pick(body, "type");
  const type = typeof rawType === "string" ? rawType.trim().toLowerCase() : "";
  if (!SPEC_TYPES.includes(type) && !REFERENCE_TYPES.includes(type))
    bad("type", "must be Init, Insert or Claim (or the reference form's CREATE or REDEEM)");

  if (REFERENCE_TYPES.includes(type)) {
    const address = addressField(pick(body, "senderAddress", "sender_address", "address"), "senderAddress");
    const initRef = outRefOf(body, true)!;
    const key = requiredHex(pick(body, "key"), "key", { maxBytes: MAX_HASH_BYTES });
    if (type === "redeem") {
      const claimer = hexField(pick(body, "claimer"), "claimer", { bytes: 28, required: false });
      return {
        form: "reference",
        action: "Claim",
        address,
        list: { initRef },
        key,
        claimer,
        amount: amountField(pick(body, "amount"), "amount"),
      };
    }
    return {
      form: "reference",
      action: "Create",
      address,
      initRef,
      config: configOf(pick(body, "config")),
      terms: {
        key,
        algorithm: undefined,
        metadata: metadataOf(pick(body, "metadata"), "metadata"),
        totalAmount: amountField(pick(body, "totalAmount", "total_amount"), "totalAmount"),
        claimants: keyHashes(pick(body, "claimants"), "claimants"),
        assetName: requiredHex(pick(body, "assetName", "asset_name"), "assetName", { maxBytes: 32 }),
        bootstrapName: bootstrapNameOf(pick(body, "bootstrapTokenName", "bootstrap_token_name")),
      },
    };
  }

  const address = addressField(pick(body, "address", "senderAddress"), "address");
  if (type === "claim") {
    return {
      form: "spec",
      action: "Claim",
      address,
      list: listRefOf(body, "a Claim"),
      key: requiredHex(pick(body, "key"), "key", { maxBytes: MAX_HASH_BYTES }),
      claimer: hexField(pick(body, "claimer"), "claimer", { bytes: 28, required: false }),
      amount: amountField(pick(body, "amount"), "amount"),
    };
  }
  const cert = pick(body, "certificate");
  if (cert === undefined) bad("certificate", "is required: { hash, metadata?, algorithm? }");
  if (typeof cert !== "object" || Array.isArray(cert)) bad("certificate", "must be an object { hash, metadata?, algorithm? }");
  const c = cert as Body;
  const key = requiredHex(pick(c, "hash"), "certificate.hash", { maxBytes: MAX_HASH_BYTES });
  const given = hexField(pick(body, "key"), "key", { maxBytes: MAX_HASH_BYTES, required: false });
  if (given !== undefined && given !== key) bad("key", "must equal certificate.hash (the node key is the certificate hash)");
  const algorithm = pick(c, "algorithm");
  if (algorithm !== undefined && (typeof algorithm !== "string" || algorithm.length > 64))
    bad("certificate.algorithm", "must be a string of at most 64 characters");
  const terms: IssueTerms = {
    key,
    algorithm: algorithm as string | undefined,
    metadata: metadataOf(pick(c, "metadata"), "certificate.metadata"),
    totalAmount: amountField(pick(body, "tokenAmount", "totalAmount"), "tokenAmount"),
    claimants: keyHashes(pick(body, "claimants"), "claimants"),
    assetName: requiredHex(pick(body, "assetName"), "assetName", { maxBytes: 32 }),
    bootstrapName: bootstrapNameOf(pick(body, "bootstrapTokenName")),
  };
  if (type === "insert") return { form: "spec", action: "Insert", address, list: listRefOf(body, "an Insert"), terms };
  if (pick(body, "policyId") !== undefined) bad("policyId", "must be omitted for Init: Init creates a new list (use Insert to add to one)");
  return { form: "spec", action: "Init", address, initRef: outRefOf(body, false), config: configOf(pick(body, "config")), terms };
}
