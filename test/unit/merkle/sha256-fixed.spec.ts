/** The fixed-length SHA-256 of the batch tree equals node:crypto's, on the FIPS padding edge and on random inputs. */
import { expect } from "chai";
import fc from "fast-check";
import { hash } from "node:crypto";
import { sha256Leaf32, sha256Node64 } from "../../../shared/merkle/sha256-fixed";

const reference = (prefix: number, body: Uint8Array) => hash("sha256", Buffer.concat([Buffer.from([prefix]), body]), "hex");

describe("sha256 of tree leaves and nodes (fixed-length, plain JavaScript)", () => {
  it("equals node:crypto for all-zero and all-one inputs", () => {
    for (const fill of [0x00, 0xff]) {
      const out = Buffer.alloc(40);
      sha256Leaf32(0, Buffer.alloc(32, fill), 0, out, 8);
      expect(out.subarray(8).toString("hex")).to.equal(reference(0, Buffer.alloc(32, fill)));
      sha256Node64(1, Buffer.alloc(64, fill), 0, out, 0);
      expect(out.subarray(0, 32).toString("hex")).to.equal(reference(1, Buffer.alloc(64, fill)));
    }
  });

  it("property: equals node:crypto on random inputs at random offsets", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 200 }), fc.nat(), fc.nat({ max: 255 }), (bytes, pick, prefix) => {
        const src = Buffer.from(bytes);
        const out = Buffer.alloc(32);
        const leafAt = pick % (src.length - 31);
        sha256Leaf32(prefix, src, leafAt, out, 0);
        expect(out.toString("hex")).to.equal(reference(prefix, src.subarray(leafAt, leafAt + 32)));
        const nodeAt = pick % (src.length - 63);
        sha256Node64(prefix, src, nodeAt, out, 0);
        expect(out.toString("hex")).to.equal(reference(prefix, src.subarray(nodeAt, nodeAt + 64)));
      }),
      { numRuns: 1000 },
    );
  });
});
