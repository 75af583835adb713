/**
 * One parser of a list of 32-byte hashes (shared/merkle/hash-list.ts) behind two routes: the calendar's intake
 * answers BAD_REQUEST, a batch build refuses with ERROR, each with its own words for an empty list and too many
 * hashes and the same words for the rest, as clients have always read them.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { packedHashes } from "../../../shared/issuance/batch-build";
import { parseCalendarHashes } from "../../../shared/merkle/calendar-requests";
import { parseHashList } from "../../../shared/merkle/hash-list";

const refusalOf = (run: () => unknown): { type: string; message: string; data: Record<string, unknown> } => {
  try {
    run();
  } catch (err) {
    return err as { type: string; message: string; data: Record<string, unknown> };
  }
  return expect.fail("expected a refusal");
};
const hexes = (n: number) => Array.from({ length: n }, () => randomBytes(32).toString("hex"));

describe("hash list: one parser, each route's answer", () => {
  it("packs hex strings of any case, and bytes only where the route takes them", () => {
    const packed = randomBytes(32 * 3);
    const list = [0, 1, 2].map((i) => packed.subarray(i * 32, i * 32 + 32).toString("hex"));
    for (const raw of [list, list.map((h) => h.toUpperCase()), [list[0]!.toUpperCase(), list[1], list[2]]])
      expect(parseHashList(raw, { maxHashes: 3, acceptBytes: false }).problem).to.equal(undefined);
    expect((parseHashList(list, { maxHashes: 3, acceptBytes: false }) as { packed: Buffer }).packed.equals(packed)).to.equal(true);
    expect((parseHashList(packed, { maxHashes: 3, acceptBytes: true }) as { packed: Buffer }).packed.equals(packed)).to.equal(true);
    const overNats: unknown = JSON.parse(JSON.stringify(packed));
    expect((parseHashList(overNats, { maxHashes: 3, acceptBytes: true }) as { packed: Buffer }).packed.equals(packed)).to.equal(true);
    expect(parseHashList(packed, { maxHashes: 3, acceptBytes: false }).problem).to.deep.equal({ kind: "not-a-list" });
    // a list longer than the joined check is packed hash by hash, with the same answer
    const long = hexes(9000);
    const parsed = parseHashList(long, { maxHashes: 9000, acceptBytes: false }) as { packed: Buffer };
    expect(parsed.packed.toString("hex")).to.equal(long.join(""));
    expect(parseHashList([...long.slice(0, 8999), "zz"], { maxHashes: 9000, acceptBytes: false }).problem).to.deep.equal({
      kind: "not-a-hash",
      index: 8999,
    });
  });

  it("the calendar answers BAD_REQUEST in its own words", () => {
    const cases: [unknown, string, Record<string, unknown>][] = [
      [undefined, "hashes is required: an array of 32-byte hashes as 64 hex digits", {}],
      ["ab", "hashes must be an array of 32-byte hashes as 64 hex digits", {}],
      [[], "hashes is empty: send at least one 32-byte hash", {}],
      [hexes(4), "One request takes at most 3 hashes (got 4); send the rest in further requests.", { maxHashes: 3 }],
      [[hexes(1)[0], 7], "hashes[1] must be a 32-byte hash as 64 hex digits", { field: "hashes[1]" }],
      [["ab".repeat(31)], "hashes[0] must be a 32-byte hash as 64 hex digits", { field: "hashes[0]" }],
    ];
    for (const [raw, message, data] of cases)
      expect(
        refusalOf(() => parseCalendarHashes(raw, 3)),
        message,
      ).to.deep.include({ type: "BAD_REQUEST", message, data });
  });

  it("a batch build refuses with ERROR in its own words, bytes included", () => {
    const cases: [unknown, string, Record<string, unknown>][] = [
      [null, "hashes is required: an array of 32-byte hashes as 64 hex digits", {}],
      [{ hashes: 1 }, "hashes must be an array of 32-byte hashes as 64 hex digits", {}],
      [[], "The batch is empty: send at least one 32-byte hash.", {}],
      [Buffer.alloc(0), "The batch is empty: send at least one 32-byte hash.", {}],
      [Buffer.alloc(40), "An application/octet-stream body is 32-byte hashes back to back; 40 bytes is not a multiple of 32.", {}],
      [Buffer.alloc(32 * 1_000_001), "A batch holds at most 1,000,000 hashes (got 1000001).", { maxHashes: 1_000_000 }],
      [["00"], "hashes[0] must be a 32-byte hash as 64 hex digits", { field: "hashes[0]" }],
    ];
    for (const [raw, message, data] of cases)
      expect(
        refusalOf(() => packedHashes(raw)),
        message,
      ).to.deep.include({ type: "ERROR", message, data });
  });
});
