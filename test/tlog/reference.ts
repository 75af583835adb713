/**
 * An independent reference for the tlog specs: RFC 9162 §2.1.1 MTH, §2.1.3.1 PATH and §2.1.4.1 PROOF transcribed
 * word for word from the RFC's recursive definitions over the list of leaf inputs, with node:crypto's SHA-256 (not
 * the library's @noble/hashes), and a HashReader over the same leaves for the library's proof functions.
 */
import { createHash } from "node:crypto";

export const sha256 = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(createHash("sha256").update(Buffer.concat(parts)).digest());

const largestPowerOfTwoBelow = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

/** MTH(D[n]). */
export function mth(d: readonly Uint8Array[]): Uint8Array {
  const n = d.length;
  if (n === 0) return sha256();
  if (n === 1) return sha256(Uint8Array.of(0), d[0]!);
  const k = largestPowerOfTwoBelow(n);
  return sha256(Uint8Array.of(1), mth(d.slice(0, k)), mth(d.slice(k)));
}

/** PATH(m, D[n]). */
export function path(m: number, d: readonly Uint8Array[]): Uint8Array[] {
  const n = d.length;
  if (n === 1) return [];
  const k = largestPowerOfTwoBelow(n);
  return m < k ? [...path(m, d.slice(0, k)), mth(d.slice(k))] : [...path(m - k, d.slice(k)), mth(d.slice(0, k))];
}

/** SUBPROOF(m, D[n], b). */
function subproof(m: number, d: readonly Uint8Array[], b: boolean): Uint8Array[] {
  const n = d.length;
  if (m === n) return b ? [] : [mth(d)];
  const k = largestPowerOfTwoBelow(n);
  return m <= k ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}

/** PROOF(m, D[n]) = SUBPROOF(m, D[n], true). */
export function proof(m: number, d: readonly Uint8Array[]): Uint8Array[] {
  return subproof(m, d, true);
}

/** Leaf inputs "leaf 0", "leaf 1", … */
export function leaves(n: number): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => new TextEncoder().encode(`leaf ${i}`));
}

/** The complete-subtree hashes of these leaves, from the reference MTH (memoised: the tests ask for many). */
export function referenceReader(d: readonly Uint8Array[]): (level: number, index: number) => Uint8Array {
  const memo = new Map<string, Uint8Array>();
  return (level, index) => {
    const key = `${level}/${index}`;
    let h = memo.get(key);
    if (!h) {
      const start = index * 2 ** level;
      if (start + 2 ** level > d.length) throw new Error(`no complete subtree ${key} in a tree of ${d.length}`);
      h = mth(d.slice(start, start + 2 ** level));
      memo.set(key, h);
    }
    return h;
  };
}
