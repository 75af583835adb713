/**
 * The batch tree against RFC 9162 (RFC 6962) itself: the Certificate Transparency reference vectors, a literal
 * transcription of the recursive definitions (§2.1.1 MTH, §2.1.3.1 PATH) for many sizes, and properties: every
 * proof of every tree checks, and any change to a proof (leaf, index, path, root) makes it fail; the size is bound by the path's length only.
 */
import { expect } from "chai";
import fc from "fast-check";
import { createHash, randomBytes } from "node:crypto";
import { TLOG_CHECKPOINT_SCHEME } from "../../../shared/transparency-log/log-entries";
import {
  checkInclusionProof,
  EMPTY_ROOT,
  hashPackedLeaves,
  inclusionPath,
  leafHash,
  MERKLE_SCHEME,
  nodeHash,
  rootFromPath,
  rootOfLeafInputs,
  rootOfLevels,
  treeLevels,
  verifyInclusion,
  type InclusionProof,
} from "../../../shared/merkle";

const sha256 = (...parts: Uint8Array[]) => createHash("sha256").update(Buffer.concat(parts)).digest();

/** RFC 9162 §2.1.1, word for word: MTH of a list of leaf inputs. */
function referenceRoot(d: readonly Uint8Array[]): Buffer {
  const n = d.length;
  if (n === 0) return sha256();
  if (n === 1) return sha256(Buffer.from([0]), d[0]!);
  let k = 1;
  while (k * 2 < n) k *= 2;
  return sha256(Buffer.from([1]), referenceRoot(d.slice(0, k)), referenceRoot(d.slice(k)));
}

/** RFC 9162 §2.1.3.1, word for word: PATH(m, D[n]). */
function referencePath(m: number, d: readonly Uint8Array[]): Buffer[] {
  const n = d.length;
  if (n === 1) return [];
  let k = 1;
  while (k * 2 < n) k *= 2;
  if (m < k) return [...referencePath(m, d.slice(0, k)), referenceRoot(d.slice(k))];
  return [...referencePath(m - k, d.slice(k)), referenceRoot(d.slice(0, k))];
}

// The leaf inputs and tree heads published with Certificate Transparency's reference implementations.
const CT_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map((h) =>
  Buffer.from(h, "hex"),
);
const CT_ROOTS = [
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];
const CT_PATHS: { index: number; path: string[] }[] = [
  {
    index: 0,
    path: [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    index: 5,
    path: [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
];

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const levelsOfInputs = (inputs: readonly Uint8Array[]) => treeLevels(Buffer.concat(inputs.map((x) => leafHash(x))));

/** A proof for leaf `index` of a batch of 32-byte hashes, as the service serves it. */
function proofOf(hashes: readonly Buffer[], index: number): InclusionProof {
  const levels = treeLevels(hashPackedLeaves(Buffer.concat(hashes)));
  return {
    scheme: MERKLE_SCHEME,
    leaf: hex(hashes[index]!),
    leafIndex: index,
    treeSize: hashes.length,
    path: inclusionPath(levels, index).map(hex),
    root: hex(rootOfLevels(levels)),
  };
}

const batch = (max: number) => fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }).map(Buffer.from), { minLength: 1, maxLength: max });
const batchAndIndex = (max: number) => batch(max).chain((hs) => fc.tuple(fc.constant(hs), fc.nat({ max: hs.length - 1 })));

