/**
 * The aggregated Merkle calendar (docs/merkle-batches.md#aggregated-calendar): callers hand in hashes
 * (`POST /batch/submit`) and get a receipt per hash; every `intervalMs`, or as soon as `maxLeaves` leaves wait, one
 * replica builds the Merkle tree of the pending leaves (oldest first) and anchors its root from the service wallet,
 * as one ordinary batch certificate. Pending leaves live in the store, so a restart loses nothing; a lease in the
 * store lets one replica anchor at a time. How the root is anchored (build, sign, submit) is the `anchorer`'s job.
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
  pendingRanges,
  receiptIdOf,
  type CalendarReceipt,
  type CalendarRequestDocument,
  type SubmitAnswer,
} from "./calendar-requests";
import { NODE_BYTES } from "./merkle-tree";
import { PendingCounts } from "./calendar-pending";
import { newNonces } from "../transparency-log/log-entries";
import { buildTree, type MerkleTreeStore } from "./tree-store";
import type {
  AnchorableCheckpoint,
  CalendarAnchorer,
  CalendarChainView,
  CalendarLogView,
  CalendarRoundDocument,
  CalendarSettings,
  FoundReceipt,
  RoundOutcome,
} from "./calendar-types";

const LEASE_KEY = "merkle-calendar";
/** A round's transaction on chain this long (chain clock) is beyond rollbacks: Cardano's k blocks take about 12 h. */
export const SETTLE_MS = 12 * 3600_000;
/** A round whose transaction this many rounds in a row found neither in a block nor in the mempool is lost. */
const LOST_AFTER_ROUNDS = 2;
/** How long a failed round keeps submissions from starting rounds early. */
const EARLY_ROUND_PAUSE_MS = 10_000;
/** Pending requests read per page when a round gathers its leaves. */
const REQUEST_PAGE = 100;
/** Unsettled rounds looked at per round, oldest first. */
const WATCHED_ROUNDS = 100;
/** How long one round may hold the lease: a round of a million leaves takes about ten seconds. */
const LEASE_TTL_MS = 120_000;
/** A round's tree is kept this long past its transaction's validity before the verifier may drop it unanchored. */
const TREE_GRACE_MS = 10 * 60_000;
/** The owner a round's pending tree is recorded under: the service's own, on no client's budget. */
const CALENDAR_OWNER = "calendar";
export class MerkleCalendar {
  private round: Promise<RoundOutcome> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextRoundAt: number;
  private readonly holder = randomBytes(8).toString("hex");
  /** After a failed round, submissions do not start rounds early before this instant (real time): the timer does. */
  private earlyRoundsAfter = 0;

  private constructor(
    private readonly requests: Collection<CalendarRequestDocument>,
    private readonly pending: PendingCounts,
    private readonly rounds: Collection<CalendarRoundDocument>,
    private readonly lease: LeaseTable,
    private readonly trees: MerkleTreeStore,
    private readonly anchorer: CalendarAnchorer,
    private readonly chain: CalendarChainView,
    private readonly settings: CalendarSettings,
    private readonly now: () => number,
    private readonly onRound: (outcome: RoundOutcome) => void,
    private readonly log: CalendarLogView | undefined,
  ) {
    this.nextRoundAt = now() + settings.intervalMs;
  }

