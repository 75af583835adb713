/**
 * The answers a process remembers on the build path are pure functions of their key (an address's text, a datum's
 * CBOR): remembered or not, they equal a fresh computation, a caller cannot change them, a key that fails is never
 * remembered, and the memo stays within its bound.
 */
import { expect } from "chai";
import { CSL } from "../../../shared/csl/lib";
import { CslError, scriptAddress, plutusScriptHash, singleWrapFlat } from "../../../shared/csl";
import { networkIdOfAddress, paymentCredentialOf } from "../../../shared/csl/address";
import { BoundedMemo } from "../../../shared/csl/memo";
import { stateDatumOf } from "../../../shared/issuance/state-candidates";
import { dataToCborHex } from "../../../shared/csl/plutus-data";
import { encodeStateDatum, type StateDatum } from "../../../shared/protocol";
import { ALWAYS_SUCCEEDS_FLAT, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";

describe("csl: answers remembered on the build path", () => {
  it("an address's payment credential and network id: the same as parsing it afresh, frozen, for key and script addresses", () => {
    const wallet = aWallet();
    const script = scriptAddress(plutusScriptHash(singleWrapFlat(ALWAYS_SUCCEEDS_FLAT)), 0);
    for (const address of [wallet.address, script]) {
      const fresh = CSL.Address.from_bech32(address);
      const cred = fresh.payment_cred()!;
      const expected = cred.to_keyhash()
        ? { kind: "key", hash: cred.to_keyhash()!.to_hex() }
        : { kind: "script", hash: cred.to_scripthash()!.to_hex() };
      expect(paymentCredentialOf(address)).to.deep.equal(expected);
      expect(paymentCredentialOf(address), "asked again").to.deep.equal(expected);
      expect(networkIdOfAddress(address)).to.equal(fresh.network_id());
      expect(Object.isFrozen(paymentCredentialOf(address))).to.equal(true);
    }
    expect(paymentCredentialOf(wallet.address)!.hash).to.equal(wallet.paymentKeyHash);
  });

  it("an invalid address throws every time (a failure is never remembered)", () => {
    for (let i = 0; i < 2; i++) {
      expect(() => paymentCredentialOf("addr_test1notanaddress"))
        .to.throw(CslError)
        .with.property("type", "INVALID_ADDRESS");
      expect(() => networkIdOfAddress("addr_test1notanaddress"))
        .to.throw(CslError)
        .with.property("type", "INVALID_ADDRESS");
    }
  });

  it("a state datum decoded from its CBOR: each datum its own answer, frozen; a datum that is no state datum gives none", () => {
    const datum = (countdown: bigint): StateDatum => ({
      id: "ab".repeat(16),
      owner: "cd".repeat(28),
      fee: 0n,
      feeInterval: 10n,
      feeReceivers: [],
      ttl: 1_900_000_000_000n,
      countdown,
      certificateDataHash: "ef".repeat(32),
      batchSize: 10n,
      bootstrapDatumName: "64656661756c74",
      keepAsOracle: false,
    });
    const at = (d: string) => ({ ...aUtxo({ address: aWallet().address }), datum: d });
    const first = at(dataToCborHex(encodeStateDatum(datum(7n))));
    const next = at(dataToCborHex(encodeStateDatum(datum(6n))));
    expect(stateDatumOf(first)).to.deep.equal(datum(7n));
    expect(stateDatumOf(next)).to.deep.equal(datum(6n));
    expect(stateDatumOf(first), "asked again").to.deep.equal(datum(7n));
    expect(Object.isFrozen(stateDatumOf(first))).to.equal(true);
    expect(() => ((stateDatumOf(first) as { countdown: bigint }).countdown = 1n)).to.throw(TypeError);
    expect(stateDatumOf(at(dataToCborHex({ int: 42n })))).to.equal(undefined);
  });

  it("a memo keeps at most its limit of answers, the oldest forgotten first, and computes a failing key every time", () => {
    let calls = 0;
    const memo = new BoundedMemo(3, (k) => {
      calls++;
      if (k === "bad") throw new Error("bad key");
      return { k };
    });
    for (const k of ["a", "b", "c", "a", "d"]) memo.get(k);
    expect(calls).to.equal(4);
    expect(memo.size).to.equal(3);
    memo.get("a"); // "a" was the oldest when "d" came
    expect(calls).to.equal(5);
    expect(() => memo.get("bad")).to.throw("bad key");
    expect(() => memo.get("bad")).to.throw("bad key");
    expect(calls).to.equal(7);
    expect(memo.size).to.equal(3);
  });
});
