import { expect } from "chai";
import { createPublicKey, verify } from "node:crypto";
import { arrayElements, mapEntries, readHeader } from "../../../shared/csl/cbor";
import { CSL } from "../../../shared/csl/lib";
import { Wallet, generateMnemonic } from "../../../shared/wallet";

/** Ed25519 SPKI DER prefix (RFC 8410) */
const ED25519_SPKI = Buffer.from("302a300506032b6570032100", "hex");

function bstrContent(b: Uint8Array, start: number, end: number): Buffer {
  const h = readHeader(b, start);
  expect(h.major, "a CBOR byte string").to.equal(2);
  return Buffer.from(b.subarray(h.next, end));
}

describe("wallet: signData checked by an independent verifier (node:crypto + hand-built Sig_structure, RFC 8152 §4.4)", () => {
  const wallet = Wallet.fromMnemonic(generateMnemonic());
  const payload = Buffer.from("anchor 9f86d081884c7d659a2feaa0c55ad015", "utf8");
  const { signature, key } = wallet.signData(payload.toString("hex"));
  const cose = Uint8Array.from(Buffer.from(signature, "hex"));
  const [prot, unprot, pay, sig] = arrayElements(cose) as Array<[number, number]>;

  it("has the CIP-30 shape: protected {alg: EdDSA, address}, unprotected {hashed: false}, the payload attached", () => {
    const protectedMap = bstrContent(cose, prot![0], prot![1]);
    // {1: -8, "address": h'<address bytes>'}
    const address = Buffer.from(CSL.Address.from_bech32(wallet.address).to_bytes());
    expect(protectedMap.toString("hex")).to.equal("a201276761646472657373" + "5839" + address.toString("hex"));
    expect(Buffer.from(cose.subarray(unprot![0], unprot![1])).toString("hex")).to.equal("a166686173686564f4");
    expect(bstrContent(cose, pay![0], pay![1]).equals(payload)).to.equal(true);
  });

  it("the signature verifies with node:crypto against the COSE_Key x coordinate, and x hashes to the payment key hash", () => {
    const keyBytes = Uint8Array.from(Buffer.from(key, "hex"));
    let x: Buffer | undefined;
    for (const e of mapEntries(keyBytes)) {
      const k = readHeader(keyBytes, e.keyStart);
      if (k.major === 1 && k.arg === 1) x = bstrContent(keyBytes, e.valueStart, e.end); // label -2
    }
    expect(x?.length).to.equal(32);
    expect(CSL.PublicKey.from_bytes(x!).hash().to_hex()).to.equal(wallet.paymentKeyHash);

    const sigStructure = Buffer.concat([
      Buffer.from("84", "hex"),
      Buffer.from("6a", "hex"),
      Buffer.from("Signature1", "ascii"),
      Buffer.from(cose.subarray(prot![0], prot![1])),
      Buffer.from("40", "hex"),
      Buffer.from(cose.subarray(pay![0], pay![1])),
    ]);
    const publicKey = createPublicKey({ key: Buffer.concat([ED25519_SPKI, x!]), format: "der", type: "spki" });
    const sigBytes = bstrContent(cose, sig![0], sig![1]);
    expect(verify(null, sigStructure, publicKey, sigBytes)).to.equal(true);
    const tampered = Buffer.from(sigStructure);
    tampered[tampered.length - 1]! ^= 1;
    expect(verify(null, tampered, publicKey, sigBytes)).to.equal(false);
  });
});
