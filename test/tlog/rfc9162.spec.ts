/**
 * shared/tlog/rfc9162.ts against RFC 9162 §2.1: transparency-dev/merkle's published probes (test/fixtures/tlog,
 * Apache-2.0), and the word-for-word reference of test/tlog/reference.ts for every tree of 1..70 leaves, every
 * leaf and every pair of sizes; then every tamper of a good proof (a flipped bit, another index or size, a hash
 * added or removed, another root) is refused.
 */
import { expect } from "chai";
import {
  EMPTY_ROOT,
  consistencyProof,
  inclusionProof,
  leafHash,
  nodeHash,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
} from "../../shared/tlog/rfc9162";
import { TlogError } from "../../shared/tlog/errors";
import inclusionProbes from "../fixtures/tlog/transparency-dev-inclusion.json";
import consistencyProbes from "../fixtures/tlog/transparency-dev-consistency.json";
import { leaves, mth, path, proof, referenceReader, sha256 } from "./reference";

const b64 = (s: string | null | undefined) => new Uint8Array(Buffer.from(s ?? "", "base64"));
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const flip = (h: Uint8Array, bit = 0) => {
  const c = Uint8Array.from(h);
  c[bit >> 3]! ^= 1 << (bit & 7);
  return c;
};
const MAX = 70;
const D = leaves(MAX);

