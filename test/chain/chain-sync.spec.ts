import { expect } from "chai";
import { ChainError, type Block, type ChainSyncSubscription, type Origin, type Point } from "../../shared/chain";
import { startHarness, type Harness } from "./support/devnet-harness";
import { EventLog } from "./support/event-log";

type SyncEvent = { kind: "fwd"; id: string; slot: number; height: number; txs: string[] } | { kind: "back"; point: Point | Origin };

/** cursor moves reported by the subscription (after each handler completed) */
function cursorLog(): { log: EventLog<Point | Origin>; onCursor(p: Point | Origin): void } {
  const log = new EventLog<Point | Origin>();
  return { log, onCursor: (p) => log.push(p) };
}
const isPoint = (p: Point | Origin | undefined, q: { slot: number; id: string }) =>
  p !== undefined && p !== "origin" && p.id === q.id && p.slot === q.slot;

function follow(log: EventLog<SyncEvent>) {
  return {
    rollForward(block: Block) {
      const b = block as Block & { slot: number; height: number; transactions?: Array<{ id: string }> };
      log.push({ kind: "fwd", id: b.id, slot: b.slot, height: b.height, txs: (b.transactions ?? []).map((t) => t.id) });
    },
    rollBackward(point: Point | Origin) {
      log.push({ kind: "back", point });
    },
  };
}

const forwards = (items: readonly SyncEvent[]) => items.filter((e): e is Extract<SyncEvent, { kind: "fwd" }> => e.kind === "fwd");
const backs = (items: readonly SyncEvent[]) => items.filter((e): e is Extract<SyncEvent, { kind: "back" }> => e.kind === "back");

