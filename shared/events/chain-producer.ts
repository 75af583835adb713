/**
 * Derives the chain's events (chain-events.ts) from the indexer's fact log, into the event log, in chain order and
 * rollback-aware (docs/events.md#the-chain). A fact-log consumer with its own cursor, like the projections, plus what
 * the log alone does not say:
 * - the blocks between facts: the tip the indexer reports (its `chain.block` notifications, its status) deepens the
 *   confirmations it follows, one `transaction.confirmed` per block it sees, up to the finality depth;
 * - transactions the service submitted that carry no protocol fact: the `transaction.submitted` events of the log are
 *   awaited, and confirmed when the indexer has them;
 * - what a rollback undoes: every confirmation is kept (`events_tracked`) until it is deeper than any rollback, so a
 *   rollback marker announces the rollback of each transaction its blocks held, newest first.
 *
 * Crash-safe: every event has a deterministic key (chain-events.ts) and the log keeps the first of a key, so a
 * producer that died mid-way derives the same events again from its saved cursor. One producer runs at a time, under a
 * store lease (several replicas of the events service share one store).
 */
import { randomBytes } from "node:crypto";
import { enterpriseAddressOfKeyHash } from "../csl/address";
import { BoundedMemo } from "../csl/memo";
import { CoalescedRun } from "../domain/coalesced-run";
import type { FactRecord } from "../indexer/fact-log";
import type { TransactionRecord } from "../records/protocol-records";
import { createLeaseTable, type Collection, type LeaseTable, type Store, type StoredDocument, type Value } from "../store";
import {
  anchoredCheckpoint,
  certificateAnchored,
  depthAt,
  receiptAnchored,
  rolledBack,
  stateInvalidated,
  transactionConfirmed,
  type ChainBlock,
  type Confirmation,
} from "./chain-events";
import type { EventLog } from "./event-log";
import { subject, type BlockRef, type NewEvent, type PublicEvent } from "./event-types";

/** A block the indexer has written, with the fact sequence that holds every fact through it. */
export interface TipPoint extends ChainBlock {
  lastSeq: number;
}

export interface ChainEventPorts {
  /** the fact log after a cursor (`indexer.factsAfter`) */
  factsAfter(cursor: number, limit: number): Promise<FactRecord[]>;
  /** the newest block the indexer has written (`indexer.status`); undefined when it has written none yet */
  writtenTip(): Promise<TipPoint | undefined>;
  /** a transaction the indexer recorded, or null (`indexer.transaction`) */
  transaction(id: string): Promise<TransactionRecord | null>;
}

export interface ChainEventSettings {
  /** EVENTS_FINALITY_DEPTH: the depth of the last `transaction.confirmed` (`final: true`) */
  finalityDepth: number;
  /** for the issuers' addresses */
  networkId: number;
  now: () => number;
  /** told the latest id once events were appended */
  onAppended?: (lastId: string) => void;
}

/** Facts read per call, and at most (the indexer's `factsAfter` limit) when one block holds more. */
const FACTS_PER_READ = 500;
const MOST_FACTS_PER_READ = 5_000;
/** Confirmations are kept this many blocks deep: Cardano never rolls back further (k). */
const ROLLBACK_HORIZON = 2160;
/** A submitted transaction not seen on chain after this long is no longer awaited (its validity has ended). */
const AWAIT_MS = 2 * 3600_000;
/** Awaited transactions looked up per run. */
const AWAITED_PER_RUN = 200;
/** Receipts read per page when a checkpoint is anchored. */
const RECEIPTS_PER_PAGE = 1000;
/** Announced blocks remembered for the next run. */
const MOST_NOTIFIED = ROLLBACK_HORIZON;
const LEASE_KEY = "events-producer";
const LEASE_TTL_MS = 30_000;

