import { expect } from "chai";
import { hashPrefixOf, isShortCode, shortCodeOf } from "../../../shared/domain/short-code";

describe("short codes", () => {
  it("encodes the reference vectors", () => {
    // sha256("Hello World"): a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e
    expect(shortCodeOf("a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e")).to.equal("RXYWODQzXG");
    expect(shortCodeOf("0".repeat(64))).to.equal("0000000000");
  });

  it("decodes a code back to the 14-hex-digit hash prefix", () => {
    expect(hashPrefixOf("RXYWODQzXG")).to.equal("a591a6d40bf420");
    expect(hashPrefixOf("0000000000")).to.equal("00000000000000");
  });

  it("round-trips the prefix of any hash", () => {
    for (let i = 0; i < 200; i++) {
      const hash = Array.from({ length: 64 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");
      expect(hashPrefixOf(shortCodeOf(hash))).to.equal(hash.slice(0, 14));
    }
  });

  it("rejects codes of the wrong length, alphabet or range", () => {
    expect(isShortCode("RXYWODQzX")).to.equal(false);
    expect(isShortCode("RXYWODQzX!")).to.equal(false);
    expect(isShortCode("zzzzzzzzzz")).to.equal(false); // above 59 bits
    expect(hashPrefixOf("not-a-code")).to.equal(undefined);
  });
});
