import type { Transaction } from "@cardano-ogmios/schema";
import { expect } from "chai";
import { Indexer } from "../../shared/indexer/indexer";
import { PluginPipeline } from "../../shared/indexer/plugin-pipeline";
import { slotToTimeFrom } from "../../shared/indexer/slot-time";
import { createStore, type Store } from "../../shared/store";
import { scriptAddressOf } from "../../shared/protocol";
import { startHarness, type Harness } from "../chain/support/devnet-harness";
import { pollUntil } from "../../fixtures/mesh/helpers";

// No protocol scripts are deployed here: these tests cover following, confirmation records, rollback and restart.
const view = {
  proxyPolicyId: "a1".repeat(28),
  proxyAddress: scriptAddressOf("a1".repeat(28), 0),
  pointerTokenName: "e5".repeat(32),
  stateScriptHashes: new Set<string>(),
  libraryAddress: scriptAddressOf("99".repeat(28), 0),
  libraryAdmin: "d4".repeat(28),
};

describe("indexer: following the devnet through the chain client", function () {
  let h: Harness;
  let store: Store;
  const notifications: string[] = [];

  async function anIndexer(pipeline = new PluginPipeline<Transaction>()): Promise<Indexer> {
    const slotToTime = slotToTimeFrom(await h.client.eraSummaries(), (await h.client.networkStartTime()).getTime());
    return Indexer.create({
      store,
      chain: h.client,
      view,
      pipeline,
      slotToTime,
      notify: (e) => void notifications.push(e),
      retryDelayMs: 50,
    });
  }

  before(async () => {
    h = await startHarness();
    store = await createStore({ inMemory: true });
  });
  after(async () => {
    await store.close();
    await h.close();
  });

  it("records every transaction of every block, and the checkpoint", async () => {
    const indexer = await anIndexer();
    await indexer.start();
    const a = await h.payAndProduce();
    const b = await h.payAndProduce();
    const rec = await pollUntil(async () => (await indexer.log.transaction(b.txId)) ?? undefined, "both transactions indexed");
    expect(rec).to.include({ slot: b.slot, blockId: b.id, valid: true });
    expect(Number(rec.fee)).to.be.greaterThan(150_000);
    expect(await indexer.log.transaction(a.txId)).to.include({ blockId: a.id });
    expect(await indexer.log.checkpoint()).to.deep.include({ point: { slot: b.slot, id: b.id } });
    expect(notifications.filter((n) => n === "chain.block").length).to.be.at.least(2);
    await indexer.stop();
  });

  it("forgets the rolled-back blocks exactly and tells consumers where to roll back to", async () => {
    const indexer = await anIndexer();
    await indexer.start();
    const kept = await h.payAndProduce();
    const dropped = await h.payAndProduce();
    await pollUntil(async () => (await indexer.log.transaction(dropped.txId)) ?? undefined, "second block indexed");
    h.devnet.rollback(1);
    await pollUntil(
      async () => ((await indexer.log.transaction(dropped.txId)) === undefined ? true : undefined),
      "rolled-back transaction removed",
    );
    expect(await indexer.log.transaction(kept.txId)).to.include({ blockId: kept.id });
    expect(await indexer.log.checkpoint()).to.deep.include({ point: { slot: kept.slot, id: kept.id } });
    const markers = (await indexer.log.after(0, 1000)).filter((r) => r.kind === "rollback");
    expect(markers.at(-1)).to.include({ rollbackTo: kept.slot });
    expect(notifications).to.include("chain.rollback");
    // As on a real node, the rolled-back transaction went back to the mempool: the next block confirms it again.
    const again = h.devnet.produceBlock();
    expect(again?.transactions?.map((t) => t.id)).to.include(dropped.txId);
    const reconfirmed = await pollUntil(
      async () => (await indexer.log.transaction(dropped.txId)) ?? undefined,
      "re-included transaction indexed",
    );
    expect(reconfirmed.blockId).to.equal(again!.id);
    await indexer.stop();
  });

  it("resumes from its checkpoint after a restart without reprocessing or duplicating", async () => {
    const first = await anIndexer();
    await first.start();
    const before = await h.payAndProduce();
    await pollUntil(async () => (await first.log.transaction(before.txId)) ?? undefined, "block indexed");
    await first.stop();

    const counted = new PluginPipeline<Transaction>();
    let blocksSeen = 0;
    counted.register({ kind: "pre-action", name: "count-blocks", run: () => void blocksSeen++ });
    const second = await anIndexer(counted);
    await second.start();
    const after = await h.payAndProduce();
    await pollUntil(async () => (await second.log.transaction(after.txId)) ?? undefined, "new block indexed");
    expect(blocksSeen).to.equal(1);
    expect(second.status().blocksProcessed).to.equal(1);
    await second.stop();
  });

  it("starts over from the start point when the configured deployment changes, telling consumers", async () => {
    const first = await anIndexer();
    await first.start();
    const earlier = await h.payAndProduce();
    await pollUntil(async () => (await first.log.transaction(earlier.txId)) ?? undefined, "block indexed");
    await first.stop();

    const slotToTime = slotToTimeFrom(await h.client.eraSummaries(), (await h.client.networkStartTime()).getTime());
    const otherView = { ...view, libraryAdmin: "e7".repeat(28) };
    const second = await Indexer.create({
      store,
      chain: h.client,
      view: otherView,
      pipeline: new PluginPipeline<Transaction>(),
      slotToTime,
      retryDelayMs: 50,
    });
    const marker = (await second.log.after(0, 100_000)).filter((r) => r.kind === "rollback").at(-1);
    expect(marker).to.include({ rollbackTo: -1 });
    expect(await second.log.transaction(earlier.txId)).to.equal(undefined);
    await second.start();
    await pollUntil(async () => (await second.log.transaction(earlier.txId)) ?? undefined, "the earlier block indexed again from origin");
    expect(second.status().blocksProcessed).to.be.at.least(5);
    await second.stop();
  });

  it("keeps following after the chain server restarts", async () => {
    const indexer = await anIndexer();
    await indexer.start();
    await h.restartServer();
    const next = await h.payAndProduce();
    await pollUntil(async () => (await indexer.log.transaction(next.txId)) ?? undefined, "block after the server restart indexed", 30_000);
    await indexer.stop();
  });
});