interface ProducerState extends StoredDocument {
  /** the fact log's sequence: every fact and marker through it is derived */
  factSeq: number;
  /** the sequence of the last rollback marker derived (0: none) */
  epoch: number;
  /** the newest block derived (from facts, or a tip), null before any or after a rollback to origin */
  tip: ChainBlock | null;
  /** the event log's id through which `transaction.submitted` events were awaited */
  submittedAfter: string;
  /** receipts of checkpoints up to this size were anchored by confirmations no longer kept */
  settledLogSize: number;
}

interface TrackedDoc extends StoredDocument, Omit<Confirmation, "transactionHash"> {
  /**
   * The fact sequence it was derived at (its first fact's): a rollback marker undoes only what was derived before it,
   * so deriving the log again from an older cursor never rolls back what came after the marker.
   */
  seq: number;
  final: boolean;
  /** the id of its first confirmation in the log: rollbacks go newest first */
  order: number;
  /** carries no protocol fact: it was awaited as submitted, and is awaited again after a rollback */
  submittedOnly: boolean;
  /** the log indexes of the receipts it anchored, [from, to) */
  receipts?: { from: number; to: number };
}

interface AwaitedDoc extends StoredDocument {
  since: number;
}

const confirmationOf = (t: TrackedDoc): Confirmation => ({
  transactionHash: t._id,
  includedIn: t.includedIn,
  epoch: t.epoch,
  depth: t.depth,
  subjects: t.subjects,
  certificates: t.certificates,
});

const blockOf = (r: FactRecord): ChainBlock => ({ slot: r.slot, id: r.blockId, height: r.height, time: r.time });

export class ChainEventProducer {
  /** blocks the indexer announced, in the order it did, not derived yet */
  private notified: TipPoint[] = [];
  private readonly holder = randomBytes(8).toString("hex");
  private readonly addresses: BoundedMemo<string | null>;

  private constructor(
    private readonly log: EventLog,
    private readonly states: Collection<ProducerState>,
    private readonly tracked: Collection<TrackedDoc>,
    private readonly awaited: Collection<AwaitedDoc>,
    private readonly lease: LeaseTable,
    private readonly ports: ChainEventPorts,
    private readonly settings: ChainEventSettings,
  ) {
    // a key hash the chain carried that is none (a malformed datum) has no address: its events go without one
    this.addresses = new BoundedMemo(10_000, (keyHash) => {
      try {
        return enterpriseAddressOfKeyHash(keyHash, settings.networkId);
      } catch {
        return null;
      }
    });
  }

  static async open(store: Store, log: EventLog, ports: ChainEventPorts, settings: ChainEventSettings): Promise<ChainEventProducer> {
    const tracked = store.collection<TrackedDoc>("events_tracked");
    await tracked.ensureIndexes([
      { fields: { final: 1 } },
      { fields: { "includedIn.slot": 1 } },
      { fields: { "includedIn.height": 1 } },
      { fields: { seq: 1 } },
      { fields: { "receipts.to": 1 }, sparse: true },
    ]);
    const awaited = store.collection<AwaitedDoc>("events_awaited");
    await awaited.ensureIndexes([{ fields: { since: 1 } }]);
    const lease = await createLeaseTable(store.collection("events_lease"), settings.now);
    return new ChainEventProducer(log, store.collection("events_producer"), tracked, awaited, lease, ports, settings);
  }

  /** A block the indexer announced (`chain.block`): the next run deepens confirmations at it. */
  noteTip(tip: TipPoint): void {
    this.notified.push(tip);
    // a long silence of the producer: the oldest go (the confirmations then skip depths, up to the newest)
    if (this.notified.length > MOST_NOTIFIED) this.notified.shift();
  }

  /**
   * Derives everything new, unless another replica holds the producer's lease. Concurrent calls share one run.
   * @returns false when another replica produces
   */
  advance(): Promise<boolean> {
    return this.runs.start();
  }

  /** Lets another replica take over at once (on stop). */
  async release(): Promise<void> {
    await this.lease.release(this.holder).catch(() => undefined);
  }

