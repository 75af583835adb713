/**
 * The aggregated calendar (docs/merkle-batches.md#aggregated-calendar): callers hand in hashes (`POST /batch/submit`)
 * and get a receipt per hash; the transparency log takes every hash within a second (calendar-log.ts), and every
 * `intervalMs` one replica (a lease in the store) anchors the log's latest signed checkpoint on Cardano, as a
 * certificate of the service wallet, and extends the log's lookups (hash → index) to it, so `/verify` and `/proof`
 * find the hashes it holds. Requests live in the store, so a restart loses nothing. How the checkpoint is anchored
 * (build, sign, submit) is the `anchorer`'s job.
 */
import { randomBytes } from "node:crypto";
import { DomainError } from "../domain/errors";
import { createLeaseTable, type Collection, type LeaseTable, type Store } from "../store";
import {
  CALENDAR_REQUESTS,
  findReceiptPosition,
  hashAt,
  newRequestId,
  parseCalendarHashes,
  receiptIdOf,
  type CalendarReceipt,
  type CalendarRequestDocument,
  type SubmitAnswer,
} from "./calendar-requests";
import { NODE_BYTES } from "./merkle-tree";
import { PendingCounts } from "./calendar-pending";
import { newNonces } from "../transparency-log/log-entries";
import { logIndexOf, type AnchoredHolding } from "./calendar-log";
import {
  CALENDAR_ROUNDS,
  type AnchorableCheckpoint,
  type CalendarAnchorer,
  type CalendarChainView,
  type CalendarLogView,
  type CalendarRoundDocument,
  type CalendarSettings,
  type FoundReceipt,
  type RoundOutcome,
} from "./calendar-types";

const LEASE_KEY = "merkle-calendar";
/** A round's transaction on chain this long (chain clock) is beyond rollbacks: Cardano's k blocks take about 12 h. */
export const SETTLE_MS = 12 * 3600_000;
/** A round whose transaction this many rounds in a row found neither in a block nor in the mempool is lost. */
const LOST_AFTER_ROUNDS = 2;
/** Unsettled rounds looked at per round, oldest first. */
const WATCHED_ROUNDS = 100;
/** How long one round may hold the lease: extending the lookups by a million entries takes some seconds. */
const LEASE_TTL_MS = 120_000;
/** Rounds looked at for the one anchoring a receipt's entry (the smallest checkpoints holding it). */
const HOLDING_ROUNDS = 5;

export class MerkleCalendar {
  private round: Promise<RoundOutcome> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextRoundAt: number;
  private readonly holder = randomBytes(8).toString("hex");

  private constructor(
    private readonly requests: Collection<CalendarRequestDocument>,
    private readonly pending: PendingCounts,
    private readonly rounds: Collection<CalendarRoundDocument>,
    private readonly lease: LeaseTable,
    private readonly anchorer: CalendarAnchorer,
    private readonly chain: CalendarChainView,
    private readonly settings: CalendarSettings,
    private readonly now: () => number,
    private readonly onRound: (outcome: RoundOutcome) => void,
    private readonly log: CalendarLogView,
  ) {
    this.nextRoundAt = now() + settings.intervalMs;
  }

  static async open(opts: {
    store: Store;
    anchorer: CalendarAnchorer;
    chain: CalendarChainView;
    settings: CalendarSettings;
    now: () => number;
    /** told every round's outcome (for the log) */
    onRound?: (outcome: RoundOutcome) => void;
    /** the transparency log the submitted hashes go to, whose latest checkpoint each round anchors */
    log: CalendarLogView;
  }): Promise<MerkleCalendar> {
    const requests = opts.store.collection<CalendarRequestDocument>(CALENDAR_REQUESTS);
    // single-field indexes, one per field a query names
    await requests.ensureIndexes([
      { fields: { pendingLeaves: 1 } },
      { fields: { client: 1 } },
      { fields: { logPending: 1, submittedAt: 1 } },
    ]);
    const rounds = opts.store.collection<CalendarRoundDocument>(CALENDAR_ROUNDS);
    await rounds.ensureIndexes([{ fields: { settled: 1, submittedAt: 1 } }, { fields: { logSize: 1 } }]);
    const lease = await createLeaseTable(opts.store.collection("merkle_calendar_lease"), opts.now);
    return new MerkleCalendar(
      requests,
      new PendingCounts(opts.store.collection("merkle_calendar_pending"), requests),
      rounds,
      lease,
      opts.anchorer,
      opts.chain,
      opts.settings,
      opts.now,
      opts.onRound ?? (() => undefined),
      opts.log,
    );
  }

  /** Runs a round every `intervalMs` (real time) until `stop`. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.anchorRound(), this.settings.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a running round. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.round;
  }

  /** Hashes waiting for an anchoring round, of one client or of all, as the submission limits count them (calendar-pending.ts). */
  async pendingCount(client?: string): Promise<number> {
    const { own, total } = await this.pending.of(client);
    return client === undefined ? total : own;
  }

