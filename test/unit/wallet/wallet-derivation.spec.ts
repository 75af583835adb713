import { expect } from "chai";
import { inspect } from "node:util";
import { CSL } from "../../../shared/csl/lib";
import { Wallet, WalletError, generateMnemonic } from "../../../shared/wallet";

// Public CIP-1852 test vector (used across Cardano SDKs' test suites); it controls no funds.
const PUBLIC_TEST_VECTOR = "test walk nut penalty hip pave soap entry language right filter choice";

describe("wallet: CIP-1852 derivation", () => {
  it("derives the published payment/stake hashes and addresses of the public test vector", () => {
    const w = Wallet.fromMnemonic(PUBLIC_TEST_VECTOR);
    expect(w.paymentKeyHash).to.equal("9493315cd92eb5d8c4304e67b7e16ae36d61d34502694657811a2c8e");
    expect(w.stakeKeyHash).to.equal("32c728d3861e164cab28cb8f006448139c8f1740ffb8e7aa9e5232dc");
    expect(w.address).to.equal(
      "addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp",
    );
    expect(w.rewardAddress).to.equal("stake_test1uqevw2xnsc0pvn9t9r9c7qryfqfeerchgrlm3ea2nefr9hqp8n5xl");
    expect(w.enterpriseAddress).to.match(/^addr_test1v/);
  });

  it("uses the mainnet header (type 0, network 1) and addr prefix for networkId 1, same credentials", () => {
    const test = Wallet.fromMnemonic(PUBLIC_TEST_VECTOR);
    const main = Wallet.fromMnemonic(PUBLIC_TEST_VECTOR, { networkId: 1 });
    expect(main.address).to.match(/^addr1q/);
    const testBytes = CSL.Address.from_bech32(test.address).to_bytes();
    const mainBytes = CSL.Address.from_bech32(main.address).to_bytes();
    expect(mainBytes[0]).to.equal(0x01);
    expect(testBytes[0]).to.equal(0x00);
    expect(Buffer.from(mainBytes.subarray(1)).toString("hex")).to.equal(main.paymentKeyHash + main.stakeKeyHash);
    expect(main.rewardAddress).to.match(/^stake1u/);
  });

  it("derives different keys for another account index", () => {
    const a0 = Wallet.fromMnemonic(PUBLIC_TEST_VECTOR);
    const a1 = Wallet.fromMnemonic(PUBLIC_TEST_VECTOR, { account: 1 });
    expect(a1.paymentKeyHash).to.not.equal(a0.paymentKeyHash);
    expect(a1.paymentKeyHash).to.match(/^[0-9a-f]{56}$/);
  });

  it("generates 24-word mnemonics that restore to the same wallet, tolerant of spacing and case", () => {
    const m = generateMnemonic();
    expect(m.split(" ")).to.have.length(24);
    const a = Wallet.fromMnemonic(m);
    const b = Wallet.fromMnemonic(`  ${m.toUpperCase().split(" ").join("   ")} `);
    expect(b.address).to.equal(a.address);
    expect(a.paymentPublicKeyHex).to.match(/^[0-9a-f]{64}$/);
    expect(generateMnemonic()).to.not.equal(m);
  });

  it("rejects a mnemonic with a bad checksum with INVALID_MNEMONIC and does not echo the words", () => {
    const words = PUBLIC_TEST_VECTOR.split(" ");
    words[11] = "abandon";
    const bad = words.join(" ");
    let caught: unknown;
    try {
      Wallet.fromMnemonic(bad);
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(WalletError);
    const err = caught as WalletError;
    expect(err.type).to.equal("INVALID_MNEMONIC");
    expect(err.data).to.deep.equal({ wordCount: 12 });
    expect(err.message + JSON.stringify(err.data)).to.not.include("penalty");
  });

  it("never exposes key material through JSON, toString or util.inspect", () => {
    const m = generateMnemonic();
    const w = Wallet.fromMnemonic(m);
    const views = [JSON.stringify(w), String(w), inspect(w, { showHidden: true, depth: 5 }), Object.keys(w).join()];
    for (const v of views) {
      expect(v).to.not.include(m.split(" ")[0] + " " + m.split(" ")[1]);
      expect(v).to.not.match(/[0-9a-f]{128}/); // no 64-byte extended private key in hex
      expect(v).to.not.match(/xprv|ed25519e?_sk/);
    }
    expect(JSON.parse(JSON.stringify(w))).to.have.property("address", w.address);
  });
});