  /**
   * Runs `work` if this replica holds the producer's lease, taking it when it is free: what one replica at a time
   * does to the log (deriving the chain's events, deleting the expired ones).
   * @returns false when another replica holds it
   */
  async whileLeased<T>(work: () => Promise<T>): Promise<T | false> {
    const renewed = await this.lease.renew([LEASE_KEY], this.holder, LEASE_TTL_MS);
    if (renewed === 0 && !(await this.lease.acquire([LEASE_KEY], this.holder, LEASE_TTL_MS)).acquired) return false;
    return work();
  }

  private readonly runs = new CoalescedRun<boolean>(async (rounds) => {
    const ran = await this.whileLeased(async () => {
      await rounds(() => this.run());
      return true;
    });
    return ran;
  });

  private async run(): Promise<void> {
    const state = await this.loadState();
    const tip = state.tip?.id;
    await this.followFacts(state);
    const awaiting = await this.awaitSubmitted(state);
    await this.followTip(state);
    // an awaited transaction can only be confirmed by a block derived since, or be newly awaited
    if (awaiting || state.tip?.id !== tip) await this.confirmAwaited(state);
    await this.prune(state);
  }

  private async loadState(): Promise<ProducerState> {
    const found = await this.states.findOne({ _id: "producer" });
    return found ?? { _id: "producer", factSeq: 0, epoch: 0, tip: null, submittedAfter: "0", settledLogSize: 0 };
  }

  private async saveState(s: ProducerState): Promise<void> {
    const { _id, ...fields } = s;
    await this.states.updateOne({ _id }, { $set: fields as unknown as Record<string, Value> }, { upsert: true });
  }

  /** The fact log after the cursor, block by block (a block is never split between two runs of `onBlock`). */
  private async followFacts(state: ProducerState): Promise<void> {
    for (let limit = FACTS_PER_READ; ;) {
      const batch = await this.ports.factsAfter(state.factSeq, limit);
      if (batch.length === 0) return;
      let end = batch.length;
      if (batch.length === limit) {
        // the last block may go on in the next read: leave it for then, unless it is all there is
        const last = batch[end - 1]!;
        while (end > 0 && batch[end - 1]!.kind === "fact" && last.kind === "fact" && batch[end - 1]!.blockId === last.blockId) end--;
        if (end === 0 && limit < MOST_FACTS_PER_READ) {
          limit = Math.min(limit * 2, MOST_FACTS_PER_READ);
          continue;
        }
        // a block of more facts than one read takes: derived in two parts (its transactions may repeat a confirmation)
        if (end === 0) end = batch.length;
      }
      for (let i = 0; i < end;) {
        const r = batch[i]!;
        if (r.kind === "rollback") {
          await this.onRollback(state, r);
          i += 1;
          continue;
        }
        let j = i + 1;
        while (j < end && batch[j]!.kind === "fact" && batch[j]!.blockId === r.blockId) j++;
        await this.onBlock(state, batch.slice(i, j));
        i = j;
      }
      state.factSeq = batch[end - 1]!.seq;
      await this.saveState(state);
      limit = FACTS_PER_READ;
      if (batch.length < limit) return;
    }
  }

