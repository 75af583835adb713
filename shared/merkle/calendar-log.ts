/**
 * The calendar as the transparency log's source (docs/transparency-log.md): every hash submitted to the calendar
 * becomes a log entry, SHA-256(nonce ‖ hash) with the nonce drawn at submission, in the order the requests arrived;
 * and a receipt's view of the log: its index, nonce and `c2sp.org/tlog-proof@v1` proof once a signed checkpoint
 * holds it.
 */
import type { Collection } from "../store";
import { makeReceipt } from "../tlog/cose-receipt";
import type { SignerKey } from "../tlog/note";
import { formatTlogProof } from "../tlog/tlog-proof";
import { HASH_BYTES, leafOfRecord, NONCE_BYTES, RECORD_BYTES } from "../transparency-log/log-entries";
import type { LogStore } from "../transparency-log/log-store";
import { inclusionAt } from "../transparency-log/log-tree";
import type { LogSource } from "../transparency-log/sequencer";
import type { AnchorableCheckpoint, FoundReceipt } from "./calendar-types";
import type { CalendarRequestDocument } from "./calendar-requests";

/** Requests read per page when a round gathers waiting hashes. */
const PAGE = 100;

/** The records (nonce ‖ hash) of positions [from, to) of a request not yet wholly in the log. */
function recordsOfRequest(doc: CalendarRequestDocument, from: number, to: number): Buffer {
  if (doc.hashes === undefined || doc.nonces === undefined)
    throw new Error(`Calendar request ${doc._id} is wholly in the log already: its records are the log's.`);
  const nonces = Buffer.from(doc.nonces, "base64");
  const hashes = Buffer.from(doc.hashes.slice(from * HASH_BYTES * 2, to * HASH_BYTES * 2), "hex");
  const out = Buffer.allocUnsafe((to - from) * RECORD_BYTES);
  for (let i = 0; i < to - from; i++) {
    nonces.copy(out, i * RECORD_BYTES, (from + i) * NONCE_BYTES, (from + i + 1) * NONCE_BYTES);
    hashes.copy(out, i * RECORD_BYTES + NONCE_BYTES, i * HASH_BYTES, (i + 1) * HASH_BYTES);
  }
  return out;
}

export function calendarLogSource(requests: Collection<CalendarRequestDocument>): LogSource {
  return {
    async anyWaiting() {
      return (await requests.findProjected({ logPending: { $gt: 0 } }, { _id: 1 }, { limit: 1 })).length > 0;
    },
    async waiting(max) {
      const parts: { request: string; from: number; to: number }[] = [];
      const records: Buffer[] = [];
      let count = 0;
      const seen = new Set<string>();
      for (let skip = 0; count < max; skip += PAGE) {
        const page = await requests.find({ logPending: { $gt: 0 } }, { sort: { submittedAt: 1 }, skip, limit: PAGE });
        for (const doc of page) {
          if (seen.has(doc._id) || count >= max) continue;
          seen.add(doc._id);
          const from = doc.logNext;
          const to = Math.min(doc.count, from + (max - count));
          parts.push({ request: doc._id, from, to });
          records.push(recordsOfRequest(doc, from, to));
          count += to - from;
        }
        if (page.length < PAGE) break;
      }
      return { parts, records: Buffer.concat(records) };
    },
    async recordsOf(parts) {
      const docs = new Map((await requests.find({ _id: { $in: [...new Set(parts.map((p) => p.request))] } })).map((d) => [d._id, d]));
      return Buffer.concat(
        parts.map((p) => {
          const doc = docs.get(p.request);
          if (!doc) throw new Error(`The log's round names calendar request ${p.request}, which is not stored.`);
          return recordsOfRequest(doc, p.from, p.to);
        }),
      );
    },
    async markLogged(parts, start) {
      let index = start;
      for (const p of parts) {
        // only from the position the request is at: marking twice changes nothing
        await requests.updateOne(
          { _id: p.request, logNext: p.from },
          { $set: { logNext: p.to }, $inc: { logPending: p.from - p.to }, $push: { logged: { from: p.from, to: p.to, index } } },
        );
        index += p.to - p.from;
        // wholly in the log: the log's records keep its hashes and nonces, the request only where they went
        await requests.updateOne(
          { _id: p.request, logPending: 0, logNext: p.to },
          { $set: { logEnd: index }, $unset: { hashes: "", nonces: "" } },
        );
      }
    },
  };
}

