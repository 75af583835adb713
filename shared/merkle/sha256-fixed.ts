/**
 * SHA-256 (FIPS 180-4) of the two short messages a batch tree hashes millions of times: a leaf (0x00 ‖ 32 bytes,
 * one block) and a node (0x01 ‖ 32 ‖ 32 bytes, two blocks). Written out in plain JavaScript because for messages
 * this short a general hash's per-call cost is several times the hashing itself: a tree of 1,000,000 leaves hashed
 * with the audited @noble/hashes goes at a third to a half of this file's rate, with node:crypto at 0.2–0.6 of it
 * (docs/merkle-batches.md#figures), where a library would be used if it cost at most a fifth of the rate. The
 * results are checked against node:crypto in test/unit/merkle/sha256-fixed.spec.ts. Everything else uses node:crypto.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const IV = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

const W = new Int32Array(64);
const H = new Int32Array(8);
/** The message being hashed, padded: at most two blocks. */
const M = new Uint8Array(128);

function compress(block: number): void {
  const o = block * 64;
  for (let t = 0; t < 16; t++) {
    const p = o + t * 4;
    W[t] = (M[p]! << 24) | (M[p + 1]! << 16) | (M[p + 2]! << 8) | M[p + 3]!;
  }
  for (let t = 16; t < 64; t++) {
    const w15 = W[t - 15]!;
    const w2 = W[t - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[t] = (W[t - 16]! + s0 + W[t - 7]! + s1) | 0;
  }
  let a = H[0]!;
  let b = H[1]!;
  let c = H[2]!;
  let d = H[3]!;
  let e = H[4]!;
  let f = H[5]!;
  let g = H[6]!;
  let h = H[7]!;
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[t]! + W[t]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = (H[0]! + a) | 0;
  H[1] = (H[1]! + b) | 0;
  H[2] = (H[2]! + c) | 0;
  H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0;
  H[5] = (H[5]! + f) | 0;
  H[6] = (H[6]! + g) | 0;
  H[7] = (H[7]! + h) | 0;
}

function digestInto(out: Uint8Array, at: number): void {
  for (let i = 0; i < 8; i++) {
    const v = H[i]!;
    const p = at + i * 4;
    out[p] = v >>> 24;
    out[p + 1] = (v >>> 16) & 0xff;
    out[p + 2] = (v >>> 8) & 0xff;
    out[p + 3] = v & 0xff;
  }
}

/** SHA-256(prefix ‖ src[from, from + 32)) written to out[at, at + 32): one block (33 bytes, padding, length 264 bits). */
export function sha256Leaf32(prefix: number, src: Uint8Array, from: number, out: Uint8Array, at: number): void {
  M.fill(0, 0, 64);
  M[0] = prefix;
  M.set(src.subarray(from, from + 32), 1);
  M[33] = 0x80;
  M[62] = 0x01; // 264 bits = 0x0108
  M[63] = 0x08;
  H.set(IV);
  compress(0);
  digestInto(out, at);
}

/** SHA-256(prefix ‖ src[from, from + 64)) written to out[at, at + 32): two blocks (65 bytes, padding, length 520 bits). */
export function sha256Node64(prefix: number, src: Uint8Array, from: number, out: Uint8Array, at: number): void {
  M.fill(0, 64, 128);
  M[0] = prefix;
  M.set(src.subarray(from, from + 64), 1);
  M[65] = 0x80;
  M[126] = 0x02; // 520 bits = 0x0208
  M[127] = 0x08;
  H.set(IV);
  compress(0);
  compress(1);
  digestInto(out, at);
}