describe("chain client against the devnet: chain-sync", () => {
  let h: Harness;
  let sub: ChainSyncSubscription | undefined;
  beforeEach(async () => {
    h = await startHarness();
    sub = undefined;
  });
  afterEach(async () => {
    await sub?.close();
    await h.close();
  });

  it("delivers RollBackward(origin), then each block with its transactions, then a rollback and the replacement block", async () => {
    const log = new EventLog<SyncEvent>();
    const cursors = cursorLog();
    sub = await h.client.chainSync(["origin"], follow(log), { onCursor: cursors.onCursor });
    expect(sub.intersection).to.equal("origin");
    const b1 = await h.payAndProduce();
    const b2 = await h.payAndProduce();
    const b3 = await h.payAndProduce();
    await log.waitFor((xs) => forwards(xs).length === 3, "three blocks");
    expect(log.items[0]).to.deep.equal({ kind: "back", point: "origin" });
    expect(forwards(log.items).map((f) => [f.height, f.id, f.txs])).to.deep.equal([
      [1, b1.id, [b1.txId]],
      [2, b2.id, [b2.txId]],
      [3, b3.id, [b3.txId]],
    ]);

    h.devnet.rollback(1);
    await log.waitFor((xs) => backs(xs).length === 2, "the rollback");
    expect(backs(log.items)[1]!.point).to.deep.equal({ slot: b2.slot, id: b2.id });
    await cursors.log.waitFor((xs) => isPoint(xs.at(-1), b2), "the cursor back at block 2");
    expect(sub.cursor()).to.deep.equal({ slot: b2.slot, id: b2.id });

    // the rolled-back tx went back to the mempool; a later block re-includes it under a new block id
    h.advance(5_000);
    const b3bis = h.devnet.produceBlock()!;
    await log.waitFor((xs) => forwards(xs).length === 4, "the replacement block");
    const last = forwards(log.items)[3]!;
    expect([last.height, last.id, last.txs]).to.deep.equal([3, b3bis.id, [b3.txId]]);
    expect(b3bis.id).to.not.equal(b3.id);
    expect(sub.state()).to.equal("running");
  });

  it("starts from a given point: the first event is the rollback to it, then only later blocks", async () => {
    await h.payAndProduce();
    const b2 = await h.payAndProduce();
    const b3 = await h.payAndProduce();
    const log = new EventLog<SyncEvent>();
    sub = await h.client.chainSync([{ slot: b2.slot, id: b2.id }], follow(log));
    expect(sub.intersection).to.deep.equal({ slot: b2.slot, id: b2.id });
    await log.waitFor((xs) => forwards(xs).length === 1, "block 3");
    expect(log.items).to.deep.equal([
      { kind: "back", point: { slot: b2.slot, id: b2.id } },
      { kind: "fwd", id: b3.id, slot: b3.slot, height: 3, txs: [b3.txId] },
    ]);
  });

  it("resumes from the last processed point after the server restarts: no duplicate, no gap, no spurious rollback", async () => {
    const log = new EventLog<SyncEvent>();
    const cursors = cursorLog();
    sub = await h.client.chainSync(["origin"], follow(log), { onCursor: cursors.onCursor });
    await h.payAndProduce();
    const b2 = await h.payAndProduce();
    await log.waitFor((xs) => forwards(xs).length === 2, "two blocks");

    await h.stopServer();
    const b3 = await h.payDirectAndProduce(); // produced while nobody can see it
    const b4 = await h.payDirectAndProduce();
    await h.startServer();

    await log.waitFor((xs) => forwards(xs).length === 4, "the blocks produced during the outage");
    expect(forwards(log.items).map((f) => f.height)).to.deep.equal([1, 2, 3, 4]);
    expect(
      forwards(log.items)
        .slice(2)
        .map((f) => f.id),
    ).to.deep.equal([b3.id, b4.id]);
    expect(backs(log.items)).to.deep.equal([{ kind: "back", point: "origin" }]); // the resume rollback to b2 was a no-op
    expect(sub.reconnects()).to.equal(1);
    await cursors.log.waitFor((xs) => isPoint(xs.at(-1), b4), "the cursor at block 4");
    expect(sub.cursor()).to.deep.equal({ slot: b4.slot, id: b4.id });
    void b2;

    // the request connection reconnects too
    expect(await h.client.blockHeight()).to.equal(4);
  });

  it("reports a rollback that happened while disconnected", async () => {
    const log = new EventLog<SyncEvent>();
    sub = await h.client.chainSync(["origin"], follow(log));
    const b1 = await h.payAndProduce();
    const b2 = await h.payAndProduce();
    await log.waitFor((xs) => forwards(xs).length === 2, "two blocks");

    await h.stopServer();
    h.devnet.rollback(1);
    h.advance(5_000); // a later slot, so the replacement block differs from the lost one
    const b2bis = h.devnet.produceBlock()!;
    await h.startServer();

    await log.waitFor((xs) => forwards(xs).length === 3, "the replacement block");
    expect(backs(log.items).map((b) => b.point)).to.deep.equal(["origin", { slot: b1.slot, id: b1.id }]);
    expect(forwards(log.items)[2]!.id).to.equal(b2bis.id);
    expect(b2bis.id).to.not.equal(b2.id);
  });

  it("fails the subscription (done rejects, state failed) when a handler throws, without delivering more", async () => {
    const log = new EventLog<SyncEvent>();
    sub = await h.client.chainSync(["origin"], {
      rollBackward: () => undefined,
      rollForward: (block) => {
        log.push({ kind: "fwd", id: block.id, slot: 0, height: 0, txs: [] });
        throw new Error("indexer storage is full");
      },
    });
    await h.payAndProduce();
    let caught: unknown;
    try {
      await sub.done;
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(ChainError);
    expect((caught as ChainError).type).to.equal("CHAIN_ERROR");
    expect((caught as ChainError).message).to.include("indexer storage is full");
    expect(sub.state()).to.equal("failed");
    expect(sub.cursor()).to.equal("origin"); // the failed block was not counted as processed
    expect(log.items).to.have.length(1);
  });

  it("rejects a start point that is not on the chain with INTERSECTION_NOT_FOUND (1000)", async () => {
    let caught: unknown;
    try {
      sub = await h.client.chainSync([{ slot: 5, id: "00".repeat(32) }], { rollForward: () => undefined, rollBackward: () => undefined });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(ChainError);
    expect((caught as ChainError).type).to.equal("INTERSECTION_NOT_FOUND");
    expect((caught as ChainError).code).to.equal(1000);
  });
});
