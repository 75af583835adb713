/**
 * The gateway's memory of certificate answers, so a `GET /verify/…` is answered without calling the verifier or
 * touching the store: 304 to a conditional request naming the remembered validator, and the whole 200 answer
 * (its JSON bytes, kept within a byte budget) to any other (docs/api.md#caching).
 *
 * It follows the indexer's fact log itself (not the bus events, which may be lost): it knows every certificate
 * fact and rollback marker after the sequence number it started from. It remembers an answer the verifier gave,
 * keyed by data hash, only when that answer provably reflects every change of that hash the cache knows about
 * (the verifier reports the fact sequence it had applied before it read), and forgets it as soon as a new
 * certificate of the hash appears in the log. Any rollback marker, and any certificate anchoring a Merkle batch
 * root (it anchors every hash of its tree, which the fact does not list), forgets everything: both are rare, and
 * correctness after one matters more than a few extra reads. A remembered answer therefore always is what the
 * verifier would answer now, up to the lag both have behind the indexer (confirm catches every gateway up before
 * it answers 200, so read-your-writes holds).
 *
 * Memory is bounded: at most `maxHashes` remembered hashes and `maxBodyBytes` of answers (counted with a fixed
 * per-entry overhead; oldest out first, with a second chance for those answered from since), and `maxChanges` tracked changes; past that it forgets
 * everything and starts over from the current sequence.
 */
import { CoalescedRun } from "../domain/coalesced-run";
import type { FactRecord } from "../indexer/fact-log";
import type { FactSource } from "../indexer/fact-consumer";
import { MERKLE_SCHEME } from "../merkle/merkle-tree";

export interface RememberedValidator {
  etag: string;
  /** Block height of the answer's newest record (for its Cache-Control). */
  newestHeight: number;
  /** The 200 answer's JSON text, when the byte budget kept it. */
  body?: Buffer;
}

/** What the answer cache holds and how often it answered (GET /verify without a matching validator). */
export interface AnswerCacheStats {
  hits: number;
  misses: number;
  hashes: number;
  bodyBytes: number;
  maxBodyBytes: number;
}

export interface ValidatorCacheLimits {
  maxHashes: number;
  maxChanges: number;
  /** Budget for remembered answer bodies, per-entry overhead included; 0 keeps validators only. */
  maxBodyBytes: number;
}

/**
 * Bytes counted per remembered answer besides its body: the map entry, the key and ETag strings, the entry and
 * validator objects and the Buffer object (≈ 630 bytes of heap measured for 100,000 one-record answers, rounded up).
 */
export const ANSWER_ENTRY_OVERHEAD_BYTES = 700;

/** The content type of every JSON answer the gateway writes itself. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The JSON text of an answer, in memory of its own (a slice of Node's shared pool would keep the whole slab). */
export function answerBody(data: unknown): Buffer {
  const text = JSON.stringify(data);
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  body.write(text);
  return body;
}

/** The answers remembered for one data hash: the list (`/verify/{hash}`) and one per transaction. */
interface HashEntry {
  list?: RememberedValidator;
  byTransaction?: Map<string, RememberedValidator>;
  /** Body bytes of this entry, overhead included. */
  bytes: number;
  /** Answered from since it last came up for eviction (second chance: kept, moved to the back). */
  used: boolean;
}

const LIST_KEY = "list";

function bytesOf(v: RememberedValidator): number {
  return v.body ? v.body.length + ANSWER_ENTRY_OVERHEAD_BYTES : 0;
}

export interface ValidatorSource extends FactSource {
  /** The sequence number of the newest fact in the log. */
  head(): Promise<number>;
}

export class ValidatorCache {
  /** Facts are known through this sequence number; undefined until started. */
  private known: number | undefined;
  /** Answers read before this sequence number are never remembered. */
  private floor = Number.POSITIVE_INFINITY;
  /** Data hash → sequence number of its newest certificate fact since `floor`. */
  private readonly changedAt = new Map<string, number>();
  /** Data hash → its remembered answers, oldest (or longest unused) first. */
  private readonly entries = new Map<string, HashEntry>();
  private bodyBytes = 0;
  private hits = 0;
  private misses = 0;
  /** Highest block height seen (chain notifications and facts), for the depth of answers. */
  tipHeight: number | undefined;

  constructor(
    private readonly source: ValidatorSource,
    private readonly limits: ValidatorCacheLimits = { maxHashes: 100_000, maxChanges: 200_000, maxBodyBytes: 0 },
  ) {}

  get started(): boolean {
    return this.known !== undefined;
  }

  /** The validator remembered for a route of a data hash (lowercase hex), if any. */
  find(dataHash: string, routeKey: string): RememberedValidator | undefined {
    const entry = this.entries.get(dataHash);
    if (!entry) return undefined;
    return routeKey === LIST_KEY ? entry.list : entry.byTransaction?.get(routeKey);
  }

