/**
 * The item key: deterministic, bound to its batch and item, a standard scrypt → Ed25519 derivation (checked
 * against node:crypto's own Ed25519), and a signer whose witness the ledger accepts.
 */
import { createPrivateKey, createPublicKey, scryptSync } from "node:crypto";
import { inspect } from "node:util";
import { expect } from "chai";
import { CSL } from "../../../shared/csl/lib";
import { vkeySignatures } from "../../../shared/csl/witnesses";
import {
  type ConnectedGoodsError,
  ITEM_KEY_DOMAIN,
  ITEM_KEY_SCRYPT,
  deriveItemKey,
  itemKeySalt,
} from "../../../shared/extensions/connected-goods";

const batchId = "11".repeat(32);
const shoe = Buffer.from("shoe-0001", "utf8").toString("hex");
const password = "correct horse battery staple";

describe("item key", function () {
  this.timeout(20_000);

  it("matches the known-answer vector", async () => {
    const key = await deriveItemKey(password, batchId, shoe);
    expect(key.publicKeyHex).to.equal("d3824dd51436dc7e6ed79cc0dff80938d519b5fe2fcbba7f54a04c401cb4d4fd");
    expect(key.keyHash).to.equal("5940d3e9bd227c3c4c736cfd11e33ac88198bafb23329bf1fb717759");
  });

  it("is scrypt(N=2^15, r=8, p=1) over the documented salt, used as an RFC 8032 Ed25519 seed", async () => {
    expect(ITEM_KEY_SCRYPT).to.deep.equal({ N: 32768, r: 8, p: 1, keyLength: 32 });
    const salt = Buffer.concat([Buffer.from(ITEM_KEY_DOMAIN, "utf8"), Buffer.of(0), Buffer.from(batchId, "hex"), Buffer.from(shoe, "hex")]);
    expect(itemKeySalt(batchId, shoe).equals(salt)).to.equal(true);
    const seed = scryptSync(password, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
    const spki = createPublicKey(createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" })).export({ format: "der", type: "spki" });
    const key = await deriveItemKey(password, batchId, shoe);
    expect(key.publicKeyHex).to.equal(Buffer.from(spki.subarray(-32)).toString("hex"));
    expect(key.keyHash).to.equal(CSL.PublicKey.from_hex(key.publicKeyHex).hash().to_hex());
  });

  it("is deterministic and separates passwords, batches and items", async () => {
    const base = await deriveItemKey(password, batchId, shoe);
    expect((await deriveItemKey(password, batchId, shoe)).keyHash).to.equal(base.keyHash);
    const others = await Promise.all([
      deriveItemKey(password + "!", batchId, shoe),
      deriveItemKey(password, "22".repeat(32), shoe),
      deriveItemKey(password, batchId, Buffer.from("shoe-0002").toString("hex")),
    ]);
    for (const k of others) expect(k.keyHash).to.not.equal(base.keyHash);
  });

  it("normalises the password (NFKC), so the same text typed differently gives the same key", async () => {
    const composed = await deriveItemKey("caf\u00e9", batchId, shoe);
    const decomposed = await deriveItemKey("cafe\u0301", batchId, shoe);
    expect(decomposed.keyHash).to.equal(composed.keyHash);
  });

  it("refuses an empty password and a malformed context", async () => {
    for (const [args, type] of [
      [["", batchId, shoe], "INVALID_PASSWORD"],
      [[password, "11".repeat(31), shoe], "INVALID_CONTEXT"],
      [[password, batchId, ""], "INVALID_CONTEXT"],
      [[password, batchId, "00".repeat(33)], "INVALID_CONTEXT"],
      [[password, "zz", shoe], "INVALID_CONTEXT"],
    ] as const) {
      const err = await deriveItemKey(...(args as unknown as [string, string, string])).then(
        () => undefined,
        (e: unknown) => e as ConnectedGoodsError,
      );
      expect(err?.type, JSON.stringify(args)).to.equal(type);
    }
  });

  it("signs a transaction body with a witness that verifies, and never shows its secret", async () => {
    const key = await deriveItemKey(password, batchId, shoe);
    const body = CSL.TransactionBody.new_tx_body(CSL.TransactionInputs.new(), CSL.TransactionOutputs.new(), CSL.BigNum.from_str("0"));
    const tx = CSL.Transaction.new(body, CSL.TransactionWitnessSet.new()).to_hex();
    const sigs = vkeySignatures(key.signTxFull(tx));
    expect(sigs).to.deep.equal([{ publicKey: key.publicKeyHex, keyHash: key.keyHash, valid: true }]);
    const seed = scryptSync(password, itemKeySalt(batchId, shoe), 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString("hex");
    const shown = [JSON.stringify(key), String(key), inspect(key), Object.keys(key).join()].join(" ");
    expect(shown).to.include(key.keyHash);
    expect(shown).to.not.include(seed);
  });
});
