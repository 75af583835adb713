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
import { AwaitedTransactions } from "./awaited-transactions";
import { transactionConfirmed, type ChainBlock } from "./chain-events";
import type { EventLog } from "./event-log";
import type { NewEvent, PublicEvent } from "./event-types";
import { announceRollback, type RollbackMarker } from "./rollback-events";
import { ROLLBACK_HORIZON, TrackedConfirmations, confirmationOf, type TrackedDoc } from "./tracked-confirmations";
import { receiptsAnchoredBy, transactionFacts } from "./transaction-facts";

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

const blockOf = (r: FactRecord): ChainBlock => ({ slot: r.slot, id: r.blockId, height: r.height, time: r.time });

export class ChainEventProducer {
  /** blocks the indexer announced, in the order it did, not derived yet */
  private notified: TipPoint[] = [];
  private readonly holder = randomBytes(8).toString("hex");
  private readonly addresses: BoundedMemo<string | null>;

  private constructor(
    private readonly log: EventLog,
    private readonly states: Collection<ProducerState>,
    private readonly confirmations: TrackedConfirmations,
    private readonly awaited: AwaitedTransactions,
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
    const confirmations = await TrackedConfirmations.open(store, settings.finalityDepth);
    const lease = await createLeaseTable(store.collection("events_lease"), settings.now);
    const awaited = await AwaitedTransactions.open(store, {
      log,
      confirmations,
      transaction: (id) => ports.transaction(id),
      finalityDepth: settings.finalityDepth,
      now: settings.now,
    });
    return new ChainEventProducer(log, store.collection("events_producer"), confirmations, awaited, lease, ports, settings);
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

  private readonly runs = new CoalescedRun<boolean>((rounds) =>
    this.whileLeased(async () => {
      await rounds(() => this.run());
      return true;
    }),
  );

  private async run(): Promise<void> {
    const state = await this.loadState();
    const tip = state.tip?.id;
    await this.followFacts(state);
    const awaiting = await this.awaited.awaitSubmitted(state, () => this.saveState(state));
    await this.followTip(state);
    // an awaited transaction can only be confirmed by a block derived since, or be newly awaited
    if (awaiting || state.tip?.id !== tip) await this.awaited.confirmAwaited(state, (events) => this.append(events));
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
    const known = await this.confirmations.byTransaction([...byTx.keys()]);
    const events: NewEvent[] = [];
    const confirmations: { doc: TrackedDoc; at: number }[] = [];
    let anchoredSize: number | undefined;
    for (const [tx, facts] of byTx) {
      const own = transactionFacts(tx, facts, block, state.epoch, (keyHash) => this.addresses.get(keyHash));
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
              subjects: own.subjects,
              certificates: own.certificates,
              order: 0,
              submittedOnly: false,
            };
      events.push(...own.events);
      confirmations.push({ doc, at: events.length });
      events.push(transactionConfirmed(confirmationOf({ ...doc, depth: 1 }), 1, block, this.settings.finalityDepth));
      for (const checkpoint of own.checkpoints) {
        anchoredSize ??= await this.confirmations.anchoredLogSize(state.settledLogSize);
        if (checkpoint.size <= anchoredSize) continue; // an older checkpoint: its receipts were announced
        const receipts = await receiptsAnchoredBy(this.log, checkpoint, anchoredSize, tx, block, state.epoch);
        if (receipts === undefined) continue;
        events.push(...receipts);
        doc.receipts = { from: anchoredSize, to: checkpoint.size };
        anchoredSize = checkpoint.size;
      }
    }
    const deepened = await this.confirmations.deepen(block, [...byTx.keys()]);
    const appended = await this.append([...events, ...deepened.events]);
    for (const { doc, at } of confirmations) {
      doc.order = Number(appended[at]!.id);
      await this.confirmations.save(doc);
    }
    await deepened.save();
    await this.awaited.forget([...byTx.keys()]);
    state.tip = block;
  }

  /** A rollback marker: what the blocks after its point confirmed is rolled back, newest first (rollback-events.ts). */
  private async onRollback(state: ProducerState, marker: RollbackMarker): Promise<void> {
    const point = await announceRollback(marker, {
      confirmations: this.confirmations,
      awaited: this.awaited,
      append: (events) => this.append(events),
      now: this.settings.now,
    });
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
      const deepened = await this.confirmations.deepen(block);
      await this.append(deepened.events);
      await deepened.save();
      state.tip = block;
      await this.saveState(state);
    }
    this.notified = this.notified.filter((t) => !behind(t));
  }

  /** Confirmations deeper than any rollback are forgotten (the checkpoint sizes they anchored are remembered). */
  private async prune(state: ProducerState): Promise<void> {
    if (!state.tip) return;
    const settled = await this.confirmations.settledLogSize(state.tip.height, state.settledLogSize);
    if (settled !== undefined) {
      state.settledLogSize = settled;
      await this.saveState(state);
    }
    await this.confirmations.forgetSettled(state.tip.height);
  }

  private async append(events: NewEvent[]): Promise<PublicEvent[]> {
    if (events.length === 0) return [];
    const appended = await this.log.append(events);
    this.settings.onAppended?.(appended[appended.length - 1]!.id);
    return appended;
  }
}
