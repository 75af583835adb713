import { expect } from "chai";
import {
  CslError,
  detectScriptWrapping,
  flatOf,
  plutusScriptFromAny,
  plutusScriptFromSingleWrapped,
  plutusScriptHash,
  singleWrapFlat,
  toSingleWrapped,
} from "../../../shared/csl";
import { CSL } from "../../../shared/csl/lib";
import { ALWAYS_SUCCEEDS_FLAT, REDEEMER_42_FLAT } from "../../../fixtures/csl/fixtures";

describe("csl trap 1: single vs double CBOR-wrapped Plutus scripts", () => {
  const flat = REDEEMER_42_FLAT;
  const single = singleWrapFlat(flat);
  const double = singleWrapFlat(single);

  it("wraps flat bytes in exactly one CBOR byte-string header", () => {
    // 42 bytes of flat → major type 2 with a one-byte length (0x58 0x2a)
    expect(flat.length / 2).to.equal(42);
    expect(single).to.equal("582a" + flat);
    expect(singleWrapFlat(ALWAYS_SUCCEEDS_FLAT)).to.equal("4a" + ALWAYS_SUCCEEDS_FLAT);
  });

  it("detects the three encodings", () => {
    expect(detectScriptWrapping(flat)).to.equal("flat");
    expect(detectScriptWrapping(single)).to.equal("single");
    expect(detectScriptWrapping(double)).to.equal("double");
    expect(() => detectScriptWrapping(singleWrapFlat(double)))
      .to.throw(CslError)
      .with.property("type", "INVALID_SCRIPT");
  });

  it("normalises every encoding to the same single-wrapped bytes and back to flat", () => {
    for (const enc of [flat, single, double]) {
      expect(toSingleWrapped(enc)).to.equal(single);
      expect(flatOf(enc)).to.equal(flat);
    }
  });

  it("shows the trap: CSL new_v3 silently hashes raw flat to a different script hash", () => {
    const right = CSL.PlutusScript.new_v3(Buffer.from(single, "hex")).hash().to_hex();
    const wrong = CSL.PlutusScript.new_v3(Buffer.from(flat, "hex")).hash().to_hex();
    expect(wrong).to.not.equal(right);
    // and from_bytes_v3 wants the double-wrapped form to give the right hash
    expect(CSL.PlutusScript.from_bytes_v3(Buffer.from(double, "hex")).hash().to_hex()).to.equal(right);
  });

  it("gives one hash for all three encodings, equal to CSL's hash of the single-wrapped bytes", () => {
    const expected = CSL.PlutusScript.new_v3(Buffer.from(single, "hex")).hash().to_hex();
    expect(plutusScriptHash(flat)).to.equal(expected);
    expect(plutusScriptHash(single)).to.equal(expected);
    expect(plutusScriptHash(double)).to.equal(expected);
  });

  it("the language is part of the hash (V2 and V3 of the same bytes differ)", () => {
    expect(plutusScriptHash(single, "plutus:v2")).to.not.equal(plutusScriptHash(single, "plutus:v3"));
    expect(plutusScriptFromAny(flat, "plutus:v2").language_version().kind()).to.equal(CSL.LanguageKind.PlutusV2);
  });

  it("plutusScriptFromSingleWrapped refuses flat and double-wrapped input (INVALID_SCRIPT)", () => {
    expect(() => plutusScriptFromSingleWrapped(flat))
      .to.throw(CslError)
      .with.property("type", "INVALID_SCRIPT");
    expect(() => plutusScriptFromSingleWrapped(double))
      .to.throw(CslError)
      .with.property("type", "INVALID_SCRIPT");
    expect(plutusScriptFromSingleWrapped(single).bytes()).to.deep.equal(Uint8Array.from(Buffer.from(single, "hex")));
  });

  it("rejects non-hex input with INVALID_HEX", () => {
    expect(() => detectScriptWrapping("xyz"))
      .to.throw(CslError)
      .with.property("type", "INVALID_HEX");
  });
});
