/**
 * The two body forms of `POST /extension/tokenizable-certificate/build` (docs/api.md#tokenizable-certificates),
 * parsed into one request:
 * - reference (client) form: `type: CREATE | REDEEM`, `senderAddress`, `certificate { hash, metadata? }`,
 *   `ownerPubKeyHash` (or `ownerAddress`), `assetName` (hex), `initUtxoTxHash`/`initUtxoOutputIndex` (the list),
 *   `bootstrapTokenName?`, `config? { deployer, allowedInserters, cip68ScriptAddress }`; CREATE is an Init when the
 *   list does not exist yet, else an Insert. Answered with the raw hex of the transaction;
 * - spec form: `type: Init | Insert | Redeem`, `address`, `policyId?` (or the init output reference),
 *   `certificate { hash, metadata?, algorithm? }`, `owner` (key hash or address), `assetName`, `config?`, `key`.
 *   Answered with JSON.
 * Every problem is a TokenizableError INVALID_FIELD naming the field.
 */
import { paymentCredentialOf } from "../csl/address";
import { MAX_HASH_BYTES } from "../domain/certificate-request";
import type { OutRef } from "../domain/out-ref";
import type { ListRef } from "../sorted-list";
import { refuseTokenizable } from "./errors";

export type BodyForm = "reference" | "spec";

export interface ListConfigRequest {
  readonly deployer?: string;
  readonly allowedInserters?: readonly string[];
  /** the CIP-68 metadata script's hash; undefined = plain tokens */
  readonly cip68ScriptHash?: string;
}

export interface IssueTerms {
  readonly key: string;
  readonly algorithm: string | undefined;
  /** JSON text of an object, or "" */
  readonly metadata: string;
  /** key hash, or the bech32 address to resolve against the network */
  readonly owner: { readonly keyHash: string } | { readonly address: string };
  readonly assetName: string;
  readonly bootstrapName: string | undefined;
}

export type TokenizableRequest =
  | {
      readonly form: BodyForm;
      readonly action: "Init";
      readonly address: string;
      readonly initRef: OutRef | undefined;
      readonly config: ListConfigRequest | undefined;
      readonly terms: IssueTerms;
    }
  | { readonly form: BodyForm; readonly action: "Insert"; readonly address: string; readonly list: ListRef; readonly terms: IssueTerms }
  | {
      readonly form: "reference";
      readonly action: "Create";
      readonly address: string;
      readonly initRef: OutRef;
      readonly config: ListConfigRequest | undefined;
      readonly terms: IssueTerms;
    }
  | { readonly form: BodyForm; readonly action: "Redeem"; readonly address: string; readonly list: ListRef; readonly key: string };

type Body = Record<string, unknown>;

const HEX = /^[0-9a-fA-F]*$/;
const MAX_INSERTERS = 100;
/** The plain token's name is at most 32 bytes; the CIP-68 pair adds a 4-byte label, so its base name is ≤ 28. */
export const MAX_ASSET_NAME_BYTES = 32;
export const MAX_CIP68_ASSET_NAME_BYTES = 28;

function pick(body: Body, ...names: string[]): unknown {
  for (const n of names) if (body[n] !== undefined && body[n] !== null) return body[n];
  return undefined;
}

function bad(field: string, message: string): never {
  return refuseTokenizable("INVALID_FIELD", `${field} ${message}`, { field });
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

const requiredHex = (v: unknown, field: string, opts: { bytes?: number; maxBytes?: number } = {}): string => hexField(v, field, opts)!;

function keyHashes(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) bad(field, "must be an array of 56-hex-digit key hashes");
  if (v.length > MAX_INSERTERS) bad(field, `holds more than ${MAX_INSERTERS} entries`);
  return [...new Set(v.map((x, i) => requiredHex(x, `${field}[${i}]`, { bytes: 28 })))];
}

function addressField(v: unknown, field: string): string {
  if (typeof v !== "string" || v.trim() === "") bad(field, "is required: the bech32 address of the wallet that pays and signs");
  if (v.length > 200) bad(field, "is too long for a Cardano address");
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

/** `cip68ScriptAddress`: the metadata script's hash (56 hex, as the published client sends it) or its address. */
function scriptHashField(v: unknown, field: string): string | undefined {
  if (v === undefined || v === "") return undefined;
  if (typeof v === "string" && /^[0-9a-fA-F]{56}$/.test(v)) return v.toLowerCase();
  if (typeof v === "string" && v.length <= 200) {
    try {
      const cred = paymentCredentialOf(v.trim());
      if (cred?.kind === "script") return cred.hash.toLowerCase();
    } catch {
      // not an address: refused below
    }
  }
  return bad(
    field,
    "must be the CIP-68 metadata script's hash (56 hex digits) or its script address (GET /extension/tokenizable-certificate/metadata-script)",
  );
}

function configOf(v: unknown): ListConfigRequest | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || Array.isArray(v)) bad("config", "must be an object { deployer?, allowedInserters?, cip68ScriptAddress? }");
  const c = v as Body;
  const deployer = hexField(pick(c, "deployer"), "config.deployer", { bytes: 28, required: false });
  const inserters = pick(c, "allowedInserters", "allowed_inserters");
  const cip68 = scriptHashField(pick(c, "cip68ScriptAddress", "cip68ScriptHash", "cip68_script_address"), "config.cip68ScriptAddress");
  return {
    ...(inserters !== undefined ? { allowedInserters: keyHashes(inserters, "config.allowedInserters") } : {}),
    ...(deployer !== undefined ? { deployer } : {}),
    ...(cip68 !== undefined ? { cip68ScriptHash: cip68 } : {}),
  };
}

