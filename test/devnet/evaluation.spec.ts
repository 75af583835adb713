/**
 * `evaluateTransaction` answers with the ledger's own Plutus machine (the scalus machine `submitTransaction` runs in
 * phase 2: shared/devnet/ledger-evaluation.ts), and has the UPLC evaluator describe a failure. These tests hold the
 * answers to the UPLC evaluator's budgets and to the ledger's verdict on a transaction carrying them.
 */
import { expect } from "chai";
import { decodeTransaction } from "../../shared/devnet/decoded-transaction";
import { describeLedgerFailure, evaluateScriptsHere } from "../../shared/devnet/evaluator";
import { inputCbor } from "../../shared/devnet/utxo-set";
import { REDEEMER_IS_42_V3 } from "../../fixtures/devnet/test-scripts.generated";
import { buildWithMinFee, intData, plutusV3, scriptAddress, type OutRef } from "../../fixtures/devnet/tx-fixtures";
import { expectDevnetError, fundedDevnet, GENESIS_LOVELACE, type Fixture } from "./support/devnet-fixture";

describe("devnet evaluateTransaction: the ledger's budgets, exactly", function () {
  this.timeout(60_000);
  let f: Fixture;
  const script = plutusV3(REDEEMER_IS_42_V3);
  let locked: OutRef[];
  /** the locked outputs' CBOR, by `txId#index` */
  let lockedCbor: Map<string, Uint8Array>;
  beforeEach(async () => {
    f = await fundedDevnet();
    // two outputs locked at the script, confirmed
    const lock = buildWithMinFee((fee) => ({
      inputs: [f.genesisOf(f.alice)],
      outputs: [
        { address: scriptAddress(script), lovelace: 10_000_000n, inlineDatum: intData(0) },
        { address: scriptAddress(script), lovelace: 12_000_000n, inlineDatum: intData(1) },
        { address: f.alice.address, lovelace: GENESIS_LOVELACE - 22_000_000n - fee },
      ],
      fee,
      signers: [f.alice.sk],
    }));
    const id = await f.devnet.submitTransaction(lock.hex);
    lockedCbor = new Map(decodeTransaction(lock.hex).produced.map((p) => [`${p.txId}#${p.index}`, p.outputCbor]));
    f.clock.advanceSlots(1);
    f.devnet.produceBlock();
    locked = [
      { txHash: id, index: 0 },
      { txHash: id, index: 1 },
    ];
  });
  afterEach(() => f.close());

  /** Spends the locked outputs with `redeemers` (one per input) and the given execution units. */
  const spend = (redeemers: number[], units: { memory: number; cpu: number }[]) =>
    buildWithMinFee((fee) => ({
      inputs: locked.slice(0, redeemers.length),
      outputs: [{ address: f.bob.address, lovelace: (redeemers.length === 1 ? 10_000_000n : 22_000_000n) - fee }],
      fee,
      collateral: [f.genesisOf(f.bob)],
      signers: [f.bob.sk],
      plutusScripts: [script],
      redeemers: redeemers.map((r, index) => ({ tag: "spend", index, data: intData(r), ...units[index]! })),
    })).hex;

  const generous = { memory: 1_000_000, cpu: 500_000_000 };
  /** The UPLC evaluator's budgets for the same transaction and resolved inputs. */
  const resolvedOf = (hex: string) => {
    const tx = decodeTransaction(hex);
    const refs = tx.inputs.map((key) => {
      const [txId, index] = key.split("#") as [string, string];
      return { txId, index: Number(index) };
    });
    const resolved = { inputs: refs.map(inputCbor), outputs: tx.inputs.map((key) => lockedCbor.get(key)!) };
    tx.fixed.free();
    return resolved;
  };
  const uplcBudgets = (hex: string) => {
    const tx = decodeTransaction(hex);
    const refs = tx.inputs.map((key) => {
      const [txId, index] = key.split("#") as [string, string];
      return { txId, index: Number(index) };
    });
    const outputs = tx.inputs.map((key) => lockedCbor.get(key)!);
    const budgets = evaluateScriptsHere(tx.bytes, { inputs: refs.map(inputCbor), outputs }, f.devnet.systemStartMs);
    tx.fixed.free();
    return budgets;
  };

  it("answers the same budgets as the UPLC evaluator, for one redeemer and for two", async () => {
    for (const redeemers of [[42], [42, 42]]) {
      const hex = spend(
        redeemers,
        redeemers.map(() => generous),
      );
      const answer = await f.devnet.evaluateTransaction(hex);
      expect(answer.map((a) => a.validator)).to.deep.equal(redeemers.map((_, index) => ({ purpose: "spend", index })));
      expect(answer).to.deep.equal(uplcBudgets(hex));
    }
  });

  it("answers budgets the ledger accepts exactly: the transaction carrying them is accepted, one memory unit less is refused", async () => {
    const answer = await f.devnet.evaluateTransaction(spend([42, 42], [generous, generous]));
    const exact = answer.map((a) => a.budget);
    const short = exact.map((b, i) => (i === 1 ? { ...b, memory: b.memory - 1 } : b));
    const refused = await expectDevnetError(f.devnet.submitTransaction(spend([42, 42], short)), 3136);
    expect((refused.data as { mismatchReason: string }).mismatchReason).to.match(/Out of budget/);
    await f.devnet.submitTransaction(spend([42, 42], exact));
  });

  it("describes a failing script with its validator and traces (3010 / 3012), as before", async () => {
    const failure = await expectDevnetError(f.devnet.evaluateTransaction(spend([42, 7], [generous, generous])), 3010);
    const [first] = failure.data as { validator: unknown; error: { code: number; data: { traces: string[] } } }[];
    expect(first!.validator).to.deep.equal({ purpose: "spend", index: 1 });
    expect(first!.error.code).to.equal(3012);
    expect(first!.error.data.traces).to.include("redeemer must be 42");
  });

  it("lets the ledger's verdict stand when the UPLC evaluator would pass what the ledger's machine refused", () => {
    const hex = spend([42], [generous]);
    const bytes = decodeTransaction(hex).bytes;
    let thrown: unknown;
    try {
      describeLedgerFailure(bytes, resolvedOf(hex), f.devnet.systemStartMs, { message: "the ledger's message", logs: ["a log line"] });
    } catch (err) {
      thrown = err;
    }
    const e = thrown as { code: number; payload: { validator: unknown; error: { code: number; data: unknown } }[] };
    expect(e.code).to.equal(3010);
    expect(e.payload[0]!.validator).to.deep.equal({ purpose: "spend", index: 0 });
    expect(e.payload[0]!.error).to.deep.include({ code: 3012, data: { validationError: "the ledger's message", traces: ["a log line"] } });
  });
});
