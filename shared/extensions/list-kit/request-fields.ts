/**
 * Reading the fields list-extension requests share (docs/api.md#fractionized-certificates,
 * docs/api.md#tokenizable-certificates): hex fields, key-hash lists, the sender's address, the init output
 * reference, the list reference, the list config's deployer and inserters, the certificate's metadata and
 * algorithm, the bootstrap name, and the status route's query. Every problem is refused through the extension's
 * own `refuse` as INVALID_FIELD naming the field, so each extension keeps its error class. Hex fields come out as
 * their types (shared/domain/hex.ts): a key as a DataHash, key hashes, a policy id, the init transaction's id.
 */
import { identityRecordProblem } from "../../credentials/identity-record";
import { algorithmProblem, MAX_HASH_BYTES } from "../../domain/certificate-request";
import { unprintableInJson, unprintableProblem } from "../../domain/printable-text";
import { DataHash, HEX_PATTERNS, HexBytes, KeyHash, PolicyId, TxHash, type Hex, type HexType } from "../../domain/hex";
import type { OutRef } from "../../domain/out-ref";
import { nodeAssetName } from "./list-tokens";
import type { ListRefuse } from "./list-errors";
import type { ListRef } from "./list-source";

export type Body = Record<string, unknown>;
export type BodyForm = "reference" | "spec";

/** At most this many key hashes in a list of inserters or claimants. */
const MAX_KEY_HASHES = 100;

/** The first of the names (camelCase, snake_case, …) the body gives, null counting as absent. */
export function pick(body: Body, ...names: string[]): unknown {
  for (const n of names) if (body[n] !== undefined && body[n] !== null) return body[n];
  return undefined;
}

interface HexOptions {
  bytes?: number;
  maxBytes?: number;
  required?: boolean;
}

/** Longest sender/owner address accepted, in characters (a Shelley base address is ~100-110). */
const MAX_ADDRESS_CHARS = 200;
/** Longest certificate metadata JSON accepted, in characters (the transaction's size bounds it further). */
const MAX_METADATA_CHARS = 16_384;

/** The list config a request may set for an Init: the deployer and the allowed inserters (key hashes). */
export interface BaseListConfigRequest {
  readonly deployer?: KeyHash;
  readonly allowedInserters?: readonly KeyHash[];
}

/** The certificate a request anchors as its key. */
export interface CertificateFields {
  readonly key: DataHash;
  readonly algorithm: string | undefined;
  /** JSON text of an object, or "" */
  readonly metadata: string;
}

export interface StatusQuery {
  key?: unknown;
  policyId?: unknown;
  initUtxoTxHash?: unknown;
  initUtxoOutputIndex?: unknown;
}

