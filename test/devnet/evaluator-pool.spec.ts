/**
 * The devnet's evaluator pool (shared/devnet/evaluator-pool.ts) on a real Plutus V3 script: every worker it
 * recycles through answers the same budgets and the same script failure, each successor is started when its
 * predecessor retires, before the next evaluation asks for it, and overlapping evaluations run on a second worker.
 */
import { expect } from "chai";
import { decodeTransaction } from "../../shared/devnet/decoded-transaction";
import { DevnetError } from "../../shared/devnet/errors";
import { EvaluatorPool } from "../../shared/devnet/evaluator-pool";
import { EVALUATIONS_PER_INSTANCE, evaluateScriptsHere, evaluatorInstancesCreated } from "../../shared/devnet/evaluator";
import { inputCbor } from "../../shared/devnet/utxo-set";
import { REDEEMER_IS_42_V3 } from "../../fixtures/devnet/test-scripts.generated";
import { buildWithMinFee, intData, plutusV3, scriptAddress } from "../../fixtures/devnet/tx-fixtures";
import { fundedDevnet, GENESIS_LOVELACE, type Fixture } from "./support/devnet-fixture";

describe("devnet evaluator pool: recycled workers answer alike, successors start ahead, overlapping calls use two workers", function () {
  this.timeout(60_000);
  let f: Fixture;
  let pool: EvaluatorPool | undefined;
  before(async () => {
    f = await fundedDevnet();
  });
  after(async () => {
    await pool?.close();
    await f?.close();
  });

  let spend: (redeemer: number) => Uint8Array;
  let resolved: { inputs: Uint8Array[]; outputs: Uint8Array[] };
  let systemStartMs: number;
  before(() => {
    const script = plutusV3(REDEEMER_IS_42_V3);
    const lock = buildWithMinFee((fee) => ({
      inputs: [f.genesisOf(f.alice)],
      outputs: [
        { address: scriptAddress(script), lovelace: 10_000_000n, inlineDatum: intData(0) },
        { address: f.alice.address, lovelace: GENESIS_LOVELACE - 10_000_000n - fee },
      ],
      fee,
      signers: [f.alice.sk],
    }));
    const locked = decodeTransaction(lock.hex).produced[0]!;
    const collateral = f.genesisOf(f.bob);
    spend = (redeemer: number) =>
      decodeTransaction(
        buildWithMinFee((fee) => ({
          inputs: [{ txHash: locked.txId, index: locked.index }],
          outputs: [{ address: f.bob.address, lovelace: 10_000_000n - fee }],
          fee,
          collateral: [collateral],
          signers: [f.bob.sk],
          plutusScripts: [script],
          redeemers: [{ tag: "spend", index: 0, data: intData(redeemer), memory: 1_000_000, cpu: 500_000_000 }],
        })).hex,
      ).bytes;
    resolved = {
      inputs: [inputCbor({ txId: locked.txId, index: locked.index })],
      outputs: [locked.outputCbor],
    };
    systemStartMs = f.devnet.systemStartMs;
  });

  it("evaluates through three workers with the same budgets and failure, each started before it is needed", async () => {
    pool = new EvaluatorPool(2);
    expect(pool.workersStarted).to.equal(0);
    const budgets = [];
    for (let call = 1; call <= 5; call++) {
      budgets.push(await pool.evaluate(spend(42), resolved, systemStartMs));
      // the first worker starts on the first call; every second call retires one and starts its successor
      expect(pool.workersStarted, `workers after call ${call}`).to.equal(1 + Math.floor(call / 2));
    }
    expect(budgets[0]).to.have.length(1);
    expect(budgets[0]![0]!.budget.memory).to.be.greaterThan(0);
    for (const b of budgets) expect(b).to.deep.equal(budgets[0]);

    // the sixth call runs on the third worker, started when the second retired
    const failure = await pool.evaluate(spend(7), resolved, systemStartMs).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).to.be.instanceOf(DevnetError);
    expect((failure as DevnetError).code).to.equal(3010);
    expect(pool.workersStarted).to.equal(4);
    await pool.close();
    pool = undefined;
  });

  it("renews the evaluator instance every EVALUATIONS_PER_INSTANCE calls with the same budgets and failure on each", () => {
    const first = evaluateScriptsHere(spend(42), resolved, systemStartMs);
    const before = evaluatorInstancesCreated();
    const outcomes: unknown[] = [];
    for (let call = 0; call < 2 * EVALUATIONS_PER_INSTANCE + 2; call++) {
      const redeemer = call % 5 === 4 ? 7 : 42;
      try {
        outcomes.push({ redeemer, budgets: evaluateScriptsHere(spend(redeemer), resolved, systemStartMs) });
      } catch (err) {
        outcomes.push({ redeemer, code: (err as DevnetError).code });
      }
    }
    expect(evaluatorInstancesCreated() - before, "fresh instances over the calls").to.be.within(2, 3);
    for (const o of outcomes) {
      const { redeemer } = o as { redeemer: number };
      if (redeemer === 42) expect(o).to.deep.equal({ redeemer, budgets: first });
      else expect(o).to.deep.equal({ redeemer, code: 3010 });
    }
  });

  it("keeps its workers by default: one worker answers many evaluations", async () => {
    pool = new EvaluatorPool();
    for (let call = 0; call < EVALUATIONS_PER_INSTANCE + 5; call++) await pool.evaluate(spend(42), resolved, systemStartMs);
    expect(pool.workersStarted).to.equal(1);
    await pool.close();
    pool = undefined;
  });

  it("runs overlapping evaluations on two workers, with the same budgets and failure as one after another", async () => {
    pool = new EvaluatorPool(20);
    const alone = await pool.evaluate(spend(42), resolved, systemStartMs);
    expect(pool.workersStarted, "one caller at a time uses one worker").to.equal(1);
    const settled = await Promise.allSettled([42, 7, 42, 7].map((r) => pool!.evaluate(spend(r), resolved, systemStartMs)));
    expect(pool.workersStarted, "overlapping calls start the second worker").to.equal(2);
    expect(settled.map((s) => s.status)).to.deep.equal(["fulfilled", "rejected", "fulfilled", "rejected"]);
    for (const s of settled) {
      if (s.status === "fulfilled") expect(s.value).to.deep.equal(alone);
      else expect((s.reason as DevnetError).code).to.equal(3010);
    }
  });
});
