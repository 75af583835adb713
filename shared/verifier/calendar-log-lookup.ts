/**
 * Hashes submitted to the calendar, found in its transparency log (docs/transparency-log.md#lookups): the log's
 * lookups give the entry's index and nonce, the calendar's rounds the smallest anchored checkpoints holding it, and a
 * certificate on chain (the projection follows rollbacks) must anchor that checkpoint's root with the checkpoint
 * scheme and name the log's origin and the checkpoint's size. The path is the entry's inclusion proof in that
 * checkpoint's tree (RFC 9162 §2.1.3); its leaf is the log's leaf of SHA-256(nonce ‖ hash), not of the hash itself.
 */
import { parseMetadataObject } from "../domain/certificate-metadata";
import { DataHash } from "../domain/hex";
import { CALENDAR_ROUNDS, type CalendarRoundDocument } from "../merkle/calendar-types";
import type { Collection, Store } from "../store";
import { TLOG_CHECKPOINT_SCHEME } from "../transparency-log/log-entries";
import { LogLookup } from "../transparency-log/log-lookup";
import { LogStore } from "../transparency-log/log-store";
import { inclusionAt } from "../transparency-log/log-tree";
import { anchorFieldsOf, type AnchorFields } from "./batch-lookup";
import type { AnchorTransaction, CertificateProjection, CertificateRecord } from "./certificate-projection";

/** Anchored checkpoints looked at per entry, smallest first. */
const CHECKPOINTS_LOOKED_AT = 5;

/** The anchoring certificate's record (its `hash` is the checkpoint's root) and where the entry sits in its tree. */
export interface LogRecord extends CertificateRecord {
  merkleRoot: string;
  /** the entry's index in the log */
  leafIndex: number;
  /** the anchored checkpoint's size */
  treeSize: number;
  /** the inclusion path, bottom first, hex */
  proof: string[];
  /** the entry's nonce, hex: the log's entry is SHA-256(nonce ‖ hash) */
  nonce: string;
  /** the log's origin */
  origin: string;
  /** the anchored checkpoint, as the log signed it */
  checkpoint: string;
}

/** What the verifier reads of the calendar's log (shared with the calendar through the store). */
export class CalendarLogReader {
  private constructor(
    private readonly log: LogStore,
    private readonly lookup: LogLookup,
    private readonly rounds: Collection<CalendarRoundDocument>,
  ) {}

  static async open(store: Store): Promise<CalendarLogReader> {
    const log = await LogStore.open(store, 4 * 1024 * 1024);
    return new CalendarLogReader(log, await LogLookup.open(store, log), store.collection<CalendarRoundDocument>(CALENDAR_ROUNDS));
  }

  /** Every entry of `hash` in the log that an anchored checkpoint holds (the smallest such checkpoint for each). */
  async find(certificates: Pick<CertificateProjection, "byHash">, hash: DataHash): Promise<LogRecord[]> {
    const found: LogRecord[] = [];
    for (const { index, nonce } of await this.lookup.find(Buffer.from(hash, "hex"))) {
      const rounds = await this.rounds.find({ logSize: { $gt: index } }, { sort: { logSize: 1 }, limit: CHECKPOINTS_LOOKED_AT });
      for (const { log } of rounds) {
        const record = (await certificates.byHash(DataHash(log.root))).find((r) => namesCheckpoint(r, log.origin, log.size));
        if (record === undefined) continue;
        const path = await inclusionAt(this.log, index, log.size);
        found.push({
          ...record,
          merkleRoot: log.root,
          leafIndex: index,
          treeSize: log.size,
          proof: path.map((p) => Buffer.from(p).toString("hex")),
          nonce: nonce.toString("hex"),
          origin: log.origin,
          checkpoint: log.note,
        });
        break;
      }
    }
    return found;
  }
}

/** Whether a certificate anchors a checkpoint of this log and size (its root is the certificate's hash). */
function namesCheckpoint(r: CertificateRecord, origin: string, size: number): boolean {
  if (r.algorithm !== TLOG_CHECKPOINT_SCHEME) return false;
  const tlog = parseMetadataObject(r.metadata)?.["tlog"];
  if (tlog === null || typeof tlog !== "object" || Array.isArray(tlog)) return false;
  const named = tlog as Record<string, unknown>;
  return named["origin"] === origin && named["size"] === size;
}

/**
 * A proof that a hash is in an anchored checkpoint of the log (docs/transparency-log.md#anchored-proofs): the entry
 * is SHA-256(nonce ‖ leaf), its RFC 9162 leaf hash and `path` lead to `root`, the checkpoint of `treeSize` signed by
 * the log, and the transaction anchors that root (checked offline and against a chain as batch proofs are).
 */
export interface AnchoredLogProof extends AnchorFields {
  scheme: typeof TLOG_CHECKPOINT_SCHEME;
  /** the submitted hash, hex */
  leaf: string;
  /** the entry's nonce, hex */
  nonce: string;
  leafIndex: number;
  treeSize: number;
  /** sibling hashes, bottom first, hex */
  path: string[];
  root: string;
  origin: string;
  checkpoint: string;
}

export function proofOfLogRecord(leaf: DataHash, r: LogRecord, anchor?: AnchorTransaction, proxyPolicyId?: string): AnchoredLogProof {
  return {
    scheme: TLOG_CHECKPOINT_SCHEME,
    leaf,
    nonce: r.nonce,
    leafIndex: r.leafIndex,
    treeSize: r.treeSize,
    path: r.proof,
    root: r.merkleRoot,
    origin: r.origin,
    checkpoint: r.checkpoint,
    ...anchorFieldsOf(r, anchor, proxyPolicyId),
  };
}
