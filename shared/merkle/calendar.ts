/**
 * The aggregated Merkle calendar (docs/merkle-batches.md#aggregated-calendar): callers hand in hashes
 * (`POST /batch/submit`) and get a receipt per hash; every `intervalMs`, or as soon as `maxLeaves` leaves wait, one
 * replica builds the Merkle tree of the pending leaves (oldest first) and anchors its root from the service wallet,
 * as one ordinary batch certificate. Pending leaves live in the store, so a restart loses nothing; a lease in the
 * store lets one replica anchor at a time. How the root is anchored (build, sign, submit) is the `anchorer`'s job.
 */
import { randomBytes } from "node:crypto";
import { DomainError } from "../domain/errors";
import { createLeaseTable, type Collection, type LeaseTable, type Store, type StoredDocument } from "../store";
import { NODE_BYTES } from "./merkle-tree";
import { buildTree, type MerkleTreeStore, type BuiltTree } from "./tree-store";

export interface CalendarSettings {
  intervalMs: number;
  maxLeaves: number;
  maxPending: number;
  maxHashesPerRequest: number;
}

/** Anchors one tree's root: `build` signs the transaction (nothing leaves the process), `submit` sends it. */
export interface CalendarAnchorer {
  build(tree: BuiltTree): Promise<{ signedCborHex: string; txId: string }>;
  submit(signedCborHex: string, txId: string): Promise<void>;
}

/** One submitted hash waiting for (or given to) an anchoring round. `_id` is the receipt id. */
export interface CalendarLeafDocument extends StoredDocument {
  _id: string;
  hash: string;
  submittedAt: number;
  /** the request that brought the leaf (random) and the leaf's position in it: leaves keep their request's order */
  request: string;
  position: number;
  /** the tree id of the round that took the leaf; "" while pending */
  round: string;
}

/** One anchoring round: the tree and the transaction that anchors its root. `_id` is the tree id. */
export interface CalendarRoundDocument extends StoredDocument {
  _id: string;
  root: string;
  leafCount: number;
  transactionHash: string;
  submittedAt: number;
  /** when the transaction was first seen in a block (unset while it is not) */
  onChainSince?: number;
  /** rounds in a row that found the transaction neither in a block nor in the mempool */
  missing: number;
  /** on chain for SETTLE_MS: no longer watched */
  settled: boolean;
}

/** What the calendar asks about its rounds' transactions. */
export interface CalendarChainView {
  /** is the transaction in a block (as the indexer has it now; rollbacks take it out) */
  onChain(txId: string): Promise<boolean>;
  /** which of these transactions the node's mempool holds now */
  inMempoolAmong(txIds: readonly string[]): Promise<Set<string>>;
}

export interface CalendarReceipt {
  receiptId: string;
  hash: string;
  /** pending: waiting for a round; submitted: its round's transaction is sent; anchored: that transaction is on chain */
  status: "pending" | "submitted" | "anchored";
  submittedAt: number;
  /** while pending: when the next round is due (Unix ms; a round may take it later when it holds maxLeaves already) */
  expectedAnchorBy?: number;
  /** this receipt's status route, relative to the API base */
  statusUrl: string;
  merkleRoot?: string;
  treeId?: string;
  transactionHash?: string;
  /** once anchored: where the inclusion proof is served, relative to the API base */
  proofUrl?: string;
}

/**
 * The answer to a submission: what all its receipts share once, then per hash only its receipt id (kept small: at
 * 5,000 hashes about 0.6 MB, well inside the 1 MB a NATS message carries by default).
 */
export interface SubmitAnswer {
  status: "pending";
  submittedAt: number;
  /** when the next round is due (Unix ms) */
  expectedAnchorBy: number;
  /** each receipt's status route, relative to the API base */
  receiptUrl: "/api/v1/batch/receipt/{receiptId}";
  /** one per submitted hash, in order */
  receipts: { receiptId: string; hash: string }[];
  /** leaves waiting in total, these included */
  pending: number;
}

export type RoundOutcome =
  | { kind: "anchored"; treeId: string; root: string; leafCount: number; transactionHash: string }
  | { kind: "idle" }
  | { kind: "busy" }
  | { kind: "failed"; message: string };

