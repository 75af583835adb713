/**
 * The Merkle tree of RFC 9162 §2.1 with SHA-256: leaf and node hashes (§2.1.1), inclusion proofs (§2.1.3.1) and
 * consistency proofs (§2.1.4.1) computed from complete-subtree hashes only (what stored tiles hold), and their
 * verification exactly as §2.1.3.2 and §2.1.4.2 write it.
 */
import { sha256 } from "@noble/hashes/sha2";
import { concatBytes, equalBytes } from "./encoding";
import { TlogError, badArgument } from "./errors";

export const HASH_SIZE = 32;

/** SHA-256 of the empty string: the root of the empty tree (§2.1.1). */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

export function leafHash(data: Uint8Array): Uint8Array {
  return sha256(concatBytes(Uint8Array.of(0), data));
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(concatBytes(Uint8Array.of(1), left, right));
}

/**
 * The hash of the complete subtree of 2^level leaves that starts at leaf index·2^level (level 0: leaf hashes).
 * Only ever asked for subtrees inside the tree the caller is working on.
 */
export type HashReader = (level: number, index: number) => Uint8Array;

export type ProofCheck = { valid: true } | { valid: false; reason: string };

const invalid = (reason: string): ProofCheck => ({ valid: false, reason });

/** The largest power of two strictly below n (n > 1): the split point k of §2.1.1. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

function readHash(read: HashReader, level: number, index: number): Uint8Array {
  const h = read(level, index);
  if (h.length !== HASH_SIZE)
    throw new TlogError("TLOG_BAD_HASH", `the hash reader gave ${h.length} bytes for level ${level} index ${index}`);
  return h;
}

/** MTH(D[start:start+n]) where start is a multiple of the largest power of two not above n (always so below). */
function subtreeHash(start: number, n: number, read: HashReader): Uint8Array {
  if (isPowerOfTwo(n)) return readHash(read, Math.log2(n), start / n);
  const k = splitPoint(n);
  return nodeHash(subtreeHash(start, k, read), subtreeHash(start + k, n - k, read));
}

function checkSize(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) badArgument(`${name} must be a non-negative safe integer, not ${n}`, { [name]: n });
}

/** MTH of the first `size` leaves. */
export function treeRoot(size: number, read: HashReader): Uint8Array {
  checkSize("size", size);
  return size === 0 ? EMPTY_ROOT : subtreeHash(0, size, read);
}

/** PATH(m, D[n]) of §2.1.3.1: sibling hashes from the leaf's up to the root's child. */
export function inclusionProof(index: number, size: number, read: HashReader): Uint8Array[] {
  checkSize("size", size);
  if (!Number.isSafeInteger(index) || index < 0 || index >= size)
    badArgument(`leaf index ${index} is not in a tree of ${size}`, { index, size });
  const path = (m: number, start: number, n: number): Uint8Array[] => {
    if (n === 1) return [];
    const k = splitPoint(n);
    return m < k
      ? [...path(m, start, k), subtreeHash(start + k, n - k, read)]
      : [...path(m - k, start + k, n - k), subtreeHash(start, k, read)];
  };
  return path(index, 0, size);
}

/** PROOF(m, D[n]) of §2.1.4.1 for 0 < from ≤ to (empty when from = to). */
export function consistencyProof(from: number, to: number, read: HashReader): Uint8Array[] {
  checkSize("from", from);
  checkSize("to", to);
  if (from === 0 || from > to) badArgument(`a consistency proof needs 0 < from ≤ to, not ${from} → ${to}`, { from, to });
  const subproof = (m: number, start: number, n: number, complete: boolean): Uint8Array[] => {
    if (m === n) return complete ? [] : [subtreeHash(start, n, read)];
    const k = splitPoint(n);
    return m <= k
      ? [...subproof(m, start, k, complete), subtreeHash(start + k, n - k, read)]
      : [...subproof(m - k, start + k, n - k, false), subtreeHash(start, k, read)];
  };
  return subproof(from, 0, to, true);
}