  /** One block's facts: the events of its transactions, then the confirmations it deepens. */
  private async onBlock(state: ProducerState, records: FactRecord[]): Promise<void> {
    const block = blockOf(records[0]!);
    // the blocks without facts before it, as the indexer announced them
    // (announced before this block's facts were written: a block of another fork, announced later, waits for its marker)
    await this.followTips(state, (t) => t.height < block.height && t.lastSeq < records[0]!.seq);
    const byTx = new Map<string, FactRecord[]>();
    for (const r of records) byTx.set(r.txId, [...(byTx.get(r.txId) ?? []), r]);
    const known = new Map((await this.tracked.find({ _id: { $in: [...byTx.keys()] } })).map((t) => [t._id, t]));
    const events: NewEvent[] = [];
    const confirmations: { doc: TrackedDoc; at: number }[] = [];
    let anchoredSize: number | undefined;
    for (const [tx, facts] of byTx) {
      const own: NewEvent[] = [];
      const subjects = new Set([subject("transaction", tx)]);
      const certificates: Confirmation["certificates"] = [];
      const checkpoints: { size: number; root: string }[] = [];
      for (const { fact } of facts) {
        if (fact?.type === "certificate.issued") {
          const e = certificateAnchored(fact, tx, block, state.epoch, this.addresses.get(fact.issuer));
          own.push(e);
          e.subjects.forEach((s) => subjects.add(s));
          certificates.push({ position: fact.position, hash: fact.hash, subjects: e.subjects });
          const checkpoint = anchoredCheckpoint(fact);
          if (checkpoint) checkpoints.push(checkpoint);
        } else if (fact?.type === "state.burned") {
          const e = stateInvalidated(fact.stateId, tx, block, state.epoch);
          own.push(e);
          e.subjects.forEach((s) => subjects.add(s));
        } else if (fact?.type === "state.minted" || fact?.type === "state.updated") {
          subjects.add(subject("state", fact.stateId));
          const owner = this.addresses.get(fact.owner);
          if (owner !== null) subjects.add(subject("address", owner));
        }
      }
      const previous = known.get(tx);
      const doc: TrackedDoc =
        previous && previous.includedIn.id === block.id && previous.epoch === state.epoch
          ? previous // derived before a crash: keep how deep it got
          : {
              _id: tx,
              includedIn: { slot: block.slot, id: block.id, height: block.height },
              seq: facts[0]!.seq,
              epoch: state.epoch,
              depth: 1,
              final: this.settings.finalityDepth <= 1,
              subjects: [...subjects],
              certificates,
              order: 0,
              submittedOnly: false,
            };
      events.push(...own);
      confirmations.push({ doc, at: events.length });
      events.push(transactionConfirmed(confirmationOf({ ...doc, depth: 1 }), 1, block, this.settings.finalityDepth));
      for (const checkpoint of checkpoints) {
        anchoredSize ??= await this.anchoredLogSize(state);
        if (checkpoint.size <= anchoredSize) continue; // an older checkpoint: its receipts were announced
        const receipts = await this.receiptsOf(checkpoint, anchoredSize, tx, block, state.epoch);
        if (receipts === undefined) continue;
        events.push(...receipts);
        doc.receipts = { from: anchoredSize, to: checkpoint.size };
        anchoredSize = checkpoint.size;
      }
    }
    const deepened = await this.deepen(block, [...byTx.keys()]);
    const appended = await this.append([...events, ...deepened.events]);
    for (const { doc, at } of confirmations) {
      doc.order = Number(appended[at]!.id);
      await this.tracked.updateOne({ _id: doc._id }, { $set: withoutId(doc) }, { upsert: true });
    }
    await deepened.save();
    await this.awaited.deleteMany({ _id: { $in: [...byTx.keys()] } });
    state.tip = block;
  }

  /**
   * The receipt.anchored events of the receipts a checkpoint holds beyond `from`, or undefined when the log has no
   * receipt of this checkpoint (not the calendar's log, or its receipts never reached the log).
   */
  private async receiptsOf(
    checkpoint: { size: number; root: string },
    from: number,
    tx: string,
    block: ChainBlock,
    epoch: number,
  ): Promise<NewEvent[] | undefined> {
    const receipts: PublicEvent<"receipt.checkpointed">[] = [];
    for (let next = from; ;) {
      const page = await this.log.checkpointedBetween(next, checkpoint.size, RECEIPTS_PER_PAGE);
      receipts.push(...page);
      if (page.length < RECEIPTS_PER_PAGE) break;
      next = page[page.length - 1]!.data.firstIndex + 1;
    }
    // the newest receipt of the checkpoint was checkpointed in it: the same size and root, else it is not this log's
    const newest = receipts[receipts.length - 1];
    if (!newest || newest.data.checkpointSize !== checkpoint.size || newest.data.checkpointRoot !== checkpoint.root) return undefined;
    return receipts.map((r) => receiptAnchored(r, checkpoint, tx, block, epoch));
  }

