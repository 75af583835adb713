import { expect } from "chai";
import { Wallet, WalletError, generateMnemonic, verifyDataSignature } from "../../../shared/wallet";

describe("wallet: CIP-30 signData / CIP-8 verification", () => {
  const wallet = Wallet.fromMnemonic(generateMnemonic());
  const other = Wallet.fromMnemonic(generateMnemonic());
  const payloadHex = Buffer.from("certificate 3f2a: hello", "utf8").toString("hex");

  it("round-trips: a signature over the base address verifies for that address and payload", () => {
    const sig = wallet.signData(payloadHex);
    expect(sig.signature).to.match(/^84/); // COSE_Sign1 is a 4-element array
    expect(sig.key).to.match(/^a[0-9a-f]/); // COSE_Key is a map
    expect(verifyDataSignature({ ...sig, payloadHex, address: wallet.address })).to.equal(true);
    expect(verifyDataSignature({ ...sig, address: wallet.address })).to.equal(true);
  });

  it("signs with the stake key for the reward address and with the payment key for the enterprise address", () => {
    const stakeSig = wallet.signData(payloadHex, wallet.rewardAddress);
    expect(verifyDataSignature({ ...stakeSig, payloadHex, address: wallet.rewardAddress })).to.equal(true);
    const entSig = wallet.signData(payloadHex, wallet.enterpriseAddress);
    expect(verifyDataSignature({ ...entSig, payloadHex, address: wallet.enterpriseAddress })).to.equal(true);
    // the address header is signed: a signature for the enterprise address does not pass for the base address
    expect(verifyDataSignature({ ...entSig, payloadHex, address: wallet.address })).to.equal(false);
  });

  it("rejects a different payload", () => {
    const sig = wallet.signData(payloadHex);
    expect(verifyDataSignature({ ...sig, payloadHex: payloadHex + "00", address: wallet.address })).to.equal(false);
  });

  it("rejects a claimed address whose payment credential is not the COSE key's hash", () => {
    const sig = wallet.signData(payloadHex);
    expect(verifyDataSignature({ ...sig, payloadHex, address: other.address })).to.equal(false);
  });

  it("rejects another wallet's key paired with this wallet's signature", () => {
    const sig = wallet.signData(payloadHex);
    const foreign = other.signData(payloadHex);
    expect(verifyDataSignature({ signature: sig.signature, key: foreign.key, payloadHex, address: wallet.address })).to.equal(false);
  });

  it("rejects a tampered signature byte", () => {
    const sig = wallet.signData(payloadHex);
    const last = sig.signature.slice(-2);
    const flipped = sig.signature.slice(0, -2) + (last === "00" ? "01" : "00");
    expect(verifyDataSignature({ ...sig, signature: flipped, payloadHex, address: wallet.address })).to.equal(false);
  });

  it("returns false (does not throw) on garbage input", () => {
    expect(verifyDataSignature({ signature: "zz", key: "00", address: wallet.address })).to.equal(false);
    expect(verifyDataSignature({ signature: "84", key: "a0", address: "not-an-address" })).to.equal(false);
  });

  it("refuses to sign for an address it does not own (ADDRESS_NOT_OWNED) and non-hex payloads (INVALID_PAYLOAD)", () => {
    expect(() => wallet.signData(payloadHex, other.address))
      .to.throw(WalletError)
      .with.property("type", "ADDRESS_NOT_OWNED");
    expect(() => wallet.signData("xyz"))
      .to.throw(WalletError)
      .with.property("type", "INVALID_PAYLOAD");
  });
});
