// Each ledger rule the devnet enforces: one transaction accepted, one rejected with the Ogmios error code.
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { expect } from "chai";
import { expectDevnetError, fundedDevnet, GENESIS_LOVELACE, type Fixture } from "./support/devnet-fixture";
import { ALWAYS_TRUE_V3, REDEEMER_IS_42_V3 } from "../../fixtures/devnet/test-scripts.generated";
import {
  buildTx,
  buildWithMinFee,
  intData,
  ledgerMinFee,
  newKey,
  newStakingKey,
  plutusV3,
  scriptAddress,
  type OutRef,
  type TestKey,
  type TxSpec,
} from "../../fixtures/devnet/tx-fixtures";

/** alice pays `lovelace` to `to` from her genesis output, change back to her, at the minimum fee (+delta). */
function payment(f: Fixture, to: string, lovelace: bigint, extra: Partial<TxSpec> = {}, delta = 0n) {
  const from = f.genesisOf(f.alice);
  return buildWithMinFee(
    (fee) => ({
      inputs: [from],
      outputs: [
        { address: to, lovelace },
        { address: f.alice.address, lovelace: GENESIS_LOVELACE - lovelace - fee },
      ],
      fee,
      signers: [f.alice.sk],
      ...extra,
    }),
    delta,
  );
}

/** Locks `lovelace` at `address` (optionally with datum/script ref) in a confirmed block; returns the out-ref. */
async function lock(f: Fixture, output: TxSpec["outputs"][number]): Promise<OutRef> {
  const from = f.largestOf(f.alice);
  const spec = buildWithMinFee((fee) => ({
    inputs: [from],
    outputs: [output, { address: f.alice.address, lovelace: from.lovelace - output.lovelace - fee }],
    fee,
    signers: [f.alice.sk],
  }));
  const id = await f.submit(spec.hex);
  f.devnet.produceBlock();
  return { txHash: id, index: 0 };
}

/** Spends a script output `locked` (value `lovelace`) to alice's fresh key, with bob's genesis as collateral. */
function scriptSpend(
  f: Fixture,
  locked: OutRef,
  lovelace: bigint,
  redeemer: number,
  extra: Partial<TxSpec> = {},
  referenceScriptBytes = 0,
): { hex: string; fee: bigint } {
  const collateral = f.genesisOf(f.bob);
  return buildWithMinFee(
    (fee) => ({
      inputs: [locked],
      outputs: [{ address: f.alice.address, lovelace: lovelace - fee }],
      fee,
      collateral: [collateral],
      signers: [f.bob.sk],
      redeemers: [{ tag: "spend", index: 0, data: intData(redeemer), memory: 200_000, cpu: 80_000_000 }],
      ...extra,
    }),
    0n,
    referenceScriptBytes,
  );
}