/** At most this many characters of metadata JSON (the certificate transaction's metadata bounds it further). */
const MAX_METADATA_CHARS = 16_384;

function metadataOf(v: unknown, field: string): string {
  if (v === undefined || v === "") return "";
  let parsed: unknown = v;
  if (typeof v === "string") {
    if (v.length > MAX_METADATA_CHARS) bad(field, `must be at most ${MAX_METADATA_CHARS} characters`);
    try {
      parsed = JSON.parse(v);
    } catch {
      bad(field, "must be a JSON object (or its JSON text)");
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) bad(field, "must be a JSON object (or its JSON text)");
  const text = JSON.stringify(parsed);
  if (text.length > MAX_METADATA_CHARS) bad(field, `must be at most ${MAX_METADATA_CHARS} characters`);
  return text;
}

function bootstrapNameOf(v: unknown): string | undefined {
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "string" || v.length > 64) bad("bootstrapTokenName", "must be the name of a bootstrap datum (at most 64 characters)");
  return v;
}

function ownerOf(body: Body): IssueTerms["owner"] {
  const keyHash = hexField(pick(body, "ownerPubKeyHash", "owner_pub_key_hash"), "ownerPubKeyHash", { bytes: 28, required: false });
  if (keyHash) return { keyHash };
  const owner = pick(body, "owner", "ownerAddress", "owner_address");
  if (typeof owner === "string" && /^[0-9a-fA-F]{56}$/.test(owner)) return { keyHash: owner.toLowerCase() };
  if (owner === undefined) return bad("ownerPubKeyHash", "is required (or ownerAddress): the key hash of the wallet that may redeem");
  return { address: addressField(owner, "ownerAddress") };
}

function certificateOf(body: Body): { key: string; algorithm: string | undefined; metadata: string } {
  const cert = pick(body, "certificate");
  if (cert === undefined) bad("certificate", "is required: { hash, metadata? }");
  if (typeof cert !== "object" || Array.isArray(cert)) bad("certificate", "must be an object { hash, metadata?, algorithm? }");
  const c = cert as Body;
  const key = requiredHex(pick(c, "hash"), "certificate.hash", { maxBytes: MAX_HASH_BYTES });
  const given = hexField(pick(body, "key"), "key", { maxBytes: MAX_HASH_BYTES, required: false });
  if (given !== undefined && given !== key) bad("key", "must equal certificate.hash (the node key is the certificate hash)");
  const algorithm = pick(c, "algorithm");
  if (algorithm !== undefined && (typeof algorithm !== "string" || algorithm.length > 64))
    bad("certificate.algorithm", "must be a string of at most 64 characters");
  return { key, algorithm: algorithm as string | undefined, metadata: metadataOf(pick(c, "metadata"), "certificate.metadata") };
}

function termsOf(body: Body): IssueTerms {
  const c = certificateOf(body);
  return {
    ...c,
    owner: ownerOf(body),
    assetName: requiredHex(pick(body, "assetName", "asset_name", "assetNameHex"), "assetName", { maxBytes: MAX_ASSET_NAME_BYTES }),
    bootstrapName: bootstrapNameOf(pick(body, "bootstrapTokenName", "bootstrap_token_name")),
  };
}

function listRefOf(body: Body, what: string): ListRef {
  const policyId = hexField(pick(body, "policyId", "policy_id"), "policyId", { bytes: 28, required: false });
  if (policyId) return { policyId };
  const initRef = outRefOf(body, false);
  if (initRef) return { initRef };
  return bad("policyId", `is required for ${what} (or initUtxoTxHash and initUtxoOutputIndex)`);
}

const SPEC_TYPES = ["init", "insert", "redeem"];
const REFERENCE_TYPES = ["create", "redeem"];

/** @throws TokenizableError INVALID_FIELD */
export function parseTokenizableRequest(body: Body): TokenizableRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) bad("body", "must be a JSON object");
  const rawType = pick(body, "type");
  const raw = typeof rawType === "string" ? rawType.trim() : "";
  const type = raw.toLowerCase();
  if (!SPEC_TYPES.includes(type) && !REFERENCE_TYPES.includes(type))
    bad("type", "must be Init, Insert or Redeem (or the reference form's CREATE or REDEEM)");
  // The reference form writes its types in capitals (CREATE, REDEEM) and names the sender senderAddress.
  const reference = type === "create" || (type === "redeem" && raw === "REDEEM");
  const address = reference
    ? addressField(pick(body, "senderAddress", "sender_address", "address"), "senderAddress")
    : addressField(pick(body, "address", "senderAddress"), "address");
  const form: BodyForm = reference ? "reference" : "spec";

  if (type === "redeem") {
    const cert = pick(body, "certificate");
    const hash = cert && typeof cert === "object" && !Array.isArray(cert) ? pick(cert as Body, "hash") : undefined;
    const key = requiredHex(hash ?? pick(body, "key"), hash !== undefined ? "certificate.hash" : "key", { maxBytes: MAX_HASH_BYTES });
    const list: ListRef = reference ? { initRef: outRefOf(body, true)! } : listRefOf(body, "a Redeem");
    return { form, action: "Redeem", address, list, key };
  }
  if (type === "create") {
    return {
      form: "reference",
      action: "Create",
      address,
      initRef: outRefOf(body, true)!,
      config: configOf(pick(body, "config")),
      terms: termsOf(body),
    };
  }
  const terms = termsOf(body);
  if (type === "insert") return { form, action: "Insert", address, list: listRefOf(body, "an Insert"), terms };
  if (pick(body, "policyId") !== undefined) bad("policyId", "must be omitted for Init: Init creates a new list (use Insert to add to one)");
  return { form, action: "Init", address, initRef: outRefOf(body, false), config: configOf(pick(body, "config")), terms };
}