describe("tlog rfc9162: hashing", () => {
  it("hashes leaves and nodes with the 0x00 and 0x01 prefixes, and the empty tree as SHA-256 of nothing", () => {
    expect(hex(EMPTY_ROOT)).to.equal("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(leafHash(D[0]!)).to.deep.equal(sha256(Uint8Array.of(0), D[0]!));
    expect(nodeHash(D[0]!, D[1]!)).to.deep.equal(sha256(Uint8Array.of(1), D[0]!, D[1]!));
  });

  it("computes the root of every size from complete-subtree hashes as MTH does", () => {
    const read = referenceReader(D.map((d) => d));
    const leafRead = (level: number, index: number) => (level === 0 ? leafHash(D[index]!) : read(level, index));
    for (let n = 0; n <= MAX; n++) expect(hex(treeRoot(n, leafRead)), `size ${n}`).to.equal(hex(mth(D.slice(0, n))));
  });
});

describe("tlog rfc9162: transparency-dev/merkle probes", () => {
  for (const p of inclusionProbes.probes) {
    it(`inclusion ${p.file}: ${p.wantErr ? "refused" : "accepted"}`, () => {
      const check = verifyInclusion(b64(p.leafHash), p.leafIdx, p.treeSize, (p.proof ?? []).map(b64), b64(p.root));
      expect(check.valid, JSON.stringify(check)).to.equal(!p.wantErr);
    });
  }
  // One probe accepts equal sizes whose two (equal) "roots" are 12 bytes of text; this verifier requires every hash
  // to be 32 bytes (RFC 9162 §2.1: HASH_SIZE), so it refuses that one, naming the length.
  const shortRoots = "testdata/consistency/additional/sizes-are-equal-one-and-proof-is-empty.json";
  for (const p of consistencyProbes.probes) {
    it(`consistency ${p.file}: ${p.wantErr || p.file === shortRoots ? "refused" : "accepted"}`, () => {
      const check = verifyConsistency(p.size1, p.size2, b64(p.root1), b64(p.root2), (p.proof ?? []).map(b64));
      if (p.file === shortRoots) expect(check).to.deep.equal({ valid: false, reason: "the first root has 12 bytes, not 32" });
      else expect(check.valid, JSON.stringify(check)).to.equal(!p.wantErr);
    });
  }
});

describe("tlog rfc9162: proofs against the RFC's recursive definitions, sizes 1..70", () => {
  const read = referenceReader(D);
  const leafAware = (level: number, index: number) => (level === 0 ? leafHash(D[index]!) : read(level, index));

  it("inclusion: every leaf of every size gives PATH(m, D[n]), which verifies, and every tamper is refused", () => {
    for (let n = 1; n <= MAX; n++) {
      const root = mth(D.slice(0, n));
      for (let m = 0; m < n; m++) {
        const got = inclusionProof(m, n, leafAware);
        expect(got.map(hex), `${m} of ${n}`).to.deep.equal(path(m, D.slice(0, n)).map(hex));
        const leaf = leafHash(D[m]!);
        expect(verifyInclusion(leaf, m, n, got, root)).to.deep.equal({ valid: true });
        expect(verifyInclusion(flip(leaf, 3), m, n, got, root).valid).to.equal(false);
        expect(verifyInclusion(leaf, m, n, got, flip(root, 255)).valid).to.equal(false);
        for (let i = 0; i < got.length; i++) {
          const bent = got.map((h, j) => (j === i ? flip(h, 7) : h));
          expect(verifyInclusion(leaf, m, n, bent, root).valid, `bit in hash ${i}`).to.equal(false);
        }
        expect(verifyInclusion(leaf, m, n, [...got, root], root).valid, "extra hash").to.equal(false);
        if (got.length > 0) expect(verifyInclusion(leaf, m, n, got.slice(1), root).valid, "missing hash").to.equal(false);
        for (const other of [m - 1, m + 1, m ^ 2])
          if (other !== m) expect(verifyInclusion(leaf, other, n, got, root).valid, `index ${other}`).to.equal(false);
        // The size is bound by the path's shape only (the signed checkpoint binds it to the root): another size whose
        // path has another length is refused.
        for (const size of [n - 1, n + 1, 2 * n])
          if (size > m && size <= MAX && path(m, D.slice(0, size)).length !== got.length)
            expect(verifyInclusion(leaf, m, size, got, root).valid, `size ${size}`).to.equal(false);
      }
    }
  });

  it("consistency: every pair 0 < m ≤ n ≤ 70 gives PROOF(m, D[n]), which verifies, and every tamper is refused", () => {
    for (let n = 1; n <= MAX; n++) {
      const rootN = mth(D.slice(0, n));
      for (let m = 1; m <= n; m++) {
        const rootM = mth(D.slice(0, m));
        const got = consistencyProof(m, n, leafAware);
        expect(got.map(hex), `${m} → ${n}`).to.deep.equal(proof(m, D.slice(0, n)).map(hex));
        expect(verifyConsistency(m, n, rootM, rootN, got)).to.deep.equal({ valid: true });
        expect(verifyConsistency(m, n, flip(rootM), rootN, got).valid).to.equal(false);
        expect(verifyConsistency(m, n, rootM, flip(rootN), got).valid).to.equal(false);
        for (let i = 0; i < got.length; i++) {
          const bent = got.map((h, j) => (j === i ? flip(h, 200) : h));
          expect(verifyConsistency(m, n, rootM, rootN, bent).valid, `bit in hash ${i}`).to.equal(false);
        }
        expect(verifyConsistency(m, n, rootM, rootN, [...got, rootN]).valid, "extra hash").to.equal(false);
        if (got.length > 0) expect(verifyConsistency(m, n, rootM, rootN, got.slice(0, -1)).valid, "missing hash").to.equal(false);
        for (const other of [m - 1, m + 1])
          if (other > 0 && other < n && proof(other, D.slice(0, n)).length !== got.length)
            expect(verifyConsistency(other, n, rootM, rootN, got).valid, `size ${other}`).to.equal(false);
        if (n < MAX && proof(m, D.slice(0, n + 1)).length !== got.length)
          expect(verifyConsistency(m, n + 1, rootM, rootN, got).valid, "size n+1").to.equal(false);
        if (m < n) expect(verifyConsistency(m, n, rootN, rootM, got).valid, "swapped roots").to.equal(false);
      }
    }
  });

  it("refuses to make a proof outside the tree, with a typed error", () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    for (const f of [
      () => inclusionProof(5, 5, leafAware),
      () => inclusionProof(-1, 5, leafAware),
      () => consistencyProof(0, 5, leafAware),
      () => consistencyProof(6, 5, leafAware),
    ]) {
      const e = err(f);
      expect(e).to.be.instanceOf(TlogError);
      expect((e as TlogError).type).to.equal("TLOG_BAD_ARGUMENT");
    }
    expect((err(() => treeRoot(3, () => new Uint8Array(31))) as TlogError).type).to.equal("TLOG_BAD_HASH");
  });
});