// Submissions go through the real Ogmios client and the devnet server, so every error reply is also schema-checked.
describe("devnet ledger rules (scalus rule engine behind the devnet)", () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await fundedDevnet({}, { overTheWire: true });
  });
  afterEach(() => f.close());

  it("accepts a payment at exactly the ledger minimum fee and rejects one lovelace less (3122), golden against the advertised parameters", async () => {
    const exact = payment(f, f.bob.address, 5_000_000n);
    const tooLow = payment(f, f.bob.address, 5_000_000n, {}, -1n);
    expect(tooLow.fee).to.equal(exact.fee - 1n);
    const error = await expectDevnetError(f.submit(tooLow.hex), 3122);
    expect(error.data).to.deep.equal({
      minimumRequiredFee: { ada: { lovelace: exact.fee } },
      providedFee: { ada: { lovelace: exact.fee - 1n } },
    });
    const id = await f.submit(exact.hex);
    expect(id).to.match(/^[0-9a-f]{64}$/);
  });

  it("rejects an output below the minimum UTxO value (3125) and accepts one at 1 ada", async () => {
    const small = payment(f, f.bob.address, 500_000n);
    const error = await expectDevnetError(f.submit(small.hex), 3125);
    const outputs = (error.data as { insufficientlyFundedOutputs: { output: { address: string } }[] }).insufficientlyFundedOutputs;
    expect(outputs.map((o) => o.output.address)).to.deep.equal([f.bob.address]);
    await f.submit(payment(f, f.bob.address, 1_000_000n).hex);
  });

  it("rejects a spend signed by the wrong key as a missing signatory (3101)", async () => {
    const wrong = payment(f, f.bob.address, 2_000_000n, { signers: [f.bob.sk] });
    const error = await expectDevnetError(f.submit(wrong.hex), 3101);
    expect(error.data).to.deep.equal({ missingSignatories: [f.alice.keyHash] });
  });

  it("rejects a witness whose signature does not verify (3100)", async () => {
    const forged = payment(f, f.bob.address, 2_000_000n, { corruptSignature: true });
    const error = await expectDevnetError(f.submit(forged.hex), 3100);
    expect((error.data as { invalidSignatories: string[] }).invalidSignatories).to.deep.equal([f.alice.sk.to_public().to_hex()]);
  });

  it("enforces the validity interval: a ttl in the future is accepted, a ttl in the past is rejected (3118)", async () => {
    const slot = f.devnet.currentSlot();
    const expired = payment(f, f.bob.address, 2_000_000n, { ttl: slot - 1 });
    const error = await expectDevnetError(f.submit(expired.hex), 3118);
    expect(error.data).to.deep.equal({ validityInterval: { invalidAfter: slot - 1 }, currentSlot: slot });
    const notYet = payment(f, f.bob.address, 2_000_000n, { validFrom: slot + 10 });
    await expectDevnetError(f.submit(notYet.hex), 3118);
    await f.submit(payment(f, f.bob.address, 2_000_000n, { ttl: slot + 100, validFrom: slot }).hex);
  });

  it("rejects an output to a mainnet address (3124)", async () => {
    const mainnet = newKey(1);
    const error = await expectDevnetError(f.submit(payment(f, mainnet.address, 2_000_000n).hex), 3124);
    expect(error.data).to.deep.equal({ expectedNetwork: "testnet", discriminatedType: "address", invalidEntities: [mainnet.address] });
  });

  it("rejects spending the same output twice (3117), also while the first spend is still in the mempool", async () => {
    await f.submit(payment(f, f.bob.address, 2_000_000n).hex);
    const again = payment(f, f.bob.address, 3_000_000n);
    const error = await expectDevnetError(f.submit(again.hex), 3117);
    const from = f.genesisOf(f.alice);
    expect(error.data).to.deep.equal({ unknownOutputReferences: [{ transaction: { id: from.txHash }, index: from.index }] });
  });

  it("lets a submission spend an output of a transaction still in the mempool", async () => {
    const first = payment(f, f.bob.address, 10_000_000n);
    const firstId = await f.submit(first.hex);
    const chained = buildWithMinFee((fee) => ({
      inputs: [{ txHash: firstId, index: 1 }],
      outputs: [{ address: f.alice.address, lovelace: GENESIS_LOVELACE - 10_000_000n - first.fee - fee }],
      fee,
      signers: [f.alice.sk],
    }));
    await f.submit(chained.hex);
    expect(f.devnet.queryUtxo({ outputReferences: [{ transaction: { id: firstId }, index: 1 }] })).to.have.length(0);
    const block = f.devnet.produceBlock();
    expect(block?.transactions?.map((t) => t.id)).to.have.length(2);
  });

  describe("Plutus V3 scripts", () => {
    const script = plutusV3(REDEEMER_IS_42_V3);
    const address = scriptAddress(script);

    it("runs phase 2: redeemer 42 is accepted, redeemer 7 with isValid=true is rejected (3136)", async () => {
      const locked = await lock(f, { address, lovelace: 20_000_000n, inlineDatum: intData(1) });
      const bad = scriptSpend(f, locked, 20_000_000n, 7, { plutusScripts: [script] });
      const error = await expectDevnetError(f.submit(bad.hex), 3136);
      expect((error.data as { declaredSpending: string }).declaredSpending).to.equal("inputs");
      await f.submit(scriptSpend(f, locked, 20_000_000n, 42, { plutusScripts: [script] }).hex);
    });

    it("accepts a transaction that declares its failing script (isValid=false): only the collateral is consumed, the collateral return is created", async () => {
      const locked = await lock(f, { address, lovelace: 20_000_000n, inlineDatum: intData(1) });
      const collateral = f.genesisOf(f.bob);
      const declaredFailing = (redeemer: number) =>
        buildWithMinFee((fee) => ({
          inputs: [locked],
          outputs: [{ address: f.alice.address, lovelace: 20_000_000n - fee }],
          fee,
          collateral: [collateral],
          collateralReturn: { address: f.bob.address, lovelace: GENESIS_LOVELACE - 5_000_000n },
          totalCollateral: 5_000_000n,
          signers: [f.bob.sk],
          plutusScripts: [script],
          redeemers: [{ tag: "spend", index: 0, data: intData(redeemer), memory: 200_000, cpu: 80_000_000 }],
          isValid: false,
        }));
      const passing = await expectDevnetError(f.submit(declaredFailing(42).hex), 3136);
      expect((passing.data as { declaredSpending: string }).declaredSpending).to.equal("collaterals");
      const id = await f.submit(declaredFailing(7).hex);
      const block = f.devnet.produceBlock()!;
      expect(block.transactions?.[0]?.spends).to.equal("collaterals");
      expect(f.devnet.queryUtxo({ outputReferences: [{ transaction: { id: locked.txHash }, index: 0 }] })).to.have.length(1);
      expect(
        f.devnet.queryUtxo({ outputReferences: [{ transaction: { id: collateral.txHash }, index: collateral.index }] }),
      ).to.have.length(0);
      const returned = f.devnet.queryUtxo({ outputReferences: [{ transaction: { id }, index: 1 }] });
      expect(returned.map((u) => u.value.ada.lovelace)).to.deep.equal([GENESIS_LOVELACE - 5_000_000n]);
    });

    it("checks script_data_hash: a zeroed hash is rejected (3113)", async () => {
      const locked = await lock(f, { address, lovelace: 20_000_000n, inlineDatum: intData(1) });
      const good = scriptSpend(f, locked, 20_000_000n, 42, { plutusScripts: [script] });
      const bad = scriptSpend(f, locked, 20_000_000n, 42, { plutusScripts: [script], scriptDataHash: "00".repeat(32) });
      const error = await expectDevnetError(f.submit(bad.hex), 3113);
      const data = error.data as { providedScriptIntegrity: string; computedScriptIntegrity: string };
      expect(data.providedScriptIntegrity).to.equal("00".repeat(32));
      expect(data.computedScriptIntegrity).to.equal(CSL.Transaction.from_hex(good.hex).body().script_data_hash()?.to_hex());
      await f.submit(good.hex);
    });

    it("requires collateral for a script spend (3132)", async () => {
      const locked = await lock(f, { address, lovelace: 20_000_000n, inlineDatum: intData(1) });
      const noCollateral = buildWithMinFee((fee) => ({
        inputs: [locked],
        outputs: [{ address: f.alice.address, lovelace: 20_000_000n - fee }],
        fee,
        signers: [],
        plutusScripts: [script],
        redeemers: [{ tag: "spend", index: 0, data: intData(42), memory: 200_000, cpu: 80_000_000 }],
      }));
      await expectDevnetError(f.submit(noCollateral.hex), 3132);
    });

    it("spends through a reference script, and rejects the same spend without the reference input (3102)", async () => {
      const locked = await lock(f, { address, lovelace: 20_000_000n, inlineDatum: intData(1) });
      const holder = newKey();
      const refHolder = await lock(f, { address: holder.address, lovelace: 30_000_000n, scriptRef: script });
      const withoutRef = scriptSpend(f, locked, 20_000_000n, 42);
      const error = await expectDevnetError(f.submit(withoutRef.hex), 3102);
      expect((error.data as { missingScripts: string[] }).missingScripts).to.deep.equal([script.hash().to_hex()]);
      const viaReference = scriptSpend(f, locked, 20_000_000n, 42, { referenceInputs: [refHolder] }, script.to_bytes().length);
      await f.submit(viaReference.hex);
    });

    it("requires the datum witness of a datum-hash output (3111) and accepts it when given", async () => {
      const always = plutusV3(ALWAYS_TRUE_V3);
      const datum = intData(1234);
      const locked = await lock(f, { address: scriptAddress(always), lovelace: 20_000_000n, datumHashOf: datum });
      const missing = scriptSpend(f, locked, 20_000_000n, 0, { plutusScripts: [always] });
      const error = await expectDevnetError(f.submit(missing.hex), 3111);
      expect((error.data as { missingDatums: string[] }).missingDatums).to.deep.equal([CSL.hash_plutus_data(datum).to_hex()]);
      await f.submit(scriptSpend(f, locked, 20_000_000n, 0, { plutusScripts: [always], datums: [datum] }).hex);
    });
  });

  it("evaluates a native-script timelock: minting before the deadline is accepted, without a ttl it is rejected (3103)", async () => {
    const deadline = f.devnet.currentSlot() + 50;
    const scripts = CSL.NativeScripts.new();
    scripts.add(CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(CSL.Ed25519KeyHash.from_hex(f.alice.keyHash))));
    scripts.add(CSL.NativeScript.new_timelock_expiry(CSL.TimelockExpiry.new_timelockexpiry(CSL.BigNum.from_str(String(deadline)))));
    const policy = CSL.NativeScript.new_script_all(CSL.ScriptAll.new(scripts));
    const policyId = policy.hash().to_hex();
    const build = (ttl: number | undefined) =>
      buildWithMinFee((fee) => ({
        inputs: [f.genesisOf(f.alice)],
        outputs: [
          { address: f.bob.address, lovelace: 2_000_000n, assets: [{ policy: policyId, name: "cafe", quantity: 1n }] },
          { address: f.alice.address, lovelace: GENESIS_LOVELACE - 2_000_000n - fee },
        ],
        fee,
        signers: [f.alice.sk],
        mint: [{ policy: policyId, name: "cafe", quantity: 1n }],
        nativeScripts: [policy],
        ...(ttl === undefined ? {} : { ttl }),
      }));
    const error = await expectDevnetError(f.submit(build(undefined).hex), 3103);
    expect(error.data).to.deep.equal({ failingNativeScripts: [policyId] });
    await f.submit(build(deadline - 1).hex);
  });

  it("rejects a withdrawal from an unregistered stake credential (3141) and accepts it once registered", async () => {
    const staker: TestKey & { stakeSk: CSL.PrivateKey; rewardAddress: string } = newStakingKey();
    const withdraw = (from: OutRef, amount: bigint) =>
      buildWithMinFee((fee) => ({
        inputs: [from],
        outputs: [{ address: f.alice.address, lovelace: amount - fee }],
        fee,
        withdrawals: [{ rewardAddress: staker.rewardAddress, lovelace: 0n }],
        signers: [f.alice.sk, staker.stakeSk],
      }));
    const unregistered = withdraw(f.genesisOf(f.alice), GENESIS_LOVELACE);
    await expectDevnetError(f.submit(unregistered.hex), 3141);
    const deposit = 2_000_000n;
    const register = buildWithMinFee((fee) => ({
      inputs: [f.genesisOf(f.alice)],
      outputs: [{ address: f.alice.address, lovelace: GENESIS_LOVELACE - deposit - fee }],
      fee,
      stakeRegistrations: [staker.rewardAddress],
      signers: [f.alice.sk],
    }));
    const regId = await f.submit(register.hex);
    f.devnet.produceBlock();
    const registered = withdraw({ txHash: regId, index: 0 }, GENESIS_LOVELACE - deposit - register.fee);
    await f.submit(registered.hex);
  });

  it("rejects an undecodable transaction with Ogmios' deserialisation error (-32602)", async () => {
    const error = await expectDevnetError(f.submit("84a0ff"), -32602);
    expect(Object.keys(error.data as object)).to.deep.equal(["shelley", "allegra", "mary", "alonzo", "babbage", "conway"]);
  });

  it("computes the minimum fee of the golden test from the advertised parameters (a·(size−1) + b)", () => {
    const { hex, fee } = payment(f, f.bob.address, 5_000_000n);
    const size = BigInt(hex.length / 2);
    expect(fee).to.equal(44n * (size - 1n) + 155_381n);
    const empty = ledgerMinFee(buildTx({ inputs: [f.genesisOf(f.alice)], outputs: [], fee: 0n, signers: [] }));
    expect(empty > 155_381n, String(empty)).to.equal(true);
  });
});
