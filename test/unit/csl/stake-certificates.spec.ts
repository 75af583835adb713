/** The facade's script-witnessed stake (de)registration certificates, evaluated by a real Plutus evaluator. */
import { expect } from "chai";
import {
  buildWithEvaluation,
  decodeTx,
  publishKey,
  plutusScriptHash,
  singleWrapFlat,
  withdrawKey,
  scriptRewardAddress,
  type TxSpec,
} from "../../../shared/csl";
import { CSL } from "../../../shared/csl/lib";
import { ALWAYS_SUCCEEDS_FLAT, DATA_UNIT, PP, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";
import { uplcEvaluator } from "../../../fixtures/csl/uplc-evaluator";

describe("csl: stake certificates with a Plutus witness", () => {
  const wallet = aWallet();
  const always = singleWrapFlat(ALWAYS_SUCCEEDS_FLAT);
  const hash = plutusScriptHash(always);
  const deposit = BigInt(PP.stakeCredentialDeposit.ada.lovelace);

  it("registers a script stake credential with its deposit, next to a withdraw-zero of the same script", async () => {
    const funds = [aUtxo({ address: wallet.address, lovelace: 50_000_000n })];
    const rewardAddress = scriptRewardAddress(hash, 0);
    const spec: TxSpec = {
      protocolParameters: PP,
      utxos: funds,
      changeAddress: wallet.address,
      certificates: [{ kind: "register", script: { language: "plutus:v3", cbor: always }, deposit, redeemer: DATA_UNIT }],
      withdrawals: [{ rewardAddress, script: { language: "plutus:v3", cbor: always }, redeemer: DATA_UNIT }],
    };
    const tx = await buildWithEvaluation(spec, uplcEvaluator(funds));
    expect(new Set(tx.redeemers.map((r) => r.key))).to.deep.equal(new Set([publishKey("register", hash), withdrawKey(rewardAddress)]));
    const cert = CSL.FixedTransaction.from_hex(tx.cborHex).body().certs()!.get(0).as_reg_cert()!;
    expect(cert.stake_credential().to_scripthash()!.to_hex()).to.equal(hash);
    expect(BigInt(cert.coin()!.to_str())).to.equal(deposit);
    // value conservation with the deposit: inputs = outputs + fee + deposit
    const d = decodeTx(tx.cborHex);
    const out = d.outputs.reduce((s, o) => s + BigInt(o.value.ada.lovelace), 0n);
    expect(out + d.fee + deposit).to.equal(50_000_000n);
  });

  it("deregisters it with the refund going to change", async () => {
    const funds = [aUtxo({ address: wallet.address, lovelace: 10_000_000n })];
    const tx = await buildWithEvaluation(
      {
        protocolParameters: PP,
        utxos: funds,
        changeAddress: wallet.address,
        certificates: [{ kind: "deregister", script: { language: "plutus:v3", cbor: always }, deposit, redeemer: DATA_UNIT }],
      },
      uplcEvaluator(funds),
    );
    expect(tx.redeemers.map((r) => r.key)).to.deep.equal([publishKey("deregister", hash)]);
    const d = decodeTx(tx.cborHex);
    const out = d.outputs.reduce((s, o) => s + BigInt(o.value.ada.lovelace), 0n);
    expect(out + d.fee).to.equal(10_000_000n + deposit);
  });
});
