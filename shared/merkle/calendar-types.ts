/** The shapes the aggregated calendar (calendar.ts) works with: its settings, ports, round documents and outcomes. */
import type { StoredDocument } from "../store";
import type { CalendarRequestDocument } from "./calendar-requests";
import type { BuiltTree } from "./tree-store";

export interface CalendarSettings {
  intervalMs: number;
  maxLeaves: number;
  maxPending: number;
  /** leaves waiting from one client at most */
  maxPendingPerClient: number;
  maxHashesPerRequest: number;
}

/** A signed checkpoint of the transparency log that a round anchors (docs/transparency-log.md#cardano-anchoring). */
export interface AnchorableCheckpoint {
  origin: string;
  size: number;
  /** the root hash, hex */
  root: string;
  /** the signed checkpoint note */
  note: string;
}

/** What one round anchors: a tree of pending leaves, the log's latest checkpoint, or both (never neither). */
export interface AnchorParts {
  tree?: BuiltTree;
  checkpoint?: AnchorableCheckpoint;
}

/**
 * Anchors one round: `build` makes the transaction (unsigned: nothing leaves the process) and says until when it can
 * be in a block (Unix ms), `submit` signs and sends it.
 */
export interface CalendarAnchorer {
  build(parts: AnchorParts): Promise<{ cborHex: string; txId: string; expiresAtMs: number }>;
  submit(cborHex: string, txId: string): Promise<void>;
}

/**
 * One anchoring round and its transaction. `_id` is the tree id, or a fresh id for a round that anchors only the
 * log's checkpoint.
 */
export interface CalendarRoundDocument extends StoredDocument {
  _id: string;
  /** the tree's root and size, when the round anchored pending leaves */
  root?: string;
  leafCount?: number;
  /** the log's checkpoint the round anchored, when it did */
  log?: AnchorableCheckpoint;
  /** `log.size`, for the query of the largest anchored size */
  logSize?: number;
  transactionHash: string;
  submittedAt: number;
  /** when the transaction was first seen in a block (unset while it is not) */
  onChainSince?: number;
  /** rounds in a row that found the transaction neither in a block nor in the mempool */
  missing: number;
  /** on chain for SETTLE_MS: no longer watched */
  settled: boolean;
}

/** A receipt's request and its position in it. */
export interface FoundReceipt {
  doc: CalendarRequestDocument;
  position: number;
}

/** What the calendar asks about its rounds' transactions. */
export interface CalendarChainView {
  /** is the transaction in a block (as the indexer has it now; rollbacks take it out) */
  onChain(txId: string): Promise<boolean>;
  /** which of these transactions the node's mempool holds now */
  inMempoolAmong(txIds: readonly string[]): Promise<Set<string>>;
}

/** The log's side of the calendar: its latest signed checkpoint, for a round to anchor. */
export interface CalendarLogView {
  latestCheckpoint(): Promise<AnchorableCheckpoint | undefined>;
}

export type RoundOutcome =
  | { kind: "anchored"; treeId?: string; root?: string; leafCount: number; logSize?: number; transactionHash: string }
  | { kind: "idle" }
  | { kind: "busy" }
  | { kind: "failed"; message: string };
