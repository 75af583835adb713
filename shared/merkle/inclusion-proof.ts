/**
 * Inclusion proofs of the batch tree (merkle-tree.ts) and of the calendar's transparency log, and their offline
 * check, RFC 9162 §2.1.3.2: from the leaf hash and the sibling path, recompute the root of a tree of `treeSize` leaves
 * and compare. Needs nothing but SHA-256: no store, no chain, no service (docs/merkle-batches.md#proof-format,
 * docs/transparency-log.md#anchored-proofs). In a log proof the tree's leaf is the log entry SHA-256(nonce ‖ leaf),
 * and the proof carries the signed checkpoint, whose text must name the proof's origin, size and root.
 */
import { createHash } from "node:crypto";
import { HEX_PATTERNS } from "../domain/hex";
import { parseCheckpoint } from "../tlog/checkpoint";
import { splitNote } from "../tlog/note";
import { TLOG_CHECKPOINT_SCHEME } from "../transparency-log/log-entries";
import { MERKLE_SCHEME, leafHash, nodeHash } from "./merkle-tree";

/** A self-contained proof that `leaf` is leaf number `leafIndex` of the tree of `treeSize` leaves whose root is `root`. */
export interface InclusionProof {
  scheme: typeof MERKLE_SCHEME;
  /** the submitted hash (the leaf input), hex */
  leaf: string;
  leafIndex: number;
  treeSize: number;
  /** sibling hashes, bottom first, hex */
  path: string[];
  /** the tree's root (the anchored certificate hash), hex */
  root: string;
}

export type ProofCheck = { valid: true } | { valid: false; reason: string };

/**
 * The root that a leaf hash and path give for `leafIndex` in a tree of `treeSize` leaves (RFC 9162 §2.1.3.2),
 * or undefined when the path has the wrong length for that position.
 */
export function rootFromPath(leaf: Uint8Array, leafIndex: number, treeSize: number, path: readonly Uint8Array[]): Buffer | undefined {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize) return undefined;
  // Sizes beyond 2^53 cannot occur (safe integers); BigInt keeps the shifts exact all the same.
  let fn = BigInt(leafIndex);
  let sn = BigInt(treeSize - 1);
  let r: Buffer = Buffer.from(leaf);
  for (const p of path) {
    if (sn === 0n) return undefined;
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? r : undefined;
}

/** Whether `leafHashBytes` is at `leafIndex` of the tree of `treeSize` leaves with this root. */
export function verifyInclusion(
  leafHashBytes: Uint8Array,
  leafIndex: number,
  treeSize: number,
  path: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  const computed = rootFromPath(leafHashBytes, leafIndex, treeSize, path);
  return computed !== undefined && computed.equals(root);
}

/** The log proof's own fields: the nonce, and a checkpoint whose text names the proof's origin, size and root. */
function checkLogFields(p: Record<string, unknown>): ProofCheck {
  const { nonce, origin, checkpoint, treeSize, root } = p;
  if (typeof nonce !== "string" || !/^[0-9a-f]{32}$/.test(nonce)) return { valid: false, reason: "nonce must be 32 lowercase hex digits" };
  if (typeof origin !== "string" || origin === "") return { valid: false, reason: "origin must name the log" };
  if (typeof checkpoint !== "string") return { valid: false, reason: "checkpoint must be the log's signed checkpoint" };
  const split = splitNote(checkpoint);
  const parsed = split.ok ? parseCheckpoint(split.value.text) : split;
  if (!parsed.ok) return { valid: false, reason: `checkpoint is not a signed checkpoint: ${parsed.error}` };
  const c = parsed.value;
  if (c.origin !== origin || c.size !== treeSize || Buffer.from(c.rootHash).toString("hex") !== root)
    return { valid: false, reason: `the checkpoint names ${c.origin} at size ${c.size}, not the proof's origin, treeSize and root` };
  return { valid: true };
}

/** The tree's leaf hash of a proof's `leaf`: of the hash itself in a batch, of SHA-256(nonce ‖ hash) in the log. */
function proofLeafHash(p: Record<string, unknown>, leaf: string): Buffer {
  const bytes = Buffer.from(leaf, "hex");
  if (p["scheme"] !== TLOG_CHECKPOINT_SCHEME) return leafHash(bytes);
  return leafHash(
    createHash("sha256")
      .update(Buffer.from(p["nonce"] as string, "hex"))
      .update(bytes)
      .digest(),
  );
}

/** Checks a JSON proof offline: its shape first, then the recomputed root. Never throws. */
export function checkInclusionProof(proof: unknown): ProofCheck {
  if (proof === null || typeof proof !== "object") return { valid: false, reason: "a proof must be a JSON object" };
  const p = proof as Record<string, unknown>;
  if (p["scheme"] !== MERKLE_SCHEME && p["scheme"] !== TLOG_CHECKPOINT_SCHEME)
    return { valid: false, reason: `scheme must be ${MERKLE_SCHEME} or ${TLOG_CHECKPOINT_SCHEME}` };
  const { leaf, leafIndex, treeSize, path, root } = p;
  if (typeof leaf !== "string" || leaf === "" || !HEX_PATTERNS.bytes.test(leaf))
    return { valid: false, reason: "leaf must be non-empty even-length hex" };
  if (typeof root !== "string" || !HEX_PATTERNS.hash32.test(root)) return { valid: false, reason: "root must be 64 hex digits" };
  if (typeof treeSize !== "number" || !Number.isSafeInteger(treeSize) || treeSize < 1)
    return { valid: false, reason: "treeSize must be a positive integer" };
  if (typeof leafIndex !== "number" || !Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= treeSize)
    return { valid: false, reason: "leafIndex must be an integer from 0 to treeSize - 1" };
  if (!Array.isArray(path) || !path.every((x): x is string => typeof x === "string" && HEX_PATTERNS.hash32.test(x)))
    return { valid: false, reason: "path must be an array of 64-hex-digit hashes" };
  if (p["scheme"] === TLOG_CHECKPOINT_SCHEME) {
    if (!HEX_PATTERNS.hash32.test(leaf)) return { valid: false, reason: "leaf must be a 32-byte hash, 64 hex digits" };
    const fields = checkLogFields(p);
    if (!fields.valid) return fields;
  }
  const siblings = path.map((x) => Buffer.from(x, "hex"));
  const computed = rootFromPath(proofLeafHash(p, leaf), leafIndex, treeSize, siblings);
  if (computed === undefined)
    return { valid: false, reason: `a path of ${path.length} hashes does not fit leaf ${leafIndex} of ${treeSize}` };
  if (!computed.equals(Buffer.from(root, "hex"))) return { valid: false, reason: "the path does not lead to the root" };
  return { valid: true };
}
