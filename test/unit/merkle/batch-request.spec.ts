/**
 * Parsing a batch body (shared/issuance/batch-build.ts): JSON hex strings, bytes in one process, and bytes as
 * they arrive across NATS (the JSON serializer turns a Buffer into { type: "Buffer", data }); every refusal names
 * the problem.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { parseBatchRequest } from "../../../shared/issuance/batch-build";
import { MERKLE_SCHEME } from "../../../shared/merkle";

const refusal = (body: Record<string, unknown>): { type: string; message: string; data: Record<string, unknown> } => {
  try {
    parseBatchRequest(body);
  } catch (err) {
    return err as { type: string; message: string; data: Record<string, unknown> };
  }
  return expect.fail("expected a refusal");
};

describe("batch request parsing", () => {
  const packed = randomBytes(32 * 3);
  const hexes = [0, 1, 2].map((i) => packed.subarray(i * 32, i * 32 + 32).toString("hex"));

  it("reads the same leaves from hex strings (any case), a Buffer, and a Buffer serialized across NATS", () => {
    const fromHex = parseBatchRequest({ address: " addr ", hashes: hexes.map((h, i) => (i === 1 ? h.toUpperCase() : h)) });
    expect(fromHex.leaves.equals(packed)).to.equal(true);
    expect(fromHex.address).to.equal("addr");
    expect(parseBatchRequest({ hashes: packed }).leaves.equals(packed)).to.equal(true);
    const overNats = JSON.parse(JSON.stringify({ hashes: packed })) as Record<string, unknown>;
    expect(parseBatchRequest(overNats).leaves.equals(packed)).to.equal(true);
  });

  it("takes metadata as an object or its JSON text, and the scheme name as algorithm", () => {
    expect(parseBatchRequest({ hashes: hexes, metadata: '{"a":1}', algorithm: MERKLE_SCHEME }).metadata).to.deep.equal({ a: 1 });
    expect(parseBatchRequest({ hashes: hexes, metadata: { b: "x" } }).metadata).to.deep.equal({ b: "x" });
    expect(parseBatchRequest({ hashes: hexes }).metadata).to.deep.equal({});
  });

  it("refuses what it cannot anchor, naming the problem", () => {
    expect(refusal({ hashes: [hexes[0], "00"] })).to.include({
      type: "ERROR",
      message: "hashes[1] must be a 32-byte hash as 64 hex digits",
    });
    expect(refusal({ hashes: Buffer.alloc(40) }).message).to.match(/40 bytes is not a multiple of 32/);
    expect(refusal({ hashes: Buffer.alloc(0) }).message).to.match(/empty/);
    expect(refusal({ hashes: hexes, metadata: "not json" }).message).to.match(/metadata must be a JSON object/);
    expect(refusal({ hashes: hexes, metadata: { big: "x".repeat(3000) } }).message).to.match(/metadata is larger than 2048 bytes/);
    expect(refusal({ hashes: hexes, stateId: "12" }).message).to.match(/stateId/);
    expect(refusal({ hashes: hexes, address: 5 }).message).to.match(/address/);
    expect(refusal({ hashes: Buffer.alloc(32 * 1_000_001) }).data).to.deep.equal({ maxHashes: 1_000_000 });
  });
});
