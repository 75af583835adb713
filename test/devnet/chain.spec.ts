// The devnet's own chain: persistence and replay, rollback, block production, time, and the Ogmios projection.
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Devnet, DevnetError } from "../../shared/devnet";
import { bigintJson } from "../../shared/devnet/bigint-json";
import { alicePaysBob, fundedDevnet, type Fixture } from "./support/devnet-fixture";
import { bn, newKey, type OutRef, type TestKey } from "../../fixtures/devnet/tx-fixtures";

describe("devnet chain", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "devnet-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("persists the block log and rebuilds the same chain on restart, re-validating every block", async () => {
    const f = await fundedDevnet({ dataDir: dir });
    await f.devnet.submitTransaction(alicePaysBob(f, 2_000_000n).hex);
    f.clock.advanceSlots(1);
    f.devnet.produceBlock();
    await f.devnet.submitTransaction(alicePaysBob(f, 3_000_000n).hex);
    f.clock.advanceSlots(1);
    f.devnet.produceBlock();
    const tip = f.devnet.tip();
    const utxo = f.devnet.queryUtxo();
    await f.devnet.close();

    const restarted = await Devnet.create({ dataDir: dir, clock: () => f.clock.now });
    expect(restarted.tip()).to.deep.equal(tip);
    expect(restarted.height).to.equal(2);
    expect(restarted.queryUtxo()).to.deep.equal(utxo);
    expect(restarted.systemStartMs).to.equal(f.devnet.systemStartMs);
    // The replayed ledger state is live: the restored outputs can be spent, the spent ones cannot.
    const f2: Fixture = { ...f, devnet: restarted };
    await restarted.submitTransaction(alicePaysBob(f2, 4_000_000n, { from: f2.largestOf(f.alice) }).hex);
    await restarted.close();
  });

  it("refuses to start from a block log whose transactions do not re-validate, or with a different genesis", async () => {
    const f = await fundedDevnet({ dataDir: dir });
    await f.devnet.submitTransaction(alicePaysBob(f, 2_000_000n).hex);
    f.devnet.produceBlock();
    await f.devnet.close();
    const path = join(dir, "blocks.jsonl");
    const block = JSON.parse(readFileSync(path, "utf8").trim()) as { txs: string[] };
    writeFileSync(path, `${JSON.stringify({ ...block, txs: [...block.txs, ...block.txs] })}\n`);
    const err = await Devnet.create({ dataDir: dir, clock: () => f.clock.now }).then(
      () => undefined,
      (e: unknown) => e as { type: string },
    );
    expect(err?.type).to.equal("BLOCK_LOG_INVALID");
    const other = newKey();
    const mismatch = await Devnet.create({ dataDir: dir, genesis: [{ address: other.address, lovelace: 1n }] }).then(
      () => undefined,
      (e: unknown) => e as { type: string },
    );
    expect(mismatch?.type).to.equal("GENESIS_MISMATCH");
  });

  it("refuses a genesis with a mainnet address or a non-positive amount, and writes no chain for it", async () => {
    const typeOf = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => (e as { type: string }).type,
      );
    expect(await typeOf(Devnet.create({ dataDir: dir, genesis: [{ address: newKey(1).address, lovelace: 5n }] }))).to.equal(
      "GENESIS_INVALID",
    );
    expect(await typeOf(Devnet.create({ genesis: [{ address: newKey().address, lovelace: 0n }] }))).to.equal("GENESIS_INVALID");
    const fresh = await Devnet.create({ dataDir: dir, genesis: [{ address: newKey().address, lovelace: 5_000_000n }] });
    expect(fresh.genesisFunds()).to.have.length(1);
    await fresh.close();
  });

  it("rolls back: confirmed UTxOs are restored, rolled-back transactions return to the mempool, and the log is rewritten", async () => {
    const f = await fundedDevnet({ dataDir: dir });
    const before = f.devnet.queryUtxo();
    const id = await f.devnet.submitTransaction(alicePaysBob(f, 2_000_000n).hex);
    f.devnet.produceBlock();
    expect(f.devnet.queryUtxo()).to.not.deep.equal(before);
    f.devnet.rollback(1);
    expect(f.devnet.tip()).to.equal("origin");
    expect(f.devnet.queryUtxo()).to.have.deep.members(before);
    expect(f.devnet.mempoolTransactions().map((t) => t.id)).to.deep.equal([id]);
    expect(readFileSync(join(dir, "blocks.jsonl"), "utf8")).to.equal("");
    f.clock.advanceSlots(3);
    expect(f.devnet.produceBlock()?.transactions?.[0]?.id).to.equal(id);
    expect(() => f.devnet.rollback(5))
      .to.throw()
      .with.property("code", -32602);
    await f.devnet.close();
  });

  it("produces empty blocks in bulk, one slot apart, leaving the mempool alone; refuses a bad count", async () => {
    const f = await fundedDevnet();
    await f.devnet.submitTransaction(alicePaysBob(f, 2_000_000n).hex);
    f.devnet.produceBlock();
    const pending = await f.devnet.submitTransaction(alicePaysBob(f, 3_000_000n).hex);
    const seen: number[] = [];
    f.devnet.on("block", (b) => void seen.push((b as { height: number }).height));
    const tip = f.devnet.produceEmptyBlocks(5);
    expect(tip).to.include({ height: 6 });
    const blocks = [2, 3, 4, 5, 6].map((h) => f.devnet.blockAt(h)!);
    expect(blocks.map((b) => b.transactions?.length ?? 0)).to.deep.equal([0, 0, 0, 0, 0]);
    expect(blocks.map((b) => b.slot - blocks[0]!.slot)).to.deep.equal([0, 1, 2, 3, 4]);
    expect(blocks[0]!.slot).to.be.greaterThan(f.devnet.blockAt(1)!.slot);
    expect(seen).to.deep.equal([2, 3, 4, 5, 6]);
    expect(f.devnet.mempoolTransactions().map((t) => t.id)).to.deep.equal([pending]);
    for (const bad of [0, -1, 1.5, 1_000_001]) expect(() => f.devnet.produceEmptyBlocks(bad)).to.throw(DevnetError);
    // The pending transaction still makes it into the next block.
    expect(f.devnet.produceBlock()?.transactions?.map((t) => t.id)).to.deep.equal([pending]);
    await f.devnet.close();
  });

  it("serves each block's JSON text from its cache exactly as projecting it again would, within the cache budget", async () => {
    for (const budget of [undefined, 0, 3_000]) {
      const f = await fundedDevnet(budget === undefined ? {} : { blockJsonCacheBytes: budget });
      await f.devnet.submitTransaction(alicePaysBob(f, 2_000_000n).hex);
      f.devnet.produceBlock();
      f.devnet.produceEmptyBlocks(6);
      await f.devnet.submitTransaction(alicePaysBob(f, 3_000_000n).hex);
      f.devnet.produceBlock();
      f.devnet.rollback(2);
      f.devnet.produceEmptyBlocks(3);
      for (let h = 1; h <= f.devnet.height; h++) {
        expect(f.devnet.blockTextAt(h), `block ${h} (budget ${budget})`).to.equal(bigintJson.stringify(f.devnet.blockAt(h)));
      }
      expect(f.devnet.blockTextAt(f.devnet.height + 1)).to.equal(undefined);
      await f.devnet.close();
    }
  });

  it("produces blocks on its own every blockTimeMs while the mempool is not empty", async () => {
    const f = await fundedDevnet({ blockTimeMs: 10 });
    const produced = new Promise<unknown>((resolve) => f.devnet.on("block", resolve));
    await f.devnet.submitTransaction(alicePaysBob(f, 2_000_000n).hex);
    await produced;
    expect(f.devnet.height).to.equal(1);
    expect(f.devnet.mempoolTransactions()).to.have.length(0);
    await f.devnet.close();
  });

  it("derives slots from the injected clock, keeps block slots increasing, and drops mempool transactions that expired before the block", async () => {
    const f = await fundedDevnet();
    const slot = f.devnet.currentSlot();
    expect(slot).to.equal(100);
    const expiring = alicePaysBob(f, 2_000_000n, { ttl: slot + 2 });
    await f.devnet.submitTransaction(expiring.hex);
    f.clock.advanceSlots(5);
    expect(f.devnet.produceBlock()).to.equal(undefined);
    expect(f.devnet.queryUtxo({ addresses: [f.bob.address] })).to.have.length(1);
    await f.devnet.submitTransaction(alicePaysBob(f, 2_000_000n).hex);
    const b1 = f.devnet.produceBlock()!;
    await f.devnet.submitTransaction(alicePaysBob(f, 2_000_000n).hex);
    const b2 = f.devnet.produceBlock()!;
    expect(b1.slot).to.equal(105);
    expect(b2.slot).to.equal(106);
    expect(b2.ancestor).to.equal(b1.id);
    await f.devnet.close();
  });

  it("projects transactions as Ogmios does: metadata as json when representable, else cbor; fee; signatories; cbor", async () => {
    const f = await fundedDevnet();
    const from = f.largestOf(f.alice);
    const tx = metadataTx(f.alice, from, f.bob.address);
    const id = await f.devnet.submitTransaction(tx);
    const block = f.devnet.produceBlock()!;
    const projected = block.transactions![0]!;
    expect(projected.id).to.equal(id);
    expect(projected.metadata?.labels["674"]).to.deep.equal({ json: { msg: ["hello"] } });
    expect(Object.keys(projected.metadata?.labels["1"] ?? {})).to.deep.equal(["cbor"]);
    expect(projected.signatories).to.have.length(1);
    expect(projected.fee?.ada.lovelace).to.be.a("bigint");
    expect(projected.cbor).to.equal(tx);
    await f.devnet.close();
  });
});

