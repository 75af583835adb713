/** The shapes the aggregated calendar (calendar.ts) works with: its settings, ports, round documents and outcomes. */
import type { StoredDocument } from "../store";
import type { CalendarRequestDocument } from "./calendar-requests";

export interface CalendarSettings {
  intervalMs: number;
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

/** What one round anchors: the log's latest checkpoint. */
export interface AnchorParts {
  checkpoint: AnchorableCheckpoint;
}

/**
 * Anchors one round: `build` makes the transaction (unsigned: nothing leaves the process) and says until when it can
 * be in a block (Unix ms), `submit` signs and sends it.
 */
export interface CalendarAnchorer {
  build(parts: AnchorParts): Promise<{ cborHex: string; txId: string; expiresAtMs: number }>;
  submit(cborHex: string, txId: string): Promise<void>;
}

/** The collection of the calendar's anchoring rounds. */
export const CALENDAR_ROUNDS = "merkle_calendar_rounds";

/** One anchoring round and its transaction (`_id`: a fresh random id). */
export interface CalendarRoundDocument extends StoredDocument {
  _id: string;
  /** the log's checkpoint the round anchored */
  log: AnchorableCheckpoint;
  /** `log.size`, for the queries by anchored size */
  logSize: number;
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
  /** does the verifier answer the certificate of `root` in this transaction (it is in a block, and followed) */
  anchorServed(txId: string, root: string): Promise<boolean>;
}

/** The log's side of the calendar. */
export interface CalendarLogView {
  /** the latest signed checkpoint, for a round to anchor */
  latestCheckpoint(): Promise<AnchorableCheckpoint | undefined>;
  /** the submitted hash of log entry `index` (in a signed checkpoint) */
  hashAt(index: number): Promise<Buffer>;
  /** makes the entries [0, size) findable by hash (log-lookup.ts) */
  extendLookups(size: number): Promise<void>;
}

export type RoundOutcome =
  | { kind: "anchored"; logSize: number; transactionHash: string }
  | { kind: "idle" }
  | { kind: "busy" }
  | { kind: "failed"; message: string };