/** Where a receipt's entry is anchored on Cardano: the checkpoint a round anchored, and its transaction. */
export interface AnchoredEntry {
  size: number;
  transactionHash: string;
  /** the signed checkpoint the transaction anchors */
  checkpoint: string;
  /** the entry's tlog-proof against that checkpoint */
  proof: string;
  /** the root's certificate, as /verify shows it (issuer, block, metadata: origin and size) */
  verifyUrl: string;
}

/**
 * What a receipt says about the log: waiting for a checkpoint; checkpointed, with its index and a proof in the latest
 * (cosigned) checkpoint holding it; and anchored, once a Cardano transaction in a block anchors a checkpoint holding it.
 */
export type ReceiptLogView =
  | { status: "waiting" }
  | { status: "checkpointed" | "anchored"; index: number; nonce: string; checkpointSize: number; proof: string; anchored?: AnchoredEntry };

/** The anchored checkpoint holding entry `index` (MerkleCalendar.anchoredCheckpointHolding). */
export type AnchoredHolding = (index: number) => Promise<{ checkpoint: AnchorableCheckpoint; transactionHash: string } | undefined>;

/** A receipt's entry in the log: its index, nonce and record, and the checkpoint its proofs are made against. */
interface LoggedEntry {
  index: number;
  nonce: Buffer;
  /** nonce ‖ hash */
  record: Buffer;
  checkpoint: { size: number; note: string };
}

/** Where a receipt's hash is in the log, once a signed checkpoint holds it (the latest cosigned one when it does). */
async function loggedEntry(log: LogStore, found: FoundReceipt): Promise<LoggedEntry | undefined> {
  const index = logIndexOf(found);
  if (index === undefined) return undefined;
  const checkpoint = await log.checkpointHolding(index);
  if (checkpoint === undefined) return undefined;
  const [record] = await log.recordsFrom(index, 1);
  if (record === undefined) throw new Error(`The log's record ${index} is not stored, though a signed checkpoint holds it.`);
  return { index, nonce: record.subarray(0, NONCE_BYTES), record, checkpoint };
}

/** The log index of a receipt's hash, once the log took it. */
export function logIndexOf({ doc, position }: FoundReceipt): number | undefined {
  const part = doc.logged.find((l) => l.from <= position && position < l.to);
  return part === undefined ? undefined : part.index + position - part.from;
}

/** The entry's c2sp.org/tlog-proof@v1 proof against the checkpoint (`size`, signed `note`). */
async function tlogProofOf(log: LogStore, { index, nonce }: LoggedEntry, size: number, note: string): Promise<string> {
  return formatTlogProof({ extra: nonce, index, inclusionProof: await inclusionAt(log, index, size), checkpoint: note });
}

/** The receipt's tlog-proof against the checkpoint its log view names; undefined while no signed checkpoint holds it. */
export async function receiptTlogProof(log: LogStore, found: FoundReceipt): Promise<string | undefined> {
  const entry = await loggedEntry(log, found);
  return entry === undefined ? undefined : tlogProofOf(log, entry, entry.checkpoint.size, entry.checkpoint.note);
}

/** The log's view of a receipt (found by MerkleCalendar.findReceipt). */
export async function receiptLogView(log: LogStore, found: FoundReceipt, anchoredHolding: AnchoredHolding): Promise<ReceiptLogView> {
  const entry = await loggedEntry(log, found);
  if (entry === undefined) return { status: "waiting" };
  const { index, nonce, checkpoint } = entry;
  const view = {
    index,
    nonce: nonce.toString("base64"),
    checkpointSize: checkpoint.size,
    proof: await tlogProofOf(log, entry, checkpoint.size, checkpoint.note),
  };
  const anchored = await anchoredHolding(index);
  if (anchored === undefined) return { status: "checkpointed", ...view };
  const { checkpoint: a, transactionHash } = anchored;
  return {
    status: "anchored",
    ...view,
    anchored: {
      size: a.size,
      transactionHash,
      checkpoint: a.note,
      proof: await tlogProofOf(log, entry, a.size, a.note),
      verifyUrl: `/api/v1/verify/${a.root}`,
    },
  };
}

/**
 * The receipt's RFC 9942 COSE receipt of inclusion (RFC9162_SHA256), signed with the log key over the root of the
 * checkpoint the tlog-proof uses; undefined while no checkpoint holds the entry.
 */
export async function receiptCose(log: LogStore, found: FoundReceipt, key: SignerKey): Promise<Uint8Array | undefined> {
  const entry = await loggedEntry(log, found);
  if (entry === undefined) return undefined;
  const { index, record, checkpoint } = entry;
  const path = await inclusionAt(log, index, checkpoint.size);
  return makeReceipt(leafOfRecord(record), { treeSize: checkpoint.size, leafIndex: index, path }, key);
}
