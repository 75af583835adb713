// Catching up a long chain: blocks are written in batches, yet every block is stored before its post-actions run,
// the checkpoint reaches the tip, and the stored block points stay within the rollback horizon.
import type { Transaction } from "@cardano-ogmios/schema";
import { expect } from "chai";
import { BATCH_BLOCKS, Indexer } from "../../shared/indexer/indexer";
import { PluginPipeline } from "../../shared/indexer/plugin-pipeline";
import { createStore, type Store } from "../../shared/store";
import { scriptAddressOf } from "../../shared/protocol";
import { startHarness, type Harness } from "../chain/support/devnet-harness";
import { pollUntil } from "../../fixtures/mesh/helpers";

const view = {
  proxyPolicyId: "a1".repeat(28),
  proxyAddress: scriptAddressOf("a1".repeat(28), 0),
  pointerTokenName: "e5".repeat(32),
  stateScriptHashes: new Set<string>(),
  libraryAddress: scriptAddressOf("99".repeat(28), 0),
  libraryAdmin: "d4".repeat(28),
};

describe("indexer: catching up a long chain in batches", function () {
  this.timeout(120_000);
  let h: Harness;
  let store: Store;

  before(async () => {
    h = await startHarness();
    store = await createStore({ inMemory: true });
  });
  after(async () => {
    await store.close();
    await h.close();
  });

  it("stores every block before its post-actions run, reaches the tip, and keeps only the newest block points", async () => {
    const first = await h.payAndProduce();
    h.devnet.produceEmptyBlocks(BATCH_BLOCKS + 300);
    const middle = await h.payAndProduce();
    h.devnet.produceEmptyBlocks(700);
    const last = await h.payAndProduce();
    const tip = h.devnet.tipWithHeight();
    if (tip === "origin") throw new Error("the chain is empty");

    const pipeline = new PluginPipeline<Transaction>();
    const seenStored: { height: number; stored: boolean }[] = [];
    const ref: { indexer?: Indexer } = {};
    pipeline.register({
      kind: "post-action",
      name: "sees-its-block-stored",
      run: async (block) => {
        if (block.transactions.length === 0) return 0;
        const stored = await ref.indexer!.log.transaction(block.transactions[0]!.id);
        seenStored.push({ height: block.height, stored: stored?.blockId === block.id });
        return 1;
      },
    });
    const indexer = await Indexer.create({ store, chain: h.client, view, pipeline, slotToTime: (s) => s * 1000, keepBlocks: 200 });
    ref.indexer = indexer;
    await indexer.start();
    await pollUntil(async () => ((await indexer.log.checkpoint())?.point.id === tip.id ? true : undefined), "the checkpoint at the tip");

    expect(indexer.status().blocksProcessed).to.equal(tip.height);
    expect(seenStored.map((s) => s.stored)).to.deep.equal([true, true, true]);
    for (const t of [first, middle, last]) expect(await indexer.log.transaction(t.txId)).to.include({ blockId: t.id, slot: t.slot });
    // The stored block points are the newest ones (200 kept, pruned every 100 blocks written): the tip's among them.
    const points = await store.collection<{ _id: string; height: number }>("indexer_blocks").find({}, { sort: { height: 1 } });
    expect(points.length).to.be.within(200, 300);
    expect(points.at(-1)).to.include({ _id: tip.id, height: tip.height });
    expect(points[0]!.height).to.equal(tip.height - points.length + 1);

    // At the tip every block is written as it arrives.
    const next = await h.payAndProduce();
    await pollUntil(async () => (await indexer.log.transaction(next.txId)) ?? undefined, "the new block stored");
    expect(await indexer.log.checkpoint()).to.deep.include({ point: { slot: next.slot, id: next.id } });
    await indexer.stop();
  });
});
