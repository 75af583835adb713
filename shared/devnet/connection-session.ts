// Per-connection protocol state: the chain-sync cursor (with parked nextBlock requests) and the acquired mempool
// snapshot (with a parked re-acquire). Ogmios semantics:
// - nextBlock answers in order; the first answer after connecting or after findIntersection is a RollBackward to the
//   intersection; requests at the tip are parked until a block (or rollback) arrives.
// - acquireMempool returns at once the first time; while a snapshot is held, a new acquire waits until the mempool
//   differs from that snapshot.
import type { Devnet, DevnetPoint } from "./devnet";
import type { DecodedTransaction } from "./decoded-transaction";
import { bigintJson } from "./bigint-json";
import { projectTransaction } from "./ogmios-projection";
import { DevnetError } from "./errors";
import { MEMPOOL_CAPACITY_BYTES } from "./mempool";

type Reply = (result: unknown) => void;
/** Replies with a result that is already JSON text. */
type ReplyText = (resultText: string) => void;
type Fail = (error: DevnetError) => void;

interface MempoolSnapshot {
  slot: number;
  txs: readonly DecodedTransaction[];
  next: number;
}

export class ConnectionSession {
  private cursor = 0;
  private pendingBackward: DevnetPoint | undefined = "origin";
  private readonly parkedNextBlocks: { reply: Reply; replyText: ReplyText }[] = [];
  private snapshot: MempoolSnapshot | undefined;
  private parkedAcquire: { reply: Reply; previous: readonly DecodedTransaction[] } | undefined;
  /** Mempool requests are answered strictly in order, behind a parked acquire. */
  private mempoolQueue: Promise<void> = Promise.resolve();

  constructor(private readonly devnet: Devnet) {}

  // ---- chain sync ------------------------------------------------------------------------------------------

  /**
   * @throws DevnetError 1000 when none of the points is on the chain.
   */
  findIntersection(points: DevnetPoint[]): { intersection: DevnetPoint; tip: unknown } {
    for (const point of points) {
      const height = this.devnet.heightOf(point);
      if (height !== undefined) {
        this.cursor = height;
        this.pendingBackward = point;
        return { intersection: point, tip: this.devnet.tipWithHeight() };
      }
    }
    throw new DevnetError(1000, "No intersection found.", { tip: this.devnet.tipWithHeight() });
  }

  /** Answers a RollForward with the block's JSON text as the devnet holds it (cached, not serialized again). */
  nextBlock(reply: Reply, replyText: ReplyText): void {
    this.parkedNextBlocks.push({ reply, replyText });
    this.serveNextBlocks();
  }

  /** Called when the chain changed (new block or rollback). */
  onChainChanged(): void {
    if (this.cursor > this.devnet.height) {
      this.cursor = this.devnet.height;
      this.pendingBackward = this.devnet.tip();
    }
    this.serveNextBlocks();
  }

  private serveNextBlocks(): void {
    while (this.parkedNextBlocks.length > 0) {
      if (this.pendingBackward !== undefined) {
        const point = this.pendingBackward;
        this.pendingBackward = undefined;
        this.parkedNextBlocks.shift()!.reply({ direction: "backward", point, tip: this.devnet.tipWithHeight() });
        continue;
      }
      const block = this.devnet.blockTextAt(this.cursor + 1);
      if (block === undefined) return;
      this.cursor += 1;
      const tip = bigintJson.stringify(this.devnet.tipWithHeight());
      this.parkedNextBlocks.shift()!.replyText(`{"direction":"forward","block":${block},"tip":${tip}}`);
    }
  }

  // ---- mempool monitoring ------------------------------------------------------------------------------------

  /** Runs a mempool request after the ones before it (an acquire may be parked). */
  enqueueMempool(task: () => Promise<void> | void): void {
    this.mempoolQueue = this.mempoolQueue.then(task, task);
  }

  acquireMempool(reply: Reply): Promise<void> {
    return new Promise((done) => {
      const grant = () => {
        this.snapshot = { slot: this.devnet.currentSlot(), txs: [...this.devnet.mempoolTransactions()], next: 0 };
        reply({ acquired: "mempool", slot: this.snapshot.slot });
        done();
      };
      const previous = this.snapshot?.txs;
      if (!previous || !sameTransactions(previous, this.devnet.mempoolTransactions())) return grant();
      this.parkedAcquire = {
        previous,
        reply: () => {
          this.parkedAcquire = undefined;
          grant();
        },
      };
    });
  }

  /** Called when the mempool changed: releases a parked acquire if the content now differs. */
  onMempoolChanged(): void {
    const parked = this.parkedAcquire;
    if (parked && !sameTransactions(parked.previous, this.devnet.mempoolTransactions())) parked.reply(undefined);
  }

  nextTransaction(fields: unknown, reply: Reply, fail: Fail): void {
    const snapshot = this.requireSnapshot("nextTransaction", fail);
    if (!snapshot) return;
    const tx = snapshot.txs[snapshot.next];
    if (!tx) return reply({ transaction: null });
    snapshot.next += 1;
    reply({ transaction: fields === "all" ? projectTransaction(tx.fixed, tx.id, true) : { id: tx.id } });
  }

  hasTransaction(id: string, reply: Reply, fail: Fail): void {
    const snapshot = this.requireSnapshot("hasTransaction", fail);
    if (snapshot) reply(snapshot.txs.some((tx) => tx.id === id));
  }

  sizeOfMempool(reply: Reply, fail: Fail): void {
    const snapshot = this.requireSnapshot("sizeOfMempool", fail);
    if (!snapshot) return;
    reply({
      maxCapacity: { bytes: MEMPOOL_CAPACITY_BYTES },
      currentSize: { bytes: snapshot.txs.reduce((n, tx) => n + tx.bytes.length, 0) },
      transactions: { count: snapshot.txs.length },
    });
  }

  releaseMempool(reply: Reply, fail: Fail): void {
    if (!this.requireSnapshot("releaseMempool", fail)) return;
    this.snapshot = undefined;
    reply({ released: "mempool" });
  }

  private requireSnapshot(_method: string, fail: Fail): MempoolSnapshot | undefined {
    if (!this.snapshot) fail(new DevnetError(4000, "You must acquire a mempool snapshot before querying it (acquireMempool)."));
    return this.snapshot;
  }

  /** Drops parked requests (the connection closed). */
  close(): void {
    this.parkedNextBlocks.length = 0;
    this.parkedAcquire = undefined;
  }
}

function sameTransactions(a: readonly DecodedTransaction[], b: readonly DecodedTransaction[]): boolean {
  return a.length === b.length && a.every((tx, i) => tx.id === b[i]?.id);
}
