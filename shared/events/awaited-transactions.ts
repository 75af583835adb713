/**
 * Transactions the service submitted that carry no protocol fact (a payment, a collateral split): the fact log never
 * names them, so the chain producer learns of them from the `transaction.submitted` events of the log, waits for
 * them (`events_awaited`, at most AWAIT_MS) and confirms them once the indexer has them in a block, at the depth they
 * have then (docs/events.md#the-chain). A rollback that undoes one makes it awaited again.
 */
import type { Collection, Store, StoredDocument } from "../store";
import { depthAt, transactionConfirmed, type ChainBlock } from "./chain-events";
import type { EventLog } from "./event-log";
import { subject, type BlockRef, type NewEvent, type PublicEvent } from "./event-types";
import { confirmationOf, type TrackedConfirmations, type TrackedDoc } from "./tracked-confirmations";
import type { TransactionRecord } from "../records/protocol-records";

/** A submitted transaction not seen on chain after this long is no longer awaited (its validity has ended). */
const AWAIT_MS = 2 * 3600_000;
/** Awaited transactions looked up per run. */
const AWAITED_PER_RUN = 200;
/** `transaction.submitted` events read per page. */
const SUBMITTED_PER_READ = 500;

interface AwaitedDoc extends StoredDocument {
  since: number;
}

/** Where the producer stands, as the awaited transactions need it. */
export interface AwaitingState {
  /** the event log's id through which `transaction.submitted` events were awaited */
  submittedAfter: string;
  factSeq: number;
  epoch: number;
  tip: ChainBlock | null;
}

export interface AwaitingPorts {
  log: Pick<EventLog, "after">;
  confirmations: TrackedConfirmations;
  /** a transaction the indexer recorded, or null */
  transaction(id: string): Promise<TransactionRecord | null>;
  finalityDepth: number;
  now: () => number;
}

export class AwaitedTransactions {
  private constructor(
    private readonly awaited: Collection<AwaitedDoc>,
    private readonly ports: AwaitingPorts,
  ) {}

  static async open(store: Store, ports: AwaitingPorts): Promise<AwaitedTransactions> {
    const awaited = store.collection<AwaitedDoc>("events_awaited");
    await awaited.ensureIndexes([{ fields: { since: 1 } }]);
    return new AwaitedTransactions(awaited, ports);
  }

  /**
   * The `transaction.submitted` events appended since the last run: their transactions are awaited.
   * @param save saves `state` (its `submittedAfter` moved)
   * @returns whether there were any
   */
  async awaitSubmitted(state: AwaitingState, save: () => Promise<void>): Promise<boolean> {
    let any = false;
    for (;;) {
      const page = await this.ports.log.after(state.submittedAfter, { types: ["transaction.submitted"], limit: SUBMITTED_PER_READ });
      for (const e of page.events) {
        const tx = (e as PublicEvent<"transaction.submitted">).data.transactionHash;
        await this.awaited.updateOne({ _id: tx }, { $set: { since: Date.parse(e.timestamp) } }, { upsert: true });
        any = true;
      }
      if (page.next === state.submittedAfter) return any;
      state.submittedAfter = page.next;
      await save();
    }
  }

  /** Transactions a rollback took out of the chain: awaited again, from now. */
  async awaitAgain(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.awaited.updateOne({ _id: id }, { $set: { since: this.ports.now() } }, { upsert: true });
  }

  /** Transactions confirmed from the fact log: no longer awaited. */
  async forget(ids: readonly string[]): Promise<void> {
    await this.awaited.deleteMany({ _id: { $in: [...ids] } });
  }

  /**
   * Awaited transactions the indexer has in a block up to the last one derived: confirmed at their depth then (those
   * carrying facts were confirmed from the log already). Those awaited too long are dropped.
   * @param append appends events to the log: each as stored, in order
   */
  async confirmAwaited(state: AwaitingState, append: (events: NewEvent[]) => Promise<PublicEvent[]>): Promise<void> {
    const { confirmations, finalityDepth } = this.ports;
    await this.awaited.deleteMany({ since: { $lt: this.ports.now() - AWAIT_MS } });
    const tip = state.tip;
    if (!tip) return;
    const waiting = await this.awaited.find({}, { sort: { since: 1 }, limit: AWAITED_PER_RUN });
    for (const { _id: tx } of waiting) {
      const record = await this.ports.transaction(tx);
      if (!record || record.height > tip.height) continue;
      if (!(await confirmations.has(tx))) {
        const includedIn: BlockRef = { slot: record.slot, id: record.blockId, height: record.height };
        const depth = depthAt(record.height, tip.height, finalityDepth);
        const doc: TrackedDoc = {
          _id: tx,
          includedIn,
          seq: state.factSeq,
          epoch: state.epoch,
          depth,
          final: depth >= finalityDepth,
          subjects: [subject("transaction", tx)],
          certificates: [],
          order: 0,
          submittedOnly: true,
        };
        const at = depth === 1 ? { ...includedIn, time: record.time } : tip;
        const [confirmed] = await append([transactionConfirmed(confirmationOf(doc), depth, at, finalityDepth)]);
        doc.order = Number(confirmed!.id);
        await confirmations.save(doc);
      }
      await this.awaited.deleteOne({ _id: tx });
    }
  }
}