  /** The confirmations that `block` makes deeper (all but those of `except`), and the write of their new depth. */
  private async deepen(block: ChainBlock, except: readonly string[] = []) {
    const finality = this.settings.finalityDepth;
    const open = (await this.tracked.find({ final: false }, { sort: { order: 1 } })).filter(
      (t) => !except.includes(t._id) && t.includedIn.height < block.height,
    );
    const changed = open.flatMap((t) => {
      const depth = depthAt(t.includedIn.height, block.height, finality);
      return depth > t.depth ? [{ t, depth }] : [];
    });
    return {
      events: changed.map(({ t, depth }) => transactionConfirmed(confirmationOf(t), depth, block, finality)),
      save: async () => {
        for (const { t, depth } of changed) await this.tracked.updateOne({ _id: t._id }, { $set: { depth, final: depth >= finality } });
      },
    };
  }

  /** A rollback marker: what the blocks after its point confirmed is rolled back, newest first. */
  private async onRollback(state: ProducerState, marker: Extract<FactRecord, { kind: "rollback" }>): Promise<void> {
    const after = { "includedIn.slot": { $gt: marker.rollbackTo }, seq: { $lt: marker.seq } };
    const undone = await this.tracked.find(after, { sort: { order: -1 } });
    const point = marker.slot < 0 ? null : { slot: marker.slot, id: marker.blockId, height: marker.height };
    await this.append(undone.flatMap((t) => rolledBack(confirmationOf(t), point, this.settings.now())));
    // the service's own transactions without facts may come back in a later block: await them again
    for (const t of undone.filter((u) => u.submittedOnly))
      await this.awaited.updateOne({ _id: t._id }, { $set: { since: this.settings.now() } }, { upsert: true });
    await this.tracked.deleteMany(after);
    // blocks announced before the rollback may be gone
    this.notified = this.notified.filter((t) => t.lastSeq >= marker.seq);
    Object.assign(state, { factSeq: marker.seq, epoch: marker.seq, tip: point && { ...point, time: 0 } });
    await this.saveState(state);
  }

  /**
   * The blocks the indexer announced (and the newest it wrote, in case an announcement was lost) beyond the last block
   * derived, whose facts are derived, in chain order: each deepens the confirmations.
   */
  private async followTip(state: ProducerState): Promise<void> {
    const written = await this.ports.writtenTip().catch(() => undefined);
    if (written && !this.notified.some((t) => t.id === written.id)) this.notified.push(written);
    await this.followTips(state, (t) => t.lastSeq <= state.factSeq);
  }

  /** The announced blocks that `ready` accepts, in height order; those behind the last block derived are forgotten. */
  private async followTips(state: ProducerState, ready: (tip: TipPoint) => boolean): Promise<void> {
    const behind = (t: TipPoint) => t.slot < 0 || t.lastSeq < state.epoch || t.height <= (state.tip?.height ?? -1);
    this.notified = this.notified.filter((t) => !behind(t));
    const due = this.notified.filter(ready).sort((a, b) => a.height - b.height);
    for (const tip of due) {
      if (behind(tip)) continue;
      const block: ChainBlock = { slot: tip.slot, id: tip.id, height: tip.height, time: tip.time };
      const deepened = await this.deepen(block);
      await this.append(deepened.events);
      await deepened.save();
      state.tip = block;
      await this.saveState(state);
    }
    this.notified = this.notified.filter((t) => !behind(t));
  }

