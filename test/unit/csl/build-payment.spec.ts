import { expect } from "chai";
import fc from "fast-check";
import { buildPayment, CslError, decodeTx, txIdOf, type AssetMap } from "../../../shared/csl";
import { CSL } from "../../../shared/csl/lib";
import { PP, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";
import { conservation } from "./support/conservation";

const POLICY = "ab".repeat(28);

describe("csl: buildPayment", () => {
  const wallet = aWallet();
  const payee = aWallet();

  it("builds an unsigned payment whose id, fee and outputs are what it reports", () => {
    const utxos = [aUtxo({ address: wallet.address, lovelace: 10_000_000n })];
    const built = buildPayment({
      protocolParameters: PP,
      utxos,
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 3_000_000n }],
    });
    const tx = decodeTx(built.cborHex);
    expect(tx.id).to.equal(built.txId);
    expect(txIdOf(built.cborHex)).to.equal(built.txId);
    expect(tx.fee).to.equal(built.fee);
    expect(tx.outputs[0]).to.deep.equal({ address: payee.address, value: { ada: { lovelace: 3_000_000n } } });
    expect(tx.outputs[1]?.address).to.equal(wallet.address);
    expect(tx.vkeyWitnesses).to.deep.equal([]);
    // fee: one vkey witness is accounted for, so the signed tx still pays at least the minimum
    const signed = wallet.signTxFull(built.cborHex);
    const min = BigInt(PP.minFeeCoefficient) * BigInt(signed.length / 2) + BigInt(PP.minFeeConstant.ada.lovelace);
    expect(built.fee >= min).to.equal(true);
    expect(built.fee - min < 1_000n).to.equal(true);
  });

  it("sets the validity interval and CIP-20 metadata with its auxiliary data hash", () => {
    const built = buildPayment({
      protocolParameters: PP,
      utxos: [aUtxo({ address: wallet.address, lovelace: 10_000_000n })],
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 2_000_000n }],
      validityStartSlot: 100,
      ttlSlot: 500n,
      metadata: { 674: { msg: ["certificate", "3f2a"] } },
    });
    const tx = decodeTx(built.cborHex);
    expect(tx.validityStartSlot).to.equal(100n);
    expect(tx.ttlSlot).to.equal(500n);
    expect(tx.metadataLabels).to.deep.equal([674n]);
    expect(tx.auxiliaryDataHash).to.match(/^[0-9a-f]{64}$/);
    const md = CSL.Transaction.from_hex(built.cborHex).auxiliary_data()!.metadata()!.get(CSL.BigNum.from_str("674"))!;
    expect(md.as_map().get_str("msg").as_list().get(1).as_text()).to.equal("3f2a");
  });

  it("sends native assets and returns the other tokens as change", () => {
    const utxos = [aUtxo({ address: wallet.address, lovelace: 10_000_000n, assets: { [POLICY]: { "6869": 10n, "6f74686572": 3n } } })];
    const built = buildPayment({
      protocolParameters: PP,
      utxos,
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 2_000_000n, assets: { [POLICY]: { "6869": 4n } } }],
    });
    const { consumed, produced } = conservation(built.cborHex, utxos);
    expect(produced).to.deep.equal(consumed);
    const change = decodeTx(built.cborHex).outputs[1]!;
    expect(change.value[POLICY]).to.deep.equal({ "6869": 6n, "6f74686572": 3n });
  });

  it("rejects an output below the min-UTxO with OUTPUT_BELOW_MIN_UTXO and the minimum in data", () => {
    let caught: unknown;
    try {
      buildPayment({
        protocolParameters: PP,
        utxos: [aUtxo({ address: wallet.address, lovelace: 10_000_000n })],
        changeAddress: wallet.address,
        outputs: [{ address: payee.address, lovelace: 500_000n }],
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(CslError);
    expect((caught as CslError).type).to.equal("OUTPUT_BELOW_MIN_UTXO");
    expect(BigInt((caught as CslError).data["minimum"] as string) > 500_000n).to.equal(true);
  });

  it("rejects a payment larger than the funds with INSUFFICIENT_FUNDS", () => {
    let caught: unknown;
    try {
      buildPayment({
        protocolParameters: PP,
        utxos: [aUtxo({ address: wallet.address, lovelace: 3_000_000n })],
        changeAddress: wallet.address,
        outputs: [{ address: payee.address, lovelace: 5_000_000n }],
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(CslError);
    expect((caught as CslError).type).to.equal("INSUFFICIENT_FUNDS");
  });

  it("rejects a malformed address with INVALID_ADDRESS", () => {
    expect(() =>
      buildPayment({
        protocolParameters: PP,
        utxos: [aUtxo({ address: wallet.address, lovelace: 10_000_000n })],
        changeAddress: wallet.address,
        outputs: [{ address: "addr_test1notanaddress", lovelace: 2_000_000n }],
      }),
    )
      .to.throw(CslError)
      .with.property("type", "INVALID_ADDRESS");
  });

  it("property: every built payment conserves value, pays ≥ the min fee and keeps outputs ≥ min-ADA", () => {
    const assetName = fc.constantFrom("61", "62", "6363");
    const utxoArb = fc.record({
      lovelace: fc.bigInt({ min: 1_500_000n, max: 50_000_000n }),
      tokens: fc.option(fc.dictionary(assetName, fc.bigInt({ min: 1n, max: 1_000n }), { minKeys: 1 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(utxoArb, { minLength: 1, maxLength: 6 }), fc.bigInt({ min: 1_000_000n, max: 40_000_000n }), (specs, amount) => {
        const utxos = specs.map((s) =>
          aUtxo({ address: wallet.address, lovelace: s.lovelace, ...(s.tokens ? { assets: { [POLICY]: s.tokens } as AssetMap } : {}) }),
        );
        let built;
        try {
          built = buildPayment({
            protocolParameters: PP,
            utxos,
            changeAddress: wallet.address,
            outputs: [{ address: payee.address, lovelace: amount }],
          });
        } catch (err) {
          // the only acceptable failure: not enough ADA for amount + fee + change min-ADA
          expect(err).to.be.instanceOf(CslError);
          expect((err as CslError).type).to.equal("INSUFFICIENT_FUNDS");
          const total = utxos.reduce((a, u) => a + BigInt(u.value.ada.lovelace), 0n);
          expect(total < amount + 5_000_000n).to.equal(true);
          return;
        }
        const { consumed, produced } = conservation(built.cborHex, utxos);
        expect(produced).to.deep.equal(consumed);
        const signed = wallet.signTxFull(built.cborHex);
        const ledgerMin = BigInt(PP.minFeeCoefficient) * BigInt(signed.length / 2 - 1) + BigInt(PP.minFeeConstant.ada.lovelace);
        expect(built.fee >= ledgerMin).to.equal(true);
        const tx = CSL.Transaction.from_hex(built.cborHex);
        const outs = tx.body().outputs();
        for (let i = 0; i < outs.len(); i++) {
          const o = outs.get(i);
          const min = BigInt(CSL.min_ada_for_output(o, CSL.DataCost.new_coins_per_byte(CSL.BigNum.from_str("4310"))).to_str());
          expect(BigInt(o.amount().coin().to_str()) >= min).to.equal(true);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("never burns a change too small for an output: spends one more UTxO, or refuses saying how much is missing", () => {
    const spec = (lovelaces: bigint[]) => ({
      protocolParameters: PP,
      utxos: lovelaces.map((lovelace) => aUtxo({ address: wallet.address, lovelace })),
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 1_500_000n }],
    });
    // 2.3 ADA − 1.5 ADA − fee leaves less than the minimum UTxO value: left alone, CSL would add it all to the fee
    const refused = (() => {
      try {
        buildPayment(spec([2_300_000n]));
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(refused).to.be.instanceOf(CslError);
    expect((refused as CslError).type).to.equal("INSUFFICIENT_FUNDS");
    expect((refused as CslError).message).to.match(/below the minimum UTxO value/);
    expect(BigInt((refused as CslError).data["missingLovelace"] as string) > 0n).to.equal(true);

    const built = buildPayment(spec([2_300_000n, 1_200_000n]));
    const tx = decodeTx(built.cborHex);
    expect(tx.inputs).to.have.length(2);
    expect(built.fee < 300_000n, `fee ${built.fee}`).to.equal(true);
    expect(tx.outputs.map((o) => o.address)).to.deep.equal([payee.address, wallet.address]);
  });
});