const HASH_HEX = /^[0-9a-fA-F]{64}$/;
const LEASE_KEY = "merkle-calendar";
const PENDING = "";
/** A round's transaction on chain this long (chain clock) is beyond rollbacks: Cardano's k blocks take about 12 h. */
export const SETTLE_MS = 12 * 3600_000;
/** A round whose transaction this many rounds in a row found neither in a block nor in the mempool is lost. */
export const LOST_AFTER_ROUNDS = 2;
/** How long a failed round keeps submissions from starting rounds early. */
const EARLY_ROUND_PAUSE_MS = 10_000;
/** Leaves marked per update when a round is recorded. */
const MARK_SLICE = 500;
/** Unsettled rounds looked at per round, oldest first. */
const WATCHED_ROUNDS = 100;
/** How long one round may hold the lease: a round of a million leaves takes about ten seconds. */
const LEASE_TTL_MS = 120_000;
export const RECEIPT_ID = /^[0-9a-f]{32}$/;

function badRequest(message: string, data: Record<string, unknown> = {}): never {
  throw new DomainError("BAD_REQUEST", message, data);
}

/** @throws DomainError BAD_REQUEST naming the problem (and `maxHashes` for too many) */
export function parseCalendarHashes(raw: unknown, maxHashes: number): string[] {
  if (raw === undefined || raw === null) badRequest("hashes is required: an array of 32-byte hashes as 64 hex digits");
  if (!Array.isArray(raw)) badRequest("hashes must be an array of 32-byte hashes as 64 hex digits");
  if (raw.length === 0) badRequest("hashes is empty: send at least one 32-byte hash");
  if (raw.length > maxHashes)
    badRequest(`One request takes at most ${maxHashes} hashes (got ${raw.length}); send the rest in further requests.`, { maxHashes });
  return raw.map((h: unknown, i) => {
    if (typeof h !== "string" || !HASH_HEX.test(h))
      badRequest(`hashes[${i}] must be a 32-byte hash as 64 hex digits`, { field: `hashes[${i}]` });
    return h.toLowerCase();
  });
}

export class MerkleCalendar {
  private round: Promise<RoundOutcome> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextRoundAt: number;
  private readonly holder = randomBytes(8).toString("hex");
  /** After a failed round, submissions do not start rounds early before this instant (real time): the timer does. */
  private earlyRoundsAfter = 0;