  /**
   * The `transaction.submitted` events appended since the last run: their transactions are awaited.
   * @returns whether there were any
   */
  private async awaitSubmitted(state: ProducerState): Promise<boolean> {
    let any = false;
    for (;;) {
      const page = await this.log.after(state.submittedAfter, { types: ["transaction.submitted"], limit: 500 });
      for (const e of page.events) {
        const tx = (e as PublicEvent<"transaction.submitted">).data.transactionHash;
        await this.awaited.updateOne({ _id: tx }, { $set: { since: Date.parse(e.timestamp) } }, { upsert: true });
        any = true;
      }
      if (page.next === state.submittedAfter) return any;
      state.submittedAfter = page.next;
      await this.saveState(state);
    }
  }

  /**
   * Awaited transactions the indexer has in a block up to the last one derived: confirmed at their depth then (those
   * carrying facts were confirmed from the log already). Those awaited too long are dropped.
   */
  private async confirmAwaited(state: ProducerState): Promise<void> {
    await this.awaited.deleteMany({ since: { $lt: this.settings.now() - AWAIT_MS } });
    const tip = state.tip;
    if (!tip) return;
    const waiting = await this.awaited.find({}, { sort: { since: 1 }, limit: AWAITED_PER_RUN });
    for (const { _id: tx } of waiting) {
      const record = await this.ports.transaction(tx);
      if (!record || record.height > tip.height) continue;
      if (!(await this.tracked.findOne({ _id: tx }))) {
        const includedIn: BlockRef = { slot: record.slot, id: record.blockId, height: record.height };
        const depth = depthAt(record.height, tip.height, this.settings.finalityDepth);
        const doc: TrackedDoc = {
          _id: tx,
          includedIn,
          seq: state.factSeq,
          epoch: state.epoch,
          depth,
          final: depth >= this.settings.finalityDepth,
          subjects: [subject("transaction", tx)],
          certificates: [],
          order: 0,
          submittedOnly: true,
        };
        const at = depth === 1 ? { ...includedIn, time: record.time } : tip;
        const [confirmed] = await this.append([transactionConfirmed(confirmationOf(doc), depth, at, this.settings.finalityDepth)]);
        doc.order = Number(confirmed!.id);
        await this.tracked.updateOne({ _id: tx }, { $set: withoutId(doc) }, { upsert: true });
      }
      await this.awaited.deleteOne({ _id: tx });
    }
  }

  /** Confirmations deeper than any rollback are forgotten (the checkpoint sizes they anchored are remembered). */
  private async prune(state: ProducerState): Promise<void> {
    if (!state.tip) return;
    const old = { final: true, "includedIn.height": { $lt: state.tip.height - ROLLBACK_HORIZON } };
    const settled = await this.tracked.find(
      { ...old, "receipts.to": { $gt: state.settledLogSize } },
      { sort: { "receipts.to": -1 }, limit: 1 },
    );
    if (settled[0]?.receipts) {
      state.settledLogSize = settled[0].receipts.to;
      await this.saveState(state);
    }
    await this.tracked.deleteMany(old);
  }

  /** The checkpoint size whose receipts are announced anchored by a confirmation still on chain, or settled. */
  private async anchoredLogSize(state: ProducerState): Promise<number> {
    const [newest] = await this.tracked.find({ "receipts.to": { $gt: 0 } }, { sort: { "receipts.to": -1 }, limit: 1 });
    return Math.max(state.settledLogSize, newest?.receipts?.to ?? 0);
  }

  private async append(events: NewEvent[]): Promise<PublicEvent[]> {
    if (events.length === 0) return [];
    const appended = await this.log.append(events);
    this.settings.onAppended?.(appended[appended.length - 1]!.id);
    return appended;
  }
}

/** A tracked confirmation's fields, as an update sets them. */
const withoutId = (doc: TrackedDoc): Record<string, Value> => {
  const { _id, ...rest } = doc;
  return rest as unknown as Record<string, Value>;
};
