import { expect } from "chai";
import { buildPayment, buildTx, decodeTx, rawBodyOf, txIdOf, vkeySignatures } from "../../../shared/csl";
import { CSL } from "../../../shared/csl/lib";
import { Wallet, WalletError, generateMnemonic } from "../../../shared/wallet";
import { PP, aUtxo } from "../../../fixtures/csl/fixtures";

describe("wallet: CIP-30 signTx", () => {
  const wallet = Wallet.fromMnemonic(generateMnemonic());
  const payee = Wallet.fromMnemonic(generateMnemonic());
  const payment = (): string =>
    buildPayment({
      protocolParameters: PP,
      utxos: [aUtxo({ address: wallet.address, lovelace: 20_000_000n })],
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 2_000_000n }],
    }).cborHex;

  it("returns a witness set holding one payment-key witness that verifies over the body hash", () => {
    const tx = payment();
    const ws = CSL.TransactionWitnessSet.from_hex(wallet.signTx(tx));
    const vkeys = ws.vkeys()!;
    expect(vkeys.len()).to.equal(1);
    const w = vkeys.get(0);
    expect(w.vkey().public_key().to_hex()).to.equal(wallet.paymentPublicKeyHex);
    const bodyHash = Buffer.from(txIdOf(tx), "hex");
    expect(w.vkey().public_key().verify(bodyHash, w.signature())).to.equal(true);
    expect(ws.plutus_scripts()).to.equal(undefined);
  });

  it("signs the body bytes as given, even when CSL would re-encode them differently", () => {
    const tx = payment();
    const body = Buffer.from(rawBodyOf(tx)).toString("hex");
    const odd = tx.replace(body, body.replace("00d90102", "00")); // inputs without the set tag
    expect(txIdOf(odd)).to.not.equal(txIdOf(tx));
    const signed = wallet.signTxFull(odd);
    expect(txIdOf(signed)).to.equal(txIdOf(odd));
    expect(vkeySignatures(signed)).to.deep.equal([{ publicKey: wallet.paymentPublicKeyHex, keyHash: wallet.paymentKeyHash, valid: true }]);
  });

  it("adds the stake-key witness when the body withdraws from the wallet's reward address", () => {
    const tx = buildTx({
      protocolParameters: PP,
      utxos: [aUtxo({ address: wallet.address, lovelace: 20_000_000n })],
      changeAddress: wallet.address,
      withdrawals: [{ rewardAddress: wallet.rewardAddress, lovelace: 0n }],
    }).cborHex;
    const signed = wallet.signTxFull(tx);
    const keys = vkeySignatures(signed);
    expect(keys.map((k) => k.keyHash).sort()).to.deep.equal([wallet.paymentKeyHash, wallet.stakeKeyHash].sort());
    expect(keys.every((k) => k.valid)).to.equal(true);
  });

  it("adds the stake-key witness when the stake key is a required signer, and not otherwise", () => {
    const withSigner = buildTx({
      protocolParameters: PP,
      utxos: [aUtxo({ address: wallet.address, lovelace: 20_000_000n })],
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 2_000_000n }],
      requiredSigners: [wallet.stakeKeyHash],
    }).cborHex;
    expect(decodeTx(wallet.signTxFull(withSigner)).vkeyWitnesses).to.have.length(2);
    expect(decodeTx(wallet.signTxFull(payment())).vkeyWitnesses).to.have.length(1);
  });

  it("rejects bytes that are not a transaction with INVALID_TRANSACTION", () => {
    expect(() => wallet.signTx("deadbeef"))
      .to.throw(WalletError)
      .with.property("type", "INVALID_TRANSACTION");
  });
});