  /**
   * The whole answer remembered for a route of a data hash, counted as a hit or a miss; a hit marks the hash used
   * (moving it in the map on every hit made the map rehash and cost more than the rest of the answer).
   */
  findAnswer(dataHash: string, routeKey: string): (RememberedValidator & { body: Buffer }) | undefined {
    const entry = this.entries.get(dataHash);
    const found = entry && (routeKey === LIST_KEY ? entry.list : entry.byTransaction?.get(routeKey));
    if (!found?.body) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    entry!.used = true;
    return found as RememberedValidator & { body: Buffer };
  }

  /** Whether answer bodies are kept at all (a budget above 0). */
  get keepsAnswers(): boolean {
    return this.limits.maxBodyBytes > 0;
  }

  stats(): AnswerCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      hashes: this.entries.size,
      bodyBytes: this.bodyBytes,
      maxBodyBytes: this.limits.maxBodyBytes,
    };
  }

  /**
   * Remembers the validator (and the body, within the budget) of an answer the verifier gave after applying the
   * facts through `readSeq`, unless a change of the hash the cache knows of came later, or the answer predates what
   * the cache follows.
   */
  remember(dataHash: string, routeKey: string, validator: RememberedValidator, readSeq: number): void {
    if (this.known === undefined || readSeq < this.floor) return;
    if ((this.changedAt.get(dataHash) ?? -1) > readSeq) return;
    let kept = validator;
    if (kept.body && bytesOf(kept) > this.limits.maxBodyBytes) kept = { etag: validator.etag, newestHeight: validator.newestHeight };
    let entry = this.entries.get(dataHash);
    if (entry) {
      this.entries.delete(dataHash);
    } else {
      entry = { bytes: 0, used: false };
    }
    const previous = routeKey === LIST_KEY ? entry.list : entry.byTransaction?.get(routeKey);
    if (previous) this.resize(entry, -bytesOf(previous));
    if (routeKey === LIST_KEY) entry.list = kept;
    else (entry.byTransaction ??= new Map()).set(routeKey, kept);
    this.resize(entry, bytesOf(kept));
    this.entries.set(dataHash, entry);
    // Oldest out first, unless answered from since (second chance: moved to the back, unmarked); the entry just
    // written goes last of all, should it alone be over the budget.
    while (this.entries.size > this.limits.maxHashes || this.bodyBytes > this.limits.maxBodyBytes) {
      const oldest = this.entries.keys().next().value!;
      const candidate = this.entries.get(oldest)!;
      if (candidate.used && oldest !== dataHash) {
        candidate.used = false;
        this.entries.delete(oldest);
        this.entries.set(oldest, candidate);
        continue;
      }
      this.drop(oldest);
    }
  }

  private resize(entry: HashEntry, delta: number): void {
    entry.bytes += delta;
    this.bodyBytes += delta;
  }

  private drop(dataHash: string): void {
    const entry = this.entries.get(dataHash);
    if (!entry) return;
    this.bodyBytes -= entry.bytes;
    this.entries.delete(dataHash);
  }

  /** A chain notification: the tip's height, and the log's head (a head behind what is known means a new log). */
  noteBlock(height: number | undefined, lastSeq: number | undefined): void {
    if (height !== undefined && (this.tipHeight === undefined || height > this.tipHeight)) this.tipHeight = height;
    if (this.known !== undefined && lastSeq !== undefined && lastSeq < this.known) this.restart(lastSeq);
  }

  /** Reads the log after what is known (starting at its head the first time). Concurrent calls share one run. */
  catchUp(): Promise<void> {
    return this.runs.start();
  }

  private readonly runs = new CoalescedRun<void>(async (rounds) => {
    if (this.known === undefined) this.restart(await this.source.head());
    await rounds(async () => {
      for (;;) {
        const batch = await this.source.after(this.known!, 1000);
        for (const r of batch) this.apply(r);
        if (batch.length < 1000) break;
      }
    });
  });

  /** Applies one fact or rollback marker, in log order. */
  apply(r: FactRecord): void {
    if (this.known === undefined || r.seq <= this.known) return;
    this.known = r.seq;
    if (r.kind === "rollback") {
      this.forgetAll(r.seq);
      return;
    }
    if (this.tipHeight === undefined || r.height > this.tipHeight) this.tipHeight = r.height;
    if (r.fact.type !== "certificate.issued") return;
    // A Merkle batch root anchors every hash of its tree (docs/merkle-batches.md), which the fact does not list.
    if (r.fact.algorithm === MERKLE_SCHEME) {
      this.forgetAll(r.seq);
      return;
    }
    const hash = r.fact.hash;
    this.drop(hash);
    this.changedAt.set(hash, r.seq);
    if (this.changedAt.size > this.limits.maxChanges) this.forgetAll(r.seq);
  }

  private restart(seq: number): void {
    this.known = seq;
    this.forgetAll(seq);
  }

  private forgetAll(seq: number): void {
    this.floor = seq;
    this.entries.clear();
    this.bodyBytes = 0;
    this.changedAt.clear();
  }
}
