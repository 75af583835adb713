// The plugins that stage their records (the lookups) share the fact log's crash-safety and rollbacks: their
// records are written in the indexer's batch, before the checkpoint; whatever an interrupted write left after the
// checkpoint is gone after a restart; a rollback arriving while blocks are staged leaves exactly what a fresh sync
// gives; and the lookups hold the same whether the blocks arrived while catching up or one at a time at the tip.
import type { Transaction } from "@cardano-ogmios/schema";
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Indexer } from "../../shared/indexer/indexer";
import { PluginPipeline } from "../../shared/indexer/plugin-pipeline";
import type { ProtocolView } from "../../shared/indexer/protocol-decoder";
import { createLookupPlugin } from "../../shared/lookups/lookup-plugin";
import { LookupStore } from "../../shared/lookups/lookup-store";
import { scriptAddressOf } from "../../shared/protocol";
import { createStore, type Store, type StoredDocument } from "../../shared/store";
import { startHarness, type Harness } from "../chain/support/devnet-harness";
import { pollUntil } from "../../fixtures/mesh/helpers";

const LOOKUP_COLLECTIONS = ["lookup_scripts", "lookup_datums", "lookup_outputs", "lookup_redeemers"] as const;

type Doc = StoredDocument & { slot: number };

describe("indexer: plugin records staged and written with the batch", function () {
  this.timeout(120_000);
  let h: Harness;
  /** The payee's address counts as the library's, so every payment is protocol-relevant and the lookups record it. */
  let view: ProtocolView;

  beforeEach(async () => {
    h = await startHarness();
    view = {
      proxyPolicyId: "a1".repeat(28),
      proxyAddress: scriptAddressOf("a1".repeat(28), 0),
      pointerTokenName: "e5".repeat(32),
      stateScriptHashes: new Set<string>(),
      libraryAddress: h.payee.address,
      libraryAdmin: "d4".repeat(28),
    };
  });
  afterEach(() => h.close());

  /** An indexer as indexer.service.ts assembles it (with the lookups), plus the test's own pre-actions. */
  async function indexerOn(store: Store, register: (pipeline: PluginPipeline<Transaction>) => void = () => undefined) {
    const pipeline = new PluginPipeline<Transaction>();
    const indexer = await Indexer.create({ store, chain: h.client, view, pipeline, slotToTime: (s) => s * 1000, retryDelayMs: 50 });
    const lookups = await LookupStore.open(store);
    pipeline.register(
      createLookupPlugin(lookups, (tx) => indexer.isProtocolRelevant(tx)),
      { critical: true },
    );
    register(pipeline);
    return { indexer, lookups };
  }

  const tipOf = () => {
    const tip = h.devnet.tipWithHeight();
    if (tip === "origin") throw new Error("the chain is empty");
    return tip;
  };

  async function syncToTip(indexer: Indexer): Promise<void> {
    const tip = tipOf();
    await pollUntil(
      async () => ((await indexer.log.checkpoint())?.point.id === tip.id ? true : undefined),
      `the checkpoint at ${tip.height}`,
    );
  }

  /** The lookup documents, by collection, sorted by id. */
  async function lookupDocs(store: Store): Promise<Record<string, Doc[]>> {
    const out: Record<string, Doc[]> = {};
    for (const name of LOOKUP_COLLECTIONS)
      out[name] = (await store.collection<Doc>(name).find({})).sort((a, b) => String(a._id).localeCompare(String(b._id)));
    return out;
  }

  /** What a fresh indexer syncing the whole chain from origin records. */
  async function freshSync(): Promise<Record<string, Doc[]>> {
    const store = await createStore({ inMemory: true });
    const { indexer } = await indexerOn(store);
    await indexer.start();
    await syncToTip(indexer);
    await indexer.stop();
    const docs = await lookupDocs(store);
    await store.close();
    return docs;
  }

  it("after a crash mid-batch (lookups written, checkpoint not), the restart deletes every plugin record after the checkpoint", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "staged-plugins-"));
    try {
      for (let i = 0; i < 3; i++) await h.payAndProduce();
      let store = await createStore({ dataDir });
      const first = await indexerOn(store);
      await first.indexer.start();
      await syncToTip(first.indexer);
      await first.indexer.stop();
      const checkpoint = (await first.indexer.log.checkpoint())!;

      // More blocks, caught up in one batch: the process dies (its store closes) after the lookups wrote the batch,
      // before the fact log's records and the checkpoint.
      const lost: string[] = [];
      for (let i = 0; i < 3; i++) lost.push((await h.payAndProduce()).txId);
      h.devnet.produceEmptyBlocks(20);
      for (let i = 0; i < 2; i++) lost.push((await h.payAndProduce()).txId);
      let killed = false;
      const crashing = await indexerOn(store, (pipeline) =>
        pipeline.register(
          {
            kind: "pre-action",
            name: "process-killed",
            run: () => 0,
            flush: async () => {
              if (killed) throw new Error("the process is gone");
              killed = true;
              await store.close();
              throw new Error("killed mid-batch");
            },
          },
          { critical: true },
        ),
      );
      await crashing.indexer.start();
      await pollUntil(() => Promise.resolve(killed ? true : undefined), "the crash");
      await crashing.indexer.stop();

      store = await createStore({ dataDir });
      const outputs = store.collection<Doc>("lookup_outputs");
      // The leftovers are there: outputs of the lost blocks, after the checkpoint that never moved.
      const after = { slot: { $gt: checkpoint.point.slot } };
      expect(await outputs.count(after)).to.equal(lost.length * 2);
      const reopened = await indexerOn(store);
      expect((await reopened.indexer.log.checkpoint())?.point).to.deep.equal(checkpoint.point);

      // While it was down the chain lost its last blocks; their transactions land again in a new block.
      h.devnet.rollback(5);
      h.advance(1000);
      h.devnet.produceBlock();
      h.devnet.produceEmptyBlocks(3);

      // The restart's first step (what start() runs before reading the chain) leaves no plugin record after the checkpoint.
      await reopened.indexer.log.repair();
      for (const name of LOOKUP_COLLECTIONS) expect(await store.collection<Doc>(name).count(after), name).to.equal(0);
      expect(await outputs.count({})).to.equal(3 * 2);

      await reopened.indexer.start();
      await syncToTip(reopened.indexer);
      await reopened.indexer.stop();
      expect(await outputs.count({ _id: { $in: lost.map((t) => `${t}#0`) } })).to.equal(lost.length);
      expect(await lookupDocs(store)).to.deep.equal(await freshSync());
      await store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("a rollback arriving while blocks are staged leaves the lookups a fresh sync gives", async () => {
    const payments: { txId: string; slot: number }[] = [];
    for (const gap of [5, 60, 40, 40, 40, 100]) {
      h.devnet.produceEmptyBlocks(gap);
      payments.push(await h.payAndProduce());
    }
    const store = await createStore({ inMemory: true });
    let releaseGate: () => void = () => undefined;
    const gate = new Promise<void>((r) => (releaseGate = r));
    let gated = false;
    const { indexer } = await indexerOn(store, (pipeline) =>
      pipeline.register({
        kind: "pre-action",
        name: "slow-block",
        run: async (block) => {
          if (block.height !== 100) return;
          gated = true;
          await gate;
        },
      }),
    );
    await indexer.start();
    await pollUntil(() => Promise.resolve(gated ? true : undefined), "block 100 held");
    // Nothing written yet: blocks 1–99 are staged (the chain's tip is far ahead).
    expect(await indexer.log.checkpoint()).to.equal(undefined);
    expect(indexer.log.stagedCounts().blocks).to.equal(99);
    expect(await store.collection("lookup_outputs").count({})).to.equal(0);

    // The chain drops everything after height 150, while the client already holds blocks past it in flight.
    h.devnet.rollback(tipOf().height - 150);
    const cut = tipOf();
    h.advance(1000);
    const reinclusion = h.devnet.produceBlock()!;
    h.devnet.produceEmptyBlocks(2);
    releaseGate();
    await syncToTip(indexer);
    await indexer.stop();

    const docs = await lookupDocs(store);
    expect(docs).to.deep.equal(await freshSync());
    // The payments after height 150 were re-included in the new block: recorded at their new slot only.
    const reincluded = payments.filter((p) => p.slot > cut.slot);
    expect(reincluded.length).to.be.greaterThan(0);
    for (const p of reincluded) {
      const recorded = docs["lookup_outputs"]!.filter((d) => String(d._id).startsWith(p.txId));
      expect(recorded.length).to.equal(2);
      for (const d of recorded) expect(d.slot).to.equal(reinclusion.slot);
    }
  });

  it("the lookups hold the same documents whether the blocks arrived while catching up or one at a time at the tip", async () => {
    h.devnet.produceEmptyBlocks(3);
    const atTipStore = await createStore({ inMemory: true });
    const atTip = await indexerOn(atTipStore);
    await atTip.indexer.start();
    await syncToTip(atTip.indexer);
    const txIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const p = await h.payAndProduce();
      txIds.push(p.txId);
      if (i % 2 === 0) h.devnet.produceEmptyBlocks(2);
      await syncToTip(atTip.indexer);
    }
    await atTip.indexer.stop();

    const caughtUp = await freshSync();
    const followed = await lookupDocs(atTipStore);
    expect(followed["lookup_outputs"]!.length).to.equal(txIds.length * 2);
    expect(followed).to.deep.equal(caughtUp);
    await atTipStore.close();
  });
});