  static async open(opts: {
    store: Store;
    trees: MerkleTreeStore;
    anchorer: CalendarAnchorer;
    chain: CalendarChainView;
    settings: CalendarSettings;
    now: () => number;
    /** told every round's outcome (for the log) */
    onRound?: (outcome: RoundOutcome) => void;
    /** the transparency log, whose latest checkpoint each round anchors when the log grew */
    log?: CalendarLogView;
  }): Promise<MerkleCalendar> {
    const requests = opts.store.collection<CalendarRequestDocument>(CALENDAR_REQUESTS);
    // single-field indexes, one per field a query names
    await requests.ensureIndexes([
      { fields: { pendingLeaves: 1 } },
      { fields: { rounds: 1 } },
      { fields: { client: 1 } },
      { fields: { logPending: 1, submittedAt: 1 } },
    ]);
    const rounds = opts.store.collection<CalendarRoundDocument>("merkle_calendar_rounds");
    await rounds.ensureIndexes([{ fields: { settled: 1, submittedAt: 1 } }, { fields: { logSize: 1 } }]);
    const lease = await createLeaseTable(opts.store.collection("merkle_calendar_lease"), opts.now);
    return new MerkleCalendar(
      requests,
      new PendingCounts(opts.store.collection("merkle_calendar_pending"), requests),
      rounds,
      lease,
      opts.trees,
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

  /** Leaves waiting for a round, of one client or of all, as the submission limits count them (calendar-pending.ts). */
  async pendingCount(client?: string): Promise<number> {
    const { own, total } = await this.pending.of(client);
    return client === undefined ? total : own;
  }

  /**
   * Records the hashes of `client` (calendarClientOf) as pending leaves; a receipt per hash, in order. Starts a round
   * at once when `maxLeaves` leaves wait.
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
      segments: [],
      rounds: [],
      client,
      nonces: newNonces(count).toString("base64"),
      logNext: 0,
      logPending: count,
      logged: [],
    });
    await this.pending.add(client, count);
    const pending = waiting + count;
    if (pending >= this.settings.maxLeaves && Date.now() >= this.earlyRoundsAfter) void this.anchorRound();
    return {
      status: "pending",
      submittedAt,
      expectedAnchorBy: Math.max(this.nextRoundAt, this.now()),
      receiptUrl: "/api/v1/batch/receipt/{receiptId}",
      receipts: Array.from({ length: count }, (_, i) => ({ receiptId: receiptIdOf(request, i), hash: hashAt({ hashes: hex }, i) })),
      pending,
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

  /** The status of a receipt found by `findReceipt`. */
  async receiptOf(receiptId: string, { doc, position }: FoundReceipt): Promise<CalendarReceipt> {
    const hash = hashAt(doc, position);
    const base = { receiptId, hash, submittedAt: doc.submittedAt, statusUrl: `/api/v1/batch/receipt/${receiptId}` };
    const segment = doc.segments.find((s) => s.from <= position && position < s.to);
    const round = segment ? ((await this.rounds.findOne({ _id: segment.round })) ?? null) : null;
    if (round === null) return { ...base, status: "pending", expectedAnchorBy: Math.max(this.nextRoundAt, this.now()) };
    // anchored once the round's transaction is in a block and the verifier has joined its tree to the lookups, so
    // the proof the receipt points to is there
    const anchored = (await this.chain.onChain(round.transactionHash)) && (await this.trees.isAnchored(round._id));
    return {
      ...base,
      status: anchored ? "anchored" : "submitted",
      merkleRoot: round.root,
      treeId: round._id,
      transactionHash: round.transactionHash,
      ...(anchored ? { proofUrl: `/api/v1/proof/${hash}` } : {}),
    };
  }

  /**
   * One round: under the lease, the oldest `maxLeaves` pending leaves become one tree whose root is anchored.
   * A round already running in this process is joined; one running in another replica makes this one `busy`.
   * A failure (no funds, a refused build or submission) leaves the leaves pending for the next round.
   */
  anchorRound(): Promise<RoundOutcome> {
    this.round ??= this.runRound()
      .then((outcome) => {
        // a round that failed (say, the previous round's transaction is not confirmed yet) would fail again at once
        if (outcome.kind === "failed") this.earlyRoundsAfter = Date.now() + Math.min(this.settings.intervalMs, EARLY_ROUND_PAUSE_MS);
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
   * lost, and its leaves go back to pending for this round to anchor again. Two looks, because between the block
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
        await this.releaseRound(r._id);
        await this.rounds.deleteOne({ _id: r._id });
      } else {
        await this.rounds.updateOne({ _id: r._id }, { $set: { missing: r.missing + 1 } });
      }
    }
  }

  /** Makes the leaves a round took pending again. */
  private async releaseRound(treeId: string): Promise<void> {
    for (const doc of await this.requests.find({ rounds: treeId })) {
      const released = doc.segments.filter((s) => s.round === treeId).reduce((n, s) => n + s.to - s.from, 0);
      await this.requests.updateOne(
        { _id: doc._id },
        { $pull: { segments: { round: treeId }, rounds: treeId }, $inc: { pendingLeaves: released } },
      );
    }
  }

  /**
   * The oldest pending leaves (by request arrival, then position), at most `maxLeaves`: the packed hashes and, per
   * request, the ranges taken.
   */
  private async gatherPending(): Promise<{ packed: Buffer; taken: { request: string; from: number; to: number }[] }> {
    const max = this.settings.maxLeaves;
    const parts: Buffer[] = [];
    const taken: { request: string; from: number; to: number }[] = [];
    const seen = new Set<string>();
    let count = 0;
    for (let skip = 0; count < max; skip += REQUEST_PAGE) {
      const page = await this.requests.find({ pendingLeaves: { $gt: 0 } }, { sort: { submittedAt: 1 }, skip, limit: REQUEST_PAGE });
      for (const doc of page) {
        // a submission arriving meanwhile can shift the pages: never take a request twice
        if (seen.has(doc._id)) continue;
        seen.add(doc._id);
        for (const [from, end] of pendingRanges(doc)) {
          if (count >= max) break;
          const to = Math.min(end, from + (max - count));
          parts.push(Buffer.from(doc.hashes.slice(from * 64, to * 64), "hex"));
          taken.push({ request: doc._id, from, to });
          count += to - from;
        }
        if (count >= max) break;
      }
      if (page.length < REQUEST_PAGE) break;
    }
    return { packed: Buffer.concat(parts), taken };
  }

  /**
   * The log's latest checkpoint when no round holds it or a larger one (a lost round's is anchored again: its
   * document is gone).
   */
  private async checkpointToAnchor(): Promise<AnchorableCheckpoint | undefined> {
    const latest = await this.log?.latestCheckpoint();
    if (latest === undefined || latest.size === 0) return undefined;
    const [largest] = await this.rounds.findProjected({ logSize: { $gte: latest.size } }, { _id: 1 }, { limit: 1 });
    return largest === undefined ? latest : undefined;
  }

  /**
   * The round that anchored the smallest checkpoint holding log entry `index`, with its transaction in a block;
   * undefined while none is (a rollback takes a transaction out until it is back or anchored again).
   */
  async anchoredCheckpointHolding(index: number): Promise<{ checkpoint: AnchorableCheckpoint; transactionHash: string } | undefined> {
    const candidates = await this.rounds.find({ logSize: { $gt: index } }, { sort: { logSize: 1 }, limit: 5 });
    for (const round of candidates) {
      if (round.log !== undefined && (await this.chain.onChain(round.transactionHash)))
        return { checkpoint: round.log, transactionHash: round.transactionHash };
    }
    return undefined;
  }

  private async runRound(): Promise<RoundOutcome> {
    this.nextRoundAt = this.now() + this.settings.intervalMs;
    let acquired = false;
    try {
      const idle =
        (await this.pending.recount()) === 0 &&
        (await this.rounds.count({ settled: false })) === 0 &&
        (await this.checkpointToAnchor()) === undefined;
      if (idle) return { kind: "idle" };
      acquired = (await this.lease.acquire([LEASE_KEY], this.holder, LEASE_TTL_MS)).acquired;
      if (!acquired) return { kind: "busy" };
      await this.watchRounds();
      const { packed, taken } = await this.gatherPending();
      const checkpoint = await this.checkpointToAnchor();
      if (taken.length === 0 && checkpoint === undefined) return { kind: "idle" };
      const tree = taken.length > 0 ? buildTree(packed) : undefined;
      const { cborHex, txId, expiresAtMs } = await this.anchorer.build({
        ...(tree ? { tree } : {}),
        ...(checkpoint ? { checkpoint } : {}),
      });
      // stored before the transaction leaves, so the verifier finds it when it sees the root on chain
      if (tree) await this.trees.save(tree, { expiresAt: expiresAtMs + TREE_GRACE_MS, owner: CALENDAR_OWNER });
      await this.anchorer.submit(cborHex, txId);
      const roundId = tree?.treeId ?? randomBytes(16).toString("hex");
      const root = tree?.root.toString("hex");
      await this.rounds.updateOne(
        { _id: roundId },
        {
          $set: {
            ...(tree ? { root: root!, leafCount: tree.leafCount } : {}),
            ...(checkpoint ? { log: { ...checkpoint }, logSize: checkpoint.size } : {}),
            transactionHash: txId,
            submittedAt: this.now(),
            missing: 0,
            settled: false,
          },
        },
        { upsert: true },
      );
      for (const t of taken) {
        await this.requests.updateOne(
          { _id: t.request },
          {
            $push: { segments: { from: t.from, to: t.to, round: roundId } },
            $addToSet: { rounds: roundId },
            $inc: { pendingLeaves: t.from - t.to },
          },
        );
      }
      // what this round took no longer counts against its clients' limits
      await this.pending.recount();
      return {
        kind: "anchored",
        ...(tree ? { treeId: tree.treeId, root: root! } : {}),
        leafCount: tree?.leafCount ?? 0,
        ...(checkpoint ? { logSize: checkpoint.size } : {}),
        transactionHash: txId,
      };
    } catch (err) {
      return { kind: "failed", message: err instanceof Error ? err.message : String(err) };
    } finally {
      if (acquired) await this.lease.release(this.holder).catch(() => undefined);
    }
  }
}