const lsb = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

function badHashes(named: Record<string, Uint8Array>, proof: readonly Uint8Array[]): string | undefined {
  for (const [name, h] of Object.entries(named)) if (h.length !== HASH_SIZE) return `${name} has ${h.length} bytes, not ${HASH_SIZE}`;
  const i = proof.findIndex((p) => p.length !== HASH_SIZE);
  return i === -1 ? undefined : `proof hash ${i} has ${proof[i]!.length} bytes, not ${HASH_SIZE}`;
}

/** The root §2.1.3.2 computes from a leaf hash and its path, or the reason the path cannot belong to that position. */
export function rootFromInclusionProof(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
): { root: Uint8Array } | { reason: string } {
  if (!Number.isSafeInteger(size) || size < 0) return { reason: `tree size ${size} is not a non-negative integer` };
  if (!Number.isSafeInteger(index) || index < 0) return { reason: `leaf index ${index} is not a non-negative integer` };
  if (index >= size) return { reason: `leaf index ${index} is not below the tree size ${size}` };
  const bad = badHashes({ "the leaf hash": leaf }, proof);
  if (bad) return { reason: bad };
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const [i, p] of proof.entries()) {
    if (sn === 0) return { reason: `the proof has more than the ${i} hashes leaf ${index} of ${size} needs` };
    if (lsb(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!lsb(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = nodeHash(r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) return { reason: `the proof has fewer hashes than leaf ${index} of ${size} needs` };
  return { root: r };
}

/** §2.1.3.2: whether `leaf` is leaf `index` of the tree of `size` leaves whose root is `root`. */
export function verifyInclusion(leaf: Uint8Array, index: number, size: number, proof: readonly Uint8Array[], root: Uint8Array): ProofCheck {
  if (root.length !== HASH_SIZE) return invalid(`the root has ${root.length} bytes, not ${HASH_SIZE}`);
  const computed = rootFromInclusionProof(leaf, index, size, proof);
  if ("reason" in computed) return invalid(computed.reason);
  return equalBytes(computed.root, root) ? { valid: true } : invalid("the proof does not lead to the root");
}

/**
 * §2.1.4.2 for 0 < from < to. Two edges around it, as transparency-dev/merkle treats them: from = to needs an empty
 * proof and equal roots; from = 0 is refused (the empty tree is consistent with every tree, so there is nothing to
 * prove — the witness protocol handles an old size of 0 itself).
 */
export function verifyConsistency(
  from: number,
  to: number,
  fromRoot: Uint8Array,
  toRoot: Uint8Array,
  proof: readonly Uint8Array[],
): ProofCheck {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < 0)
    return invalid(`tree sizes ${from} and ${to} must be non-negative integers`);
  if (from > to) return invalid(`the first tree (${from}) is larger than the second (${to})`);
  if (from === 0) return invalid("a consistency proof from the empty tree proves nothing");
  const bad = badHashes({ "the first root": fromRoot, "the second root": toRoot }, proof);
  if (bad) return invalid(bad);
  if (from === to) {
    if (proof.length > 0) return invalid(`equal tree sizes need an empty proof, not ${proof.length} hashes`);
    return equalBytes(fromRoot, toRoot) ? { valid: true } : invalid("equal tree sizes with different roots");
  }
  if (proof.length === 0) return invalid("the proof is empty");
  const path = isPowerOfTwo(from) ? [fromRoot, ...proof] : [...proof];
  let fn = from - 1;
  let sn = to - 1;
  while (lsb(fn)) [fn, sn] = [half(fn), half(sn)];
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return invalid(`the proof has more hashes than ${from} → ${to} needs`);
    if (lsb(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!lsb(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = nodeHash(sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) return invalid(`the proof has fewer hashes than ${from} → ${to} needs`);
  if (!equalBytes(fr, fromRoot)) return invalid("the proof does not lead to the first root");
  if (!equalBytes(sr, toRoot)) return invalid("the proof does not lead to the second root");
  return { valid: true };
}