  /**
   * Records the hashes of `client` (calendarClientOf), each with a fresh nonce for the log; a receipt per hash, in
   * order.
   * @throws DomainError BAD_REQUEST (malformed), CALENDAR_FULL (maxPending, or the client's maxPendingPerClient,
   *   reached; nothing recorded)
   */
  async submit(raw: unknown, client: string): Promise<SubmitAnswer> {
    const packed = parseCalendarHashes(raw, this.settings.maxHashesPerRequest);
    const count = packed.length / NODE_BYTES;
    const hex = packed.toString("hex");
    const retryAfterSeconds = Math.max(1, Math.ceil(this.settings.intervalMs / 1000));
    const { own, total: waiting } = await this.pending.of(client);
    if (own + count > this.settings.maxPendingPerClient) {
      throw new DomainError(
        "CALENDAR_FULL",
        `${own} of your hashes wait for the calendar, a client's limit is ${this.settings.maxPendingPerClient}; retry after the next anchoring round.`,
        { maxPendingPerClient: this.settings.maxPendingPerClient, retryAfterSeconds },
      );
    }
    if (waiting + count > this.settings.maxPending) {
      throw new DomainError(
        "CALENDAR_FULL",
        `The calendar holds ${waiting} pending hashes, its limit is ${this.settings.maxPending}; retry after the next anchoring round.`,
        { maxPending: this.settings.maxPending, retryAfterSeconds },
      );
    }
    const submittedAt = this.now();
    const request = newRequestId();
    await this.requests.insertOne({
      _id: request,
      hashes: hex,
      count,
      submittedAt,
      pendingLeaves: count,
      client,
      nonces: newNonces(count).toString("base64"),
      logNext: 0,
      logPending: count,
      logged: [],
    });
    await this.pending.add(client, count);
    return {
      status: "pending",
      submittedAt,
      expectedAnchorBy: Math.max(this.nextRoundAt, this.now()),
      receiptUrl: "/api/v1/batch/receipt/{receiptId}",
      receipts: Array.from({ length: count }, (_, i) => ({ receiptId: receiptIdOf(request, i), hash: hashAt({ hashes: hex }, i) })),
      pending: waiting + count,
    };
  }

  /** The receipt's status, or null for an unknown id. */
  async receipt(receiptId: string): Promise<CalendarReceipt | null> {
    const found = await this.findReceipt(receiptId);
    return found === undefined ? null : this.receiptOf(receiptId, found);
  }

  /** The request a receipt id names and the position in it; undefined for an unknown or malformed id. */
  async findReceipt(receiptId: string): Promise<FoundReceipt | undefined> {
    const at = findReceiptPosition(receiptId);
    const doc = at === undefined ? undefined : await this.requests.findOne({ _id: at.request });
    return at === undefined || doc === undefined || at.position >= doc.count ? undefined : { doc, position: at.position };
  }

  /**
   * The status of a receipt found by `findReceipt`; `anchoredHolding` answers where an entry is anchored (by default
   * `anchoredCheckpointHolding`: a caller answering the log's view of the receipt too passes one that asks once).
   */
  async receiptOf(
    receiptId: string,
    found: FoundReceipt,
    anchoredHolding: AnchoredHolding = (index) => this.anchoredCheckpointHolding(index),
  ): Promise<CalendarReceipt> {
    const index = logIndexOf(found);
    // once logged, the request keeps no copy of its hashes: the log's record has it
    const hash = index === undefined ? hashAt(found.doc, found.position) : (await this.log.hashAt(index)).toString("hex");
    const base = { receiptId, hash, submittedAt: found.doc.submittedAt, statusUrl: `/api/v1/batch/receipt/${receiptId}` };
    const pending = (): CalendarReceipt => ({ ...base, status: "pending", expectedAnchorBy: Math.max(this.nextRoundAt, this.now()) });
    if (index === undefined) return pending();
    // anchored once a transaction anchoring a checkpoint that holds the entry is in a block and the verifier answers
    // it, so the proof the receipt points to is there
    const anchored = await anchoredHolding(index);
    if (anchored !== undefined)
      return {
        ...base,
        status: "anchored",
        merkleRoot: anchored.checkpoint.root,
        transactionHash: anchored.transactionHash,
        proofUrl: `/api/v1/proof/${hash}`,
      };
    const [first] = await this.roundsHolding(index);
    if (first === undefined) return pending();
    return { ...base, status: "submitted", merkleRoot: first.log.root, transactionHash: first.transactionHash };
  }

  /** The rounds that anchored the smallest checkpoints holding log entry `index`. */
  private roundsHolding(index: number): Promise<CalendarRoundDocument[]> {
    return this.rounds.find({ logSize: { $gt: index } }, { sort: { logSize: 1 }, limit: HOLDING_ROUNDS });
  }