  private constructor(
    private readonly leaves: Collection<CalendarLeafDocument>,
    private readonly rounds: Collection<CalendarRoundDocument>,
    private readonly lease: LeaseTable,
    private readonly trees: MerkleTreeStore,
    private readonly anchorer: CalendarAnchorer,
    private readonly chain: CalendarChainView,
    private readonly settings: CalendarSettings,
    private readonly now: () => number,
    private readonly onRound: (outcome: RoundOutcome) => void,
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
  }): Promise<MerkleCalendar> {
    const leaves = opts.store.collection<CalendarLeafDocument>("merkle_calendar_leaves");
    await leaves.ensureIndexes([{ fields: { round: 1, submittedAt: 1, request: 1, position: 1 } }]);
    const rounds = opts.store.collection<CalendarRoundDocument>("merkle_calendar_rounds");
    await rounds.ensureIndexes([{ fields: { settled: 1, submittedAt: 1 } }]);
    const lease = await createLeaseTable(opts.store.collection("merkle_calendar_lease"), opts.now);
    return new MerkleCalendar(
      leaves,
      rounds,
      lease,
      opts.trees,
      opts.anchorer,
      opts.chain,
      opts.settings,
      opts.now,
      opts.onRound ?? (() => undefined),
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

  pendingCount(): Promise<number> {
    return this.leaves.count({ round: PENDING });
  }

  /**
   * Records the hashes as pending leaves; a receipt per hash, in order. Starts a round at once when `maxLeaves`
   * leaves wait.
   * @throws DomainError BAD_REQUEST (malformed), CALENDAR_FULL (maxPending reached; nothing recorded)
   */
  async submit(raw: unknown): Promise<SubmitAnswer> {
    const hashes = parseCalendarHashes(raw, this.settings.maxHashesPerRequest);
    const waiting = await this.pendingCount();
    if (waiting + hashes.length > this.settings.maxPending) {
      throw new DomainError(
        "CALENDAR_FULL",
        `The calendar holds ${waiting} pending hashes, its limit is ${this.settings.maxPending}; retry after the next anchoring round.`,
        { maxPending: this.settings.maxPending, retryAfterSeconds: Math.max(1, Math.ceil(this.settings.intervalMs / 1000)) },
      );
    }
    const submittedAt = this.now();
    const request = randomBytes(8).toString("hex");
    const docs = hashes.map((hash, position): CalendarLeafDocument => ({
      _id: randomBytes(16).toString("hex"),
      hash,
      submittedAt,
      request,
      position,
      round: PENDING,
    }));
    await this.leaves.insertMany(docs);
    const pending = waiting + docs.length;
    if (pending >= this.settings.maxLeaves && Date.now() >= this.earlyRoundsAfter) void this.anchorRound();
    return {
      status: "pending",
      submittedAt,
      expectedAnchorBy: Math.max(this.nextRoundAt, this.now()),
      receiptUrl: "/api/v1/batch/receipt/{receiptId}",
      receipts: docs.map((d) => ({ receiptId: d._id, hash: d.hash })),
      pending,
    };
  }

  /** The receipt's status, or null for an unknown id. */
  async receipt(receiptId: string): Promise<CalendarReceipt | null> {
    const doc = await this.leaves.findOne({ _id: receiptId });
    if (!doc) return null;
    const round = doc.round === PENDING ? null : ((await this.rounds.findOne({ _id: doc.round })) ?? null);
    return this.receiptOf(doc, round, round !== null && (await this.chain.onChain(round.transactionHash)));
  }

  private receiptOf(doc: CalendarLeafDocument, round: CalendarRoundDocument | null, anchored: boolean): CalendarReceipt {
    const base = { receiptId: doc._id, hash: doc.hash, submittedAt: doc.submittedAt, statusUrl: `/api/v1/batch/receipt/${doc._id}` };
    if (round === null) return { ...base, status: "pending", expectedAnchorBy: Math.max(this.nextRoundAt, this.now()) };
    return {
      ...base,
      status: anchored ? "anchored" : "submitted",
      merkleRoot: round.root,
      treeId: round._id,
      transactionHash: round.transactionHash,
      ...(anchored ? { proofUrl: `/api/v1/proof/${doc.hash}` } : {}),
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
        await this.leaves.updateMany({ round: r._id }, { $set: { round: PENDING } });
        await this.rounds.deleteOne({ _id: r._id });
      } else {
        await this.rounds.updateOne({ _id: r._id }, { $set: { missing: r.missing + 1 } });
      }
    }
  }

  private async runRound(): Promise<RoundOutcome> {
    this.nextRoundAt = this.now() + this.settings.intervalMs;
    let acquired = false;
    try {
      if ((await this.pendingCount()) === 0 && (await this.rounds.count({ settled: false })) === 0) return { kind: "idle" };
      acquired = (await this.lease.acquire([LEASE_KEY], this.holder, LEASE_TTL_MS)).acquired;
      if (!acquired) return { kind: "busy" };
      await this.watchRounds();
      const docs = await this.leaves.find(
        { round: PENDING },
        { sort: { submittedAt: 1, request: 1, position: 1 }, limit: this.settings.maxLeaves },
      );
      if (docs.length === 0) return { kind: "idle" };
      const packed = Buffer.allocUnsafe(docs.length * NODE_BYTES);
      docs.forEach((d, i) => packed.write(d.hash, i * NODE_BYTES, "hex"));
      const tree = buildTree(packed);
      const root = tree.root.toString("hex");
      const { signedCborHex, txId } = await this.anchorer.build(tree);
      // stored before the transaction leaves, so a proof can be served as soon as the root is on chain
      await this.trees.save(tree);
      await this.anchorer.submit(signedCborHex, txId);
      await this.rounds.updateOne(
        { _id: tree.treeId },
        { $set: { root, leafCount: tree.leafCount, transactionHash: txId, submittedAt: this.now(), missing: 0, settled: false } },
        { upsert: true },
      );
      // in slices: a store may test `$in` against the whole list for every document it matches
      for (let i = 0; i < docs.length; i += MARK_SLICE) {
        const ids = docs.slice(i, i + MARK_SLICE).map((d) => d._id);
        await this.leaves.updateMany({ _id: { $in: ids } }, { $set: { round: tree.treeId } });
      }
      return { kind: "anchored", treeId: tree.treeId, root, leafCount: tree.leafCount, transactionHash: txId };
    } catch (err) {
      return { kind: "failed", message: err instanceof Error ? err.message : String(err) };
    } finally {
      if (acquired) await this.lease.release(this.holder).catch(() => undefined);
    }
  }
}
