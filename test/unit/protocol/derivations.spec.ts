/**
 * Metadata chunking, the certificate data hash, token-name derivations and the deployment script helpers.
 */
import { createHash } from "node:crypto";
import { expect } from "chai";
import fc from "fast-check";
import {
  DEFAULT_BLUEPRINT_PATH,
  applyParams,
  bytes,
  certificateDataHash,
  certificatesBytes,
  chunkMetadata,
  deriveProtocolScripts,
  joinMetadataChunks,
  loadBlueprint,
  makeCertificate,
  parseBlueprint,
  pointerTokenName,
  rewardAddressOf,
  scriptAddressOf,
  scriptHashOf,
  stateIdOf,
  validatorCode,
} from "../../../shared/protocol";
import { DataHash, KeyHash } from "../../../shared/domain/hex";

describe("metadata chunks", () => {
  it("cuts UTF-8 text into chunks of at most 64 bytes that rejoin to the original, never splitting a character", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: "binary" }), (text) => {
        const chunks = chunkMetadata(text);
        for (const c of chunks) expect(Buffer.byteLength(c, "utf8")).to.be.at.most(64);
        expect(joinMetadataChunks(chunks)).to.equal(text);
        for (const c of chunks)
          expect(Buffer.from(Buffer.from(c, "utf8").toString("utf8"), "utf8").equals(Buffer.from(c, "utf8"))).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps short metadata (and the empty string) as one chunk", () => {
    expect(chunkMetadata("")).to.deep.equal([""]);
    expect(chunkMetadata("x".repeat(64))).to.deep.equal(["x".repeat(64)]);
    expect(chunkMetadata("x".repeat(65))).to.deep.equal(["x".repeat(64), "x"]);
    // 63 ASCII bytes + a 4-byte emoji: the emoji moves to the next chunk whole
    expect(chunkMetadata("a".repeat(63) + "😀")).to.deep.equal(["a".repeat(63), "😀"]);
  });
});

describe("certificate data hash", () => {
  it("is sha2-256 over hash ‖ utf8(algorithm) ‖ issuer ‖ chunks, in order", () => {
    const a = makeCertificate({
      hash: DataHash("aa".repeat(32)),
      algorithm: "SHA-256",
      issuer: KeyHash("11".repeat(28)),
      metadata: "m".repeat(70),
    });
    const b = makeCertificate({ hash: DataHash("bb".repeat(32)), algorithm: "SHA-512", issuer: KeyHash("22".repeat(28)), metadata: "" });
    const expected = Buffer.concat([
      Buffer.from("aa".repeat(32), "hex"),
      Buffer.from("SHA-256"),
      Buffer.from("11".repeat(28), "hex"),
      Buffer.from("m".repeat(70)),
      Buffer.from("bb".repeat(32), "hex"),
      Buffer.from("SHA-512"),
      Buffer.from("22".repeat(28), "hex"),
    ]);
    expect(certificatesBytes([a, b]).equals(expected)).to.equal(true);
    expect(certificateDataHash([a, b])).to.equal(createHash("sha256").update(expected).digest("hex"));
    expect(certificateDataHash([b, a])).to.not.equal(certificateDataHash([a, b]));
  });
});

describe("token names", () => {
  const txHash = "0f".repeat(32);
  it("names the pointer sha3_256(tx_id ‖ ascii(decimal index))", () => {
    expect(pointerTokenName({ txHash, index: 12 })).to.equal(
      createHash("sha3-256")
        .update(Buffer.concat([Buffer.from(txHash, "hex"), Buffer.from("12")]))
        .digest("hex"),
    );
  });

  it("derives the state id sha2_256(tx_id ‖ uint16_le(index))", () => {
    expect(stateIdOf({ txHash, index: 258 })).to.equal(
      createHash("sha256")
        .update(Buffer.concat([Buffer.from(txHash, "hex"), Buffer.from([2, 1])]))
        .digest("hex"),
    );
    expect(() => stateIdOf({ txHash, index: 70_000 })).to.throw(/uint16/);
    expect(() => stateIdOf({ txHash: "00", index: 0 })).to.throw(/32 bytes/);
  });
});

describe("deployment scripts from the blueprint", () => {
  const blueprint = loadBlueprint(DEFAULT_BLUEPRINT_PATH);
  const params = {
    proxyOneShot: { txHash: "0f".repeat(32), index: 0 },
    bootstrapAdministrators: ["11".repeat(28)],
    libraryAdministrator: "22".repeat(28),
  };

  it("applies parameters deterministically and links the state script to the proxy policy", () => {
    const a = deriveProtocolScripts(blueprint, { ...params, networkId: 0 });
    const b = deriveProtocolScripts(blueprint, { ...params, networkId: 1 });
    expect(a.proxy.hash).to.equal(b.proxy.hash);
    expect(a.state.hash).to.equal(b.state.hash);
    expect(a.proxy.hash).to.equal(scriptHashOf(a.proxy.code));
    expect(a.pointerTokenName).to.equal(pointerTokenName(params.proxyOneShot));
    expect(a.state.code).to.equal(
      applyParams(validatorCode(blueprint, "state"), [bytes(a.proxy.hash), bytes(a.pointerTokenName), { list: [bytes("11".repeat(28))] }]),
    );
    expect(a.proxy.address).to.match(/^addr_test1w/);
    expect(b.proxy.address).to.match(/^addr1w/);
    expect(a.state.rewardAddress).to.match(/^stake_test1/);
    expect(b.state.rewardAddress).to.match(/^stake1/);
    expect(scriptAddressOf(a.library.hash, 0)).to.equal(a.library.address);
    expect(rewardAddressOf(a.state.hash, 1)).to.equal(b.state.rewardAddress);
  });

  it("gives different scripts for a different one-shot or administrators", () => {
    const a = deriveProtocolScripts(blueprint, { ...params, networkId: 0 });
    const other = deriveProtocolScripts(blueprint, { ...params, proxyOneShot: { txHash: "0f".repeat(32), index: 1 }, networkId: 0 });
    const admins = deriveProtocolScripts(blueprint, { ...params, bootstrapAdministrators: [], networkId: 0 });
    expect(other.proxy.hash).to.not.equal(a.proxy.hash);
    expect(admins.state.hash).to.not.equal(a.state.hash);
    expect(admins.proxy.hash).to.equal(a.proxy.hash);
  });

  it("rejects a blueprint that is not a V3 CIP-57 file", () => {
    expect(() => parseBlueprint("{}")).to.throw(/preamble/);
    expect(() => parseBlueprint("nope")).to.throw(/not JSON/);
    expect(() => validatorCode({ preamble: { title: "x", plutusVersion: "v3" }, validators: [] }, "state")).to.throw(
      /not in the blueprint/,
    );
  });
});