describe("merkle tree (RFC 9162 Merkle Tree Hash, SHA-256)", () => {
  it("matches the Certificate Transparency tree heads for sizes 0 to 8", () => {
    expect(hex(EMPTY_ROOT)).to.equal(CT_ROOTS[0]);
    for (let n = 0; n <= 8; n++) expect(hex(rootOfLeafInputs(CT_LEAVES.slice(0, n))), `size ${n}`).to.equal(CT_ROOTS[n]);
  });

  it("gives the Certificate Transparency inclusion paths of leaves 0 and 5 of 8, and they verify", () => {
    const levels = levelsOfInputs(CT_LEAVES);
    for (const v of CT_PATHS) {
      const path = inclusionPath(levels, v.index);
      expect(path.map(hex)).to.deep.equal(v.path);
      expect(verifyInclusion(leafHash(CT_LEAVES[v.index]!), v.index, 8, path, Buffer.from(CT_ROOTS[8]!, "hex"))).to.equal(true);
    }
  });

  it("equals the recursive definitions (root and every path) for every size from 1 to 40", () => {
    for (let n = 1; n <= 40; n++) {
      const inputs = Array.from({ length: n }, (_, i) => Buffer.from([i, (i * 7) & 0xff, n]));
      const levels = levelsOfInputs(inputs);
      expect(hex(rootOfLevels(levels)), `root of ${n}`).to.equal(hex(referenceRoot(inputs)));
      for (let m = 0; m < n; m++)
        expect(inclusionPath(levels, m).map(hex), `path ${m} of ${n}`).to.deep.equal(referencePath(m, inputs).map(hex));
    }
  });

  it("hashes packed 32-byte hashes like single leaves, and refuses a length that is not a multiple of 32", () => {
    const hashes = [randomBytes(32), randomBytes(32), randomBytes(32)];
    expect(hashPackedLeaves(Buffer.concat(hashes))).to.deep.equal(Buffer.concat(hashes.map((h) => leafHash(h))));
    expect(() => hashPackedLeaves(Buffer.alloc(33))).to.throw(RangeError, /33 bytes/);
    expect(() => inclusionPath(treeLevels(hashPackedLeaves(Buffer.concat(hashes))), 3)).to.throw(RangeError, /outside/);
  });

  it("keeps leaves and interior nodes apart: a two-leaf node's children do not pass as one leaf", () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const root = nodeHash(leafHash(a), leafHash(b));
    // The concatenation of the two child hashes, offered as a one-leaf tree, gives another root.
    expect(rootOfLeafInputs([Buffer.concat([leafHash(a), leafHash(b)])]).equals(root)).to.equal(false);
    // An interior node offered as a leaf of a one-leaf tree does not check either.
    expect(rootFromPath(leafHash(leafHash(a)), 0, 1, [])!.equals(leafHash(a))).to.equal(false);
  });

  it("property: every leaf's proof of every batch checks offline", () => {
    fc.assert(
      fc.property(batchAndIndex(300), ([hashes, index]) => {
        const proof = proofOf(hashes, index);
        expect(checkInclusionProof(proof)).to.deep.equal({ valid: true });
        expect(proof.path.length).to.be.at.most(Math.ceil(Math.log2(hashes.length)));
      }),
      { numRuns: 300 },
    );
  });

  it("property: a proof with any field changed is rejected", () => {
    const tamper = fc.oneof(
      fc.constant("leaf" as const),
      fc.constant("root" as const),
      fc.constant("index" as const),
      fc.constant("path-hash" as const),
      fc.constant("path-drop" as const),
      fc.constant("path-extra" as const),
      fc.constant("path-swap" as const),
    );
    fc.assert(
      fc.property(batchAndIndex(200), tamper, fc.nat(), fc.nat({ max: 255 }), ([hashes, index], kind, pick, bit) => {
        const p = proofOf(hashes, index);
        const flip = (h: string) => {
          const b = Buffer.from(h, "hex");
          b[pick % b.length]! ^= 1 << (bit % 8);
          return b.toString("hex");
        };
        const t: InclusionProof = { ...p, path: [...p.path] };
        switch (kind) {
          case "leaf":
            t.leaf = flip(p.leaf);
            break;
          case "root":
            t.root = flip(p.root);
            break;
          case "index":
            fc.pre(hashes.length > 1);
            t.leafIndex = (index + 1 + (pick % (hashes.length - 1))) % hashes.length;
            // The same hash at another index is no forgery: duplicates are allowed.
            fc.pre(!hashes[t.leafIndex]!.equals(hashes[index]!));
            break;
          case "path-hash":
            fc.pre(p.path.length > 0);
            t.path[pick % p.path.length] = flip(p.path[pick % p.path.length]!);
            break;
          case "path-drop":
            fc.pre(p.path.length > 0);
            t.path.splice(pick % p.path.length, 1);
            break;
          case "path-extra":
            t.path.splice(pick % (p.path.length + 1), 0, hex(randomBytes(32)));
            break;
          case "path-swap":
            fc.pre(p.path.length > 1 && p.path[0] !== p.path[1]);
            [t.path[0], t.path[1]] = [p.path[1]!, p.path[0]!];
            break;
        }
        expect(checkInclusionProof(t).valid, kind).to.equal(false);
      }),
      { numRuns: 500 },
    );
  });

  it("binds the tree size only through the path's length: the size comes from the anchored certificate, as in RFC 9162", () => {
    // Leaf 0's path in a tree of 5 (3 siblings) also fits a tree of 6 to 8: RFC 9162 takes the size from the
    // signed tree head; batches take it from the anchoring certificate's metadata (leafCount).
    const hashes = Array.from({ length: 5 }, () => randomBytes(32));
    const p = proofOf(hashes, 0);
    expect(checkInclusionProof({ ...p, treeSize: 6 }).valid).to.equal(true);
    // A size the path's length does not fit is refused.
    expect(checkInclusionProof({ ...p, treeSize: 9 }).valid).to.equal(false);
    expect(checkInclusionProof({ ...p, treeSize: 4 }).valid).to.equal(false);
  });

  it("names what is wrong with a malformed proof", () => {
    const good = proofOf([randomBytes(32), randomBytes(32)], 1);
    const bad = (patch: Record<string, unknown>) => checkInclusionProof({ ...good, ...patch });
    expect(checkInclusionProof(null)).to.deep.include({ valid: false });
    expect(bad({ scheme: "sha256" })).to.deep.include({ reason: `scheme must be ${MERKLE_SCHEME} or ${TLOG_CHECKPOINT_SCHEME}` });
    expect(bad({ leaf: "xyz" }))
      .to.have.property("reason")
      .that.matches(/leaf/);
    expect(bad({ root: "00" }))
      .to.have.property("reason")
      .that.matches(/root/);
    expect(bad({ leafIndex: 2 }))
      .to.have.property("reason")
      .that.matches(/leafIndex/);
    expect(bad({ treeSize: 0 }))
      .to.have.property("reason")
      .that.matches(/treeSize/);
    expect(bad({ path: ["00"] }))
      .to.have.property("reason")
      .that.matches(/path/);
  });
});
