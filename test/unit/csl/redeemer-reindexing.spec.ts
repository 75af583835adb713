import { expect } from "chai";
import {
  buildTx,
  buildWithEvaluation,
  CslError,
  decodeTx,
  evaluationByKey,
  evaluationByRedeemers,
  plutusScriptHash,
  purposeKeysByPointer,
  sortRewardAccounts,
  scriptAddress,
  scriptRewardAddress,
  singleWrapFlat,
  spendKey,
  withdrawKey,
  type TxSpec,
} from "../../../shared/csl";
import { ALWAYS_SUCCEEDS_FLAT, DATA_41, DATA_42, PP, REDEEMER_42_FLAT, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";
import { uplcEvaluator } from "../../../fixtures/csl/uplc-evaluator";

describe("csl trap 2: redeemer indices are rewritten; results map back by purpose", () => {
  const wallet = aWallet();
  const always = singleWrapFlat(ALWAYS_SUCCEEDS_FLAT);
  const r42 = singleWrapFlat(REDEEMER_42_FLAT);
  // the tx ids fix the ledger order: the r42 lock sorts first although we list it second
  const lockAlways = aUtxo({
    address: scriptAddress(plutusScriptHash(always), 0),
    lovelace: 5_000_000n,
    datum: DATA_42,
    txId: "ff".repeat(32),
  });
  const lockR42 = aUtxo({ address: scriptAddress(plutusScriptHash(r42), 0), lovelace: 5_000_000n, datum: DATA_42, txId: "00".repeat(32) });
  const funds = [aUtxo({ address: wallet.address, lovelace: 40_000_000n, txId: "77".repeat(32) })];
  const known = [...funds, lockAlways, lockR42];

  function spec(r42Redeemer = DATA_42): TxSpec {
    return {
      protocolParameters: PP,
      utxos: funds,
      changeAddress: wallet.address,
      scriptInputs: [
        { utxo: lockAlways, script: { language: "plutus:v3", cbor: always }, redeemer: DATA_42 },
        { utxo: lockR42, script: { language: "plutus:v3", cbor: r42 }, redeemer: r42Redeemer },
      ],
    };
  }

  it("the builder puts each spend redeemer at its input's sorted position, not at the position we listed it", () => {
    const built = buildTx(spec());
    const byKey = new Map(built.redeemers.map((r) => [r.key, r]));
    expect(byKey.get(spendKey(lockR42.transaction.id, 0))?.index).to.equal(0);
    expect(byKey.get(spendKey(lockAlways.transaction.id, 0))?.index).to.equal(1);
  });

  it("maps evaluation results to inputs through the evaluated tx: each script gets its own budget", async () => {
    const evaluate = uplcEvaluator(known);
    const draft = buildTx(spec());
    const results = await evaluate(draft.cborHex);
    expect(results.map((r) => `${r.validator.purpose}:${r.validator.index}`).sort()).to.deep.equal(["spend:0", "spend:1"]);
    const byKey = evaluationByKey(draft.cborHex, results);
    const alwaysBudget = byKey.get(spendKey(lockAlways.transaction.id, 0))!;
    const r42Budget = byKey.get(spendKey(lockR42.transaction.id, 0))!;
    // the r42 script does strictly more work than the constant script
    expect(r42Budget.cpu > alwaysBudget.cpu).to.equal(true);
    // a naive mapping by our listing order would have swapped them
    const naiveFirst = results.find((r) => Number(r.validator.index) === 0)!;
    expect(BigInt(naiveFirst.budget.cpu)).to.equal(r42Budget.cpu);
  });

  it("maps evaluation results through the builder's own redeemer report exactly as through the decoded tx", async () => {
    const evaluate = uplcEvaluator(known);
    for (const budgets of [new Map(), (await buildWithEvaluation(spec(), evaluate)).evaluation]) {
      const built = buildTx(spec(), budgets);
      const results = await evaluate(built.cborHex);
      const viaReport = evaluationByRedeemers(built.redeemers, results);
      expect(viaReport.size).to.equal(2);
      expect([...viaReport].sort()).to.deep.equal([...evaluationByKey(built.cborHex, results)].sort());
    }
  });

  it("evaluate-then-rebuild declares exactly the evaluated ex-units on the right redeemers", async () => {
    const evaluate = uplcEvaluator(known);
    const tx = await buildWithEvaluation(spec(), evaluate);
    expect(tx.evaluations).to.equal(2); // draft + verification of the rebuilt tx
    const again = evaluationByKey(tx.cborHex, await evaluate(tx.cborHex));
    for (const r of decodeTx(tx.cborHex).redeemers) {
      const e = again.get(r.key!)!;
      expect({ key: r.key, memory: r.memory, cpu: r.cpu }).to.deep.equal({ key: r.key, memory: e.memory, cpu: e.cpu });
    }
    // the draft's placeholders (a share of the per-tx maximum) are gone and the fee dropped accordingly
    const draft = buildTx(spec());
    expect(tx.fee < draft.fee).to.equal(true);
    expect(tx.redeemers.every((r) => r.memory < 1_000_000n)).to.equal(true);
  });

  it("with a margin, declares at least the evaluated units plus the margin", async () => {
    const tx = await buildWithEvaluation(spec(), uplcEvaluator(known), { marginPercent: 10 });
    for (const r of tx.redeemers) {
      const e = tx.evaluation.get(r.key)!;
      expect(r.memory >= e.memory + e.memory / 10n).to.equal(true);
      expect(r.cpu >= e.cpu + e.cpu / 10n).to.equal(true);
    }
  });

  it("propagates the evaluator's failure for a failing script (redeemer 41)", async () => {
    let caught: unknown;
    try {
      await buildWithEvaluation(spec(DATA_41), uplcEvaluator(known));
    } catch (err) {
      caught = err;
    }
    expect(caught, "buildWithEvaluation must reject").to.not.equal(undefined);
    expect(String(caught)).to.match(/fail|error/i);
  });

  it("withdraw redeemers follow the ledger's RewardAccount order (script credentials first), not the address bytes", () => {
    const alwaysReward = scriptRewardAddress(plutusScriptHash(always), 0);
    const built = buildTx({
      protocolParameters: PP,
      utxos: funds,
      changeAddress: wallet.address,
      withdrawals: [
        { rewardAddress: wallet.rewardAddress, lovelace: 0n }, // key credential: header 0xe0 sorts first by bytes
        { rewardAddress: alwaysReward, script: { language: "plutus:v3", cbor: always }, redeemer: DATA_42 },
      ],
    });
    expect(built.redeemers.map((r) => [r.purpose, r.index, r.key])).to.deep.equal([["withdraw", 0, withdrawKey(alwaysReward)]]);
    const keys = purposeKeysByPointer(built.cborHex);
    expect(keys.get("withdraw:0")).to.equal(withdrawKey(alwaysReward));
    expect(keys.get("withdraw:1")).to.equal(withdrawKey(wallet.rewardAddress));
    expect(sortRewardAccounts([wallet.rewardAddress, alwaysReward])).to.deep.equal([alwaysReward, wallet.rewardAddress]);
  });

  it("rejects an evaluation result that points at no purpose of the tx (EVALUATION_RESULT_UNMATCHED)", async () => {
    const built = buildTx(spec());
    const bogus = [{ validator: { purpose: "mint", index: 0 }, budget: { memory: 1, cpu: 1 } }];
    expect(() => evaluationByKey(built.cborHex, bogus))
      .to.throw(CslError)
      .with.property("type", "EVALUATION_RESULT_UNMATCHED");
    expect(() => evaluationByRedeemers(built.redeemers, bogus))
      .to.throw(CslError)
      .with.property("type", "EVALUATION_RESULT_UNMATCHED");
    // a pointer the body has (a key credential's withdrawal) but no redeemer carries matches nothing either
    const withKeyWithdrawal = buildTx({
      ...spec(),
      withdrawals: [
        { rewardAddress: wallet.rewardAddress, lovelace: 0n },
        {
          rewardAddress: scriptRewardAddress(plutusScriptHash(always), 0),
          script: { language: "plutus:v3", cbor: always },
          redeemer: DATA_42,
        },
      ],
    });
    expect(purposeKeysByPointer(withKeyWithdrawal.cborHex).get("withdraw:1")).to.equal(withdrawKey(wallet.rewardAddress));
    const keyInput = [{ validator: { purpose: "withdraw", index: 1 }, budget: { memory: 1, cpu: 1 } }];
    expect(() => evaluationByRedeemers(withKeyWithdrawal.redeemers, keyInput))
      .to.throw(CslError)
      .with.property("type", "EVALUATION_RESULT_UNMATCHED");
    let caught: unknown;
    try {
      await buildWithEvaluation(spec(), async () => bogus);
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(CslError);
    expect((caught as CslError).type).to.equal("EVALUATION_RESULT_UNMATCHED");
  });
});