/** The field readers of one extension, refusing through its `refuse`. */
export function requestFields(refuse: ListRefuse) {
  const bad = (field: string, message: string): never => refuse("INVALID_FIELD", `${field} ${message}`, { field });

  /** The field as `type`, once it is even-length hex of the length `opts` asks for (each problem worded). */
  function typedHex<T extends Hex>(type: HexType<T>, v: unknown, field: string, opts: HexOptions = {}): T | undefined {
    if (v === undefined || v === "") {
      if (opts.required !== false) bad(field, "is required");
      return undefined;
    }
    if (typeof v !== "string" || !HEX_PATTERNS.bytes.test(v)) bad(field, "must be even-length hexadecimal");
    const s = v as string;
    const bytes = s.length / 2;
    if (opts.bytes !== undefined && bytes !== opts.bytes) bad(field, `must be ${opts.bytes} bytes (${opts.bytes * 2} hex digits)`);
    if (opts.maxBytes !== undefined && bytes > opts.maxBytes) bad(field, `must be at most ${opts.maxBytes} bytes`);
    return type(s);
  }

  /** Even-length hex of any length (an asset name). */
  const hexField = (v: unknown, field: string, opts: HexOptions = {}): HexBytes | undefined => typedHex(HexBytes, v, field, opts);

  /** A certificate's hash (the key of a node): even-length hex of at most MAX_HASH_BYTES. */
  const dataHashField = (v: unknown, field: string, required = true): DataHash | undefined =>
    typedHex(DataHash, v, field, { maxBytes: MAX_HASH_BYTES, required });
  const requiredDataHash = (v: unknown, field: string): DataHash => dataHashField(v, field)!;

  /** A payment key hash: 28 bytes. */
  const keyHashField = (v: unknown, field: string, required = true): KeyHash | undefined =>
    typedHex(KeyHash, v, field, { bytes: 28, required });

  function keyHashes(v: unknown, field: string): KeyHash[] {
    if (v === undefined) return [];
    if (!Array.isArray(v)) bad(field, "must be an array of 56-hex-digit key hashes");
    const list = v as unknown[];
    if (list.length > MAX_KEY_HASHES) bad(field, `holds more than ${MAX_KEY_HASHES} entries`);
    return [...new Set(list.map((x, i) => keyHashField(x, `${field}[${i}]`)!))];
  }

  function addressField(v: unknown, field: string): string {
    if (typeof v !== "string" || v.trim() === "") bad(field, "is required: the bech32 address of the wallet that pays and signs");
    const s = v as string;
    if (s.length > MAX_ADDRESS_CHARS) bad(field, `is too long for a Cardano address (at most ${MAX_ADDRESS_CHARS} characters)`);
    return s.trim();
  }

  /** The init output reference (`initUtxoTxHash`, `initUtxoOutputIndex`). */
  function initRefOf(body: Body, required: boolean): OutRef | undefined {
    const txHash = typedHex(TxHash, pick(body, "initUtxoTxHash", "init_utxo_tx_hash"), "initUtxoTxHash", { bytes: 32, required });
    const rawIndex = pick(body, "initUtxoOutputIndex", "init_utxo_output_index");
    if (txHash === undefined) {
      if (rawIndex !== undefined) bad("initUtxoTxHash", "is required with initUtxoOutputIndex");
      return undefined;
    }
    const index = typeof rawIndex === "string" && /^\d{1,5}$/.test(rawIndex) ? Number(rawIndex) : rawIndex;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > 65535)
      bad("initUtxoOutputIndex", "must be an integer from 0 to 65535");
    return { txHash, index: index as number };
  }

  /**
   * The deployer and inserters of a `config` object (the caller has checked it is an object), and the
   * extension's own config fields (read between the deployer and the inserters).
   */
  function listConfigOf<E extends object>(c: Body, own: (c: Body) => E): BaseListConfigRequest & E {
    const deployer = keyHashField(pick(c, "deployer"), "config.deployer", false);
    const inserters = pick(c, "allowedInserters", "allowed_inserters");
    const extra = own(c);
    return {
      ...(inserters !== undefined ? { allowedInserters: keyHashes(inserters, "config.allowedInserters") } : {}),
      ...(deployer !== undefined ? { deployer } : {}),
      ...extra,
    };
  }

  function metadataOf(v: unknown, field: string): string {
    if (v === undefined || v === "") return "";
    const tooLong = (): never => bad(field, `must be at most ${MAX_METADATA_CHARS} characters of JSON`);
    let parsed: unknown = v;
    if (typeof v === "string") {
      if (v.length > MAX_METADATA_CHARS) tooLong();
      try {
        parsed = JSON.parse(v);
      } catch {
        bad(field, "must be a JSON object (or its JSON text)");
      }
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) bad(field, "must be a JSON object (or its JSON text)");
    const text = JSON.stringify(parsed);
    if (text.length > MAX_METADATA_CHARS) tooLong();
    const unprintable = unprintableInJson(parsed, field);
    if (unprintable !== undefined) refuse("INVALID_FIELD", `${unprintable[0]} ${unprintable[1]}`, { field: unprintable[0] });
    const identity = identityRecordProblem(text);
    if (identity !== undefined) bad(field, identity);
    return text;
  }

  function bootstrapNameOf(v: unknown): string | undefined {
    if (v === undefined || v === "") return undefined;
    if (typeof v !== "string" || v.length > 64) bad("bootstrapTokenName", "must be the name of a bootstrap datum (at most 64 characters)");
    const unprintable = unprintableProblem(v as string);
    if (unprintable !== undefined) bad("bootstrapTokenName", unprintable);
    return v as string;
  }

  /**
   * The spec form's `certificate { hash, metadata?, algorithm? }`; a `key` beside it must equal the hash.
   * @param shape how the refusal of a missing certificate spells the object
   */
  function certificateOf(body: Body, shape: string): CertificateFields {
    const cert = pick(body, "certificate");
    if (cert === undefined) bad("certificate", `is required: ${shape}`);
    if (typeof cert !== "object" || Array.isArray(cert)) bad("certificate", "must be an object { hash, metadata?, algorithm? }");
    const c = cert as Body;
    const key = requiredDataHash(pick(c, "hash"), "certificate.hash");
    const given = dataHashField(pick(body, "key"), "key", false);
    if (given !== undefined && given !== key) bad("key", "must equal certificate.hash (the node key is the certificate hash)");
    const algorithm = pick(c, "algorithm");
    const algorithmRefusal = algorithm === undefined ? undefined : algorithmProblem(algorithm);
    if (algorithmRefusal !== undefined) bad("certificate.algorithm", algorithmRefusal);
    return { key, algorithm: algorithm as string | undefined, metadata: metadataOf(pick(c, "metadata"), "certificate.metadata") };
  }

  /**
   * The asset name of the node of `key`: always `blake2b_224(key)` (nodeAssetName), the only name the validators let
   * a node mint, so two nodes of a list can never mint the same token. The field may be left out; a client that
   * sends it must send that name (anything else would not be what the list mints).
   */
  function assetNameOf(v: unknown, key: DataHash): HexBytes {
    const derived = nodeAssetName(key);
    const given = hexField(v, "assetName", { required: false });
    if (given !== undefined && given !== derived)
      refuse(
        "INVALID_FIELD",
        `assetName is not chosen by the caller: a list names each node's tokens after its key, blake2b-224(certificate hash) = ${derived} for this key (so no two nodes can mint the same token); send that value or leave assetName out`,
        { field: "assetName", assetName: derived },
      );
    return derived;
  }

  /** The list a request names: `policyId`, or the init output reference. */
  function listRefOf(body: Body, what: string): ListRef {
    const policyId = typedHex(PolicyId, pick(body, "policyId", "policy_id"), "policyId", { bytes: 28, required: false });
    if (policyId) return { policyId };
    const initRef = initRefOf(body, false);
    if (initRef) return { initRef };
    return bad("policyId", `is required for ${what} (or initUtxoTxHash and initUtxoOutputIndex)`);
  }

  /** The status route's key and list (`?policyId=` or `?initUtxoTxHash=&initUtxoOutputIndex=`). */
  function parseStatusQuery(q: StatusQuery): { key: DataHash; list: ListRef } {
    const key = requiredDataHash(q.key, "key");
    const policyId = typedHex(PolicyId, q.policyId, "policyId", { bytes: 28, required: false });
    if (policyId) return { key, list: { policyId } };
    const txHash = typedHex(TxHash, q.initUtxoTxHash, "initUtxoTxHash", { bytes: 32, required: false });
    const rawIndex = q.initUtxoOutputIndex;
    const index = typeof rawIndex === "string" && /^\d{1,5}$/.test(rawIndex) ? Number(rawIndex) : rawIndex;
    if (txHash === undefined || typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > 65535)
      return refuse("INVALID_FIELD", "Name the list: ?policyId=<56 hex> or ?initUtxoTxHash=<64 hex>&initUtxoOutputIndex=<integer>.", {
        field: txHash === undefined ? "policyId" : "initUtxoOutputIndex",
      });
    return { key, list: { initRef: { txHash, index } } };
  }

  return {
    bad,
    hexField,
    dataHashField,
    requiredDataHash,
    keyHashField,
    keyHashes,
    addressField,
    initRefOf,
    listConfigOf,
    metadataOf,
    bootstrapNameOf,
    certificateOf,
    assetNameOf,
    listRefOf,
    parseStatusQuery,
  };
}

export type RequestFields = ReturnType<typeof requestFields>;
