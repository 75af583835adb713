import { expect } from "chai";
import {
  DataHash,
  Hash32,
  HEX_PATTERNS,
  HexBytes,
  KeyHash,
  LOWER_HEX_PATTERNS,
  PolicyId,
  ScriptHash,
  StateId,
  TxHash,
  type HexType,
  type Hex,
} from "../../../shared/domain/hex";

const TX = "A591A6D40BF420404A011733CFB7B190D62C65BF0BCDA32B57B277D9AD9F146E";
const KEY = "AbCdEf0123456789abcdef0123456789abcdef0123456789abcdef01";

const threw = (make: (hex: string) => unknown, hex: string) => {
  try {
    make(hex);
    return undefined;
  } catch (err) {
    return err as { type?: string; name?: string };
  }
};

describe("branded hex types", () => {
  it("a constructor accepts either case and lowercases", () => {
    expect(TxHash(TX)).to.equal(TX.toLowerCase());
    expect(KeyHash(KEY)).to.equal(KEY.toLowerCase());
    expect(ScriptHash(KEY)).to.equal(KEY.toLowerCase());
    expect(PolicyId(KEY)).to.equal(KEY.toLowerCase());
    expect(StateId(TX)).to.equal(TX.toLowerCase());
    expect(Hash32(TX)).to.equal(TX.toLowerCase());
    expect(DataHash("0A")).to.equal("0a");
    expect(HexBytes("")).to.equal("");
  });

  it("a constructor throws INVALID_HEX on the wrong length or on non-hex input", () => {
    const cases: Array<[HexType<Hex>, string]> = [
      [TxHash, TX.slice(2)],
      [TxHash, `${TX}00`],
      [TxHash, `${TX.slice(1)}g`],
      [StateId, KEY],
      [Hash32, KEY],
      [KeyHash, TX],
      [ScriptHash, `${KEY.slice(1)}z`],
      [DataHash, ""],
      [DataHash, "abc"],
      [DataHash, "00".repeat(65)],
      [HexBytes, "0"],
      [HexBytes, "0x"],
    ];
    for (const [make, hex] of cases) {
      const err = threw(make, hex);
      expect(err, hex).to.include({ type: "INVALID_HEX", name: "HexError" });
    }
  });

  it("a data hash is 1 to 64 bytes, even-length", () => {
    expect(DataHash("00".repeat(64))).to.have.length(128);
    expect(DataHash.parse("00".repeat(64) + "00")).to.equal(undefined);
    expect(DataHash.parse("0")).to.equal(undefined);
  });

  it("parse answers undefined instead of throwing, for a value of any type", () => {
    expect(TxHash.parse(TX)).to.equal(TX.toLowerCase());
    for (const v of [undefined, null, 42, {}, [TX], ` ${TX}`, TX.slice(1)]) expect(TxHash.parse(v)).to.equal(undefined);
  });

  it("the guard holds only for the canonical (lowercase) form", () => {
    expect(TxHash.is(TX.toLowerCase())).to.equal(true);
    expect(TxHash.is(TX)).to.equal(false);
    expect(TxHash.is(42)).to.equal(false);
    expect(KeyHash.is(TX.toLowerCase())).to.equal(false);
    expect(DataHash.is(TX.toLowerCase())).to.equal(true);
  });

  it("the request patterns accept either case, the canonical ones lowercase only", () => {
    for (const name of Object.keys(HEX_PATTERNS) as Array<keyof typeof HEX_PATTERNS>) {
      expect(HEX_PATTERNS[name].source.replace(/A-F/g, "")).to.equal(LOWER_HEX_PATTERNS[name].source, name);
    }
    expect(HEX_PATTERNS.hash32.source).to.equal("^[0-9a-fA-F]{64}$");
    expect(LOWER_HEX_PATTERNS.hash28.source).to.equal("^[0-9a-f]{56}$");
  });
});