/** A payment carrying CIP-20 metadata (674, JSON-representable) and a bytes metadatum (label 1, CBOR only). */
function metadataTx(alice: TestKey, from: OutRef & { lovelace: bigint }, to: string): string {
  const metadata = CSL.GeneralTransactionMetadata.new();
  metadata.insert(bn(674), CSL.encode_json_str_to_metadatum(JSON.stringify({ msg: ["hello"] }), CSL.MetadataJsonSchema.NoConversions));
  metadata.insert(bn(1), CSL.TransactionMetadatum.new_bytes(new Uint8Array([1, 2, 3])));
  const auxiliary = CSL.AuxiliaryData.new();
  auxiliary.set_metadata(metadata);
  const build = (fee: bigint) => {
    const inputs = CSL.TransactionInputs.new();
    inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(from.txHash), from.index));
    const outputs = CSL.TransactionOutputs.new();
    outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(to), CSL.Value.new(bn(2_000_000n))));
    outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(alice.address), CSL.Value.new(bn(from.lovelace - 2_000_000n - fee))));
    const body = CSL.TransactionBody.new_tx_body(inputs, outputs, bn(fee));
    body.set_auxiliary_data_hash(CSL.hash_auxiliary_data(auxiliary));
    const fixed = CSL.FixedTransaction.new_with_auxiliary(
      body.to_bytes(),
      CSL.TransactionWitnessSet.new().to_bytes(),
      auxiliary.to_bytes(),
      true,
    );
    fixed.sign_and_add_vkey_signature(alice.sk);
    return fixed.to_hex();
  };
  const draft = build(300_000n);
  const fee = BigInt(CSL.min_fee(CSL.Transaction.from_hex(draft), CSL.LinearFee.new(bn(44), bn(155_381))).to_str());
  return build(fee);
}
