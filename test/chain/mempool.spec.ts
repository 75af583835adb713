import { expect } from "chai";
import type { Transaction } from "../../shared/chain";
import { ChainError } from "../../shared/chain";
import { startHarness, type Harness } from "./support/devnet-harness";
import { EventLog } from "./support/event-log";

describe("chain client against the devnet: mempool monitoring", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it("acquires a snapshot with the submitted tx (full JSON), answers hasTransaction and size, then empties after a block", async () => {
    const txId = await h.pay(4_000_000n);
    const m = await h.client.mempool();
    try {
      const snap = await m.snapshot();
      expect(snap.slot).to.be.a("number");
      expect(snap.transactions.map((t) => t.id)).to.deep.equal([txId]);
      const tx = snap.transactions[0]!;
      expect(tx.outputs.some((o) => o.address === h.payee.address && o.value.ada.lovelace === 4_000_000n)).to.equal(true);
      expect((tx.fee?.ada.lovelace ?? 0n) > 0n).to.equal(true);
      expect(await m.hasTransaction(txId)).to.equal(true);
      expect(await m.hasTransaction("00".repeat(32))).to.equal(false);
      expect((await m.size()).transactions.count).to.equal(1);
      await m.release();

      h.devnet.produceBlock();
      const after = await m.snapshot();
      expect(after.transactions).to.deep.equal([]);
      expect((await m.size()).transactions.count).to.equal(0);
    } finally {
      await m.close();
    }
  });

  it("reads ids one by one with nextTransactionId until null", async () => {
    const txId = await h.pay();
    const m = await h.client.mempool();
    try {
      await m.acquire();
      expect(await m.nextTransactionId()).to.equal(txId);
      expect(await m.nextTransactionId()).to.equal(null);
    } finally {
      await m.close();
    }
  });

  it("maps nextTransaction without an acquired snapshot to MEMPOOL_NOT_ACQUIRED (4000)", async () => {
    const m = await h.client.mempool();
    try {
      let caught: unknown;
      try {
        await m.nextTransactionId();
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(ChainError);
      expect((caught as ChainError).type).to.equal("MEMPOOL_NOT_ACQUIRED");
      expect((caught as ChainError).code).to.equal(4000);
    } finally {
      await m.close();
    }
  });

  it("watchMempool reports each new transaction exactly once", async () => {
    const seen = new EventLog<string>();
    const watch = await h.client.watchMempool({ onTransaction: (tx: Transaction) => seen.push(tx.id) }, { pollIntervalMs: 10 });
    try {
      const first = await h.pay(2_000_000n);
      await seen.waitFor((xs) => xs.includes(first), "the first tx");
      h.devnet.produceBlock();
      const second = await h.pay(3_000_000n);
      await seen.waitFor((xs) => xs.includes(second), "the second tx");
      expect(seen.items).to.deep.equal([first, second]);
    } finally {
      await watch.close();
    }
  });
});