  /**
   * One round: under the lease, the log's latest checkpoint, when no round holds it or a larger one, is added to the
   * lookups and anchored. A round already running in this process is joined; one running in another replica makes
   * this one `busy`. A failure (no funds, a refused build or submission) leaves the checkpoint for the next round.
   */
  anchorRound(): Promise<RoundOutcome> {
    this.round ??= this.runRound()
      .then((outcome) => {
        this.onRound(outcome);
        return outcome;
      })
      .finally(() => {
        this.round = null;
      });
    return this.round;
  }

  /**
   * Follows the transactions of unsettled rounds: one on chain for SETTLE_MS is settled; one found neither in a
   * block nor in the mempool LOST_AFTER_ROUNDS rounds in a row (it expired, or a rollback dropped it for good) is
   * lost and forgotten, so its checkpoint (or a later one) is anchored again. Two looks, because between the block
   * that takes a transaction and the indexer's record of it, it is in neither place.
   */
  private async watchRounds(): Promise<void> {
    const open = await this.rounds.find({ settled: false }, { sort: { submittedAt: 1 }, limit: WATCHED_ROUNDS });
    if (open.length === 0) return;
    const inMempool = await this.chain.inMempoolAmong(open.map((r) => r.transactionHash));
    const now = this.now();
    for (const r of open) {
      if (await this.chain.onChain(r.transactionHash)) {
        const since = r.onChainSince ?? now;
        await this.rounds.updateOne({ _id: r._id }, { $set: { onChainSince: since, missing: 0, settled: now - since >= SETTLE_MS } });
      } else if (inMempool.has(r.transactionHash)) {
        if (r.missing !== 0 || r.onChainSince !== undefined) await this.rounds.updateOne({ _id: r._id }, { $set: { missing: 0 } });
      } else if (r.missing + 1 >= LOST_AFTER_ROUNDS) {
        await this.rounds.deleteOne({ _id: r._id });
      } else {
        await this.rounds.updateOne({ _id: r._id }, { $set: { missing: r.missing + 1 } });
      }
    }
  }

  /**
   * The log's latest checkpoint when no round holds it or a larger one (a lost round's is anchored again: its
   * document is gone).
   */
  private async checkpointToAnchor(): Promise<AnchorableCheckpoint | undefined> {
    const latest = await this.log.latestCheckpoint();
    if (latest === undefined || latest.size === 0) return undefined;
    const [largest] = await this.rounds.findProjected({ logSize: { $gte: latest.size } }, { _id: 1 }, { limit: 1 });
    return largest === undefined ? latest : undefined;
  }

  /**
   * The round that anchored the smallest checkpoint holding log entry `index`, with its transaction in a block and
   * served by the verifier; undefined while none is (a rollback takes a transaction out until it is back or anchored
   * again).
   */
  async anchoredCheckpointHolding(index: number): Promise<{ checkpoint: AnchorableCheckpoint; transactionHash: string } | undefined> {
    for (const round of await this.roundsHolding(index)) {
      if (await this.chain.anchorServed(round.transactionHash, round.log.root))
        return { checkpoint: round.log, transactionHash: round.transactionHash };
    }
    return undefined;
  }

  private async runRound(): Promise<RoundOutcome> {
    this.nextRoundAt = this.now() + this.settings.intervalMs;
    let acquired = false;
    try {
      const idle = (await this.rounds.count({ settled: false })) === 0 && (await this.checkpointToAnchor()) === undefined;
      if (idle) return { kind: "idle" };
      acquired = (await this.lease.acquire([LEASE_KEY], this.holder, LEASE_TTL_MS)).acquired;
      if (!acquired) return { kind: "busy" };
      await this.watchRounds();
      const checkpoint = await this.checkpointToAnchor();
      if (checkpoint === undefined) return { kind: "idle" };
      // the lookups hold every entry of the checkpoint before its transaction leaves, so the verifier finds them
      // when it sees the checkpoint's root on chain
      await this.log.extendLookups(checkpoint.size);
      const { cborHex, txId } = await this.anchorer.build({ checkpoint });
      await this.anchorer.submit(cborHex, txId);
      await this.rounds.insertOne({
        _id: randomBytes(16).toString("hex"),
        log: { ...checkpoint },
        logSize: checkpoint.size,
        transactionHash: txId,
        submittedAt: this.now(),
        missing: 0,
        settled: false,
      });
      // what this round anchored no longer counts against its clients' limits
      await this.requests.updateMany({ pendingLeaves: { $gt: 0 }, logEnd: { $lte: checkpoint.size } }, { $set: { pendingLeaves: 0 } });
      await this.pending.recount();
      return { kind: "anchored", logSize: checkpoint.size, transactionHash: txId };
    } catch (err) {
      return { kind: "failed", message: err instanceof Error ? err.message : String(err) };
    } finally {
      if (acquired) await this.lease.release(this.holder).catch(() => undefined);
    }
  }
}
