import { expect } from "chai";
import { FactLog, type BlockFacts } from "../../../shared/indexer/fact-log";
import type { ProtocolFact } from "../../../shared/indexer/protocol-decoder";
import { createStore, type Store, type StoredDocument } from "../../../shared/store";

const pointer = (slot: number): ProtocolFact => ({
  type: "pointer.set",
  scriptPointer: "ab".repeat(28),
  owner: "cd".repeat(28),
  outRef: { txHash: slot.toString(16).padStart(64, "0"), index: 0 },
});

function block(slot: number, txId: string): BlockFacts {
  return {
    point: { slot, id: slot.toString(16).padStart(64, "0") },
    height: slot,
    time: slot * 1000,
    transactions: [{ id: txId, fee: 170_000n, valid: true }],
    facts: [{ txId, fact: pointer(slot) }],
  };
}

describe("fact log: staged blocks written in batches", () => {
  let store: Store;
  beforeEach(async () => {
    store = await createStore({ inMemory: true });
  });
  afterEach(() => store.close());

  it("writes staged blocks only on flush, transactions and facts before the checkpoint", async () => {
    const log = await FactLog.open(store);
    log.stageTransactions(block(1, "01".repeat(32)));
    log.stageBlock(block(1, "01".repeat(32)));
    log.stageTransactions(block(2, "02".repeat(32)));
    const records = log.stageBlock(block(2, "02".repeat(32)));
    expect(records.map((r) => r.seq)).to.deep.equal([2]);
    expect(log.stagedCounts()).to.deep.equal({ blocks: 2, facts: 2, transactions: 2 });
    expect(await log.checkpoint()).to.equal(undefined);
    expect(await log.transaction("01".repeat(32))).to.equal(undefined);
    await log.flush();
    expect(log.stagedCounts()).to.deep.equal({ blocks: 0, facts: 0, transactions: 0 });
    expect(await log.checkpoint()).to.deep.equal({ point: { slot: 2, id: block(2, "").point.id }, height: 2 });
    expect((await log.after(0, 10)).map((r) => r.seq)).to.deep.equal([1, 2]);
    expect(await log.transaction("02".repeat(32))).to.include({ slot: 2 });
  });

  it("stores no block point deeper than the rollback horizon below the tip, except the newest (the checkpoint)", async () => {
    const log = await FactLog.open(store, { keepBlocks: 10 });
    for (let h = 1; h <= 30; h++) log.stageBlock({ ...block(h, h.toString(16).padStart(64, "0")), facts: [] }, { tipHeight: 35 });
    expect(log.stagedCounts().blocks).to.equal(30);
    await log.flush();
    const points = await store.collection<StoredDocument & { height: number }>("indexer_blocks").find({}, { sort: { height: 1 } });
    expect(points.map((p) => p.height)).to.deep.equal([26, 27, 28, 29, 30]);
    expect(await log.recentPoints(1)).to.deep.equal([block(30, "").point]);
    expect(await log.checkpoint()).to.deep.include({ height: 30 });
  });

  it("clears what an interrupted write left after the checkpoint, and never reuses a sequence number", async () => {
    const first = await FactLog.open(store);
    first.stageTransactions(block(1, "01".repeat(32)));
    await first.appendBlock(block(1, "01".repeat(32)));
    // A crash after the transactions and facts of block 2 were written, before its checkpoint.
    await store
      .collection<StoredDocument & Record<string, unknown>>("indexer_transactions")
      .insertOne({ _id: "02".repeat(32), slot: 2, blockId: block(2, "").point.id });
    await store
      .collection<StoredDocument & Record<string, unknown>>("indexer_facts")
      .insertOne({ _id: `${"02".repeat(32)}:0`, seq: 2, slot: 2, blockId: block(2, "").point.id, kind: "fact", fact: pointer(2) });

    const reopened = await FactLog.open(store);
    reopened.stageTransactions(block(2, "02".repeat(32)));
    const records = reopened.stageBlock(block(2, "02".repeat(32)));
    await reopened.flush();
    expect(records.map((r) => r.seq)).to.deep.equal([3]);
    expect((await reopened.after(0, 10)).map((r) => [r.seq, r.slot])).to.deep.equal([
      [1, 1],
      [3, 2],
    ]);
    expect(await store.collection("indexer_transactions").count({ _id: "02".repeat(32) })).to.equal(1);
    expect(await reopened.checkpoint()).to.deep.include({ height: 2 });
  });

  it("after a failed write drops the staged blocks, and the next flush clears leftovers first", async () => {
    const log = await FactLog.open(store);
    await log.appendBlock(block(1, "01".repeat(32)));
    // The same transaction id twice in one batch: the insert fails as a whole.
    log.stageTransactions(block(2, "02".repeat(32)));
    log.stageBlock(block(2, "02".repeat(32)));
    log.stageTransactions(block(3, "02".repeat(32)));
    log.stageBlock(block(3, "03".repeat(32)));
    let failed = false;
    await log.flush().catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(log.stagedCounts()).to.deep.equal({ blocks: 0, facts: 0, transactions: 0 });
    expect(await log.checkpoint()).to.deep.include({ height: 1 });
    await log.appendBlock(block(2, "02".repeat(32)));
    expect(await log.checkpoint()).to.deep.include({ height: 2 });
    expect((await log.after(0, 10)).map((r) => r.slot)).to.deep.equal([1, 2]);
  });
});
