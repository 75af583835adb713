/**
 * The gateway's memory of certificate validators, so a conditional `GET /verify/…` is answered 304 without calling
 * the verifier or touching the store (docs/api.md#caching).
 *
 * It follows the indexer's fact log itself (not the bus events, which may be lost): it knows every certificate
 * fact and rollback marker after the sequence number it started from. It remembers the ETag of an answer the
 * verifier gave, keyed by data hash, only when that answer provably reflects every change of that hash the cache
 * knows about (the verifier reports the fact sequence it had applied before it read), and forgets it as soon as
 * a new certificate of the hash appears in the log. Any rollback marker, and any certificate anchoring a Merkle
 * batch root (it anchors every hash of its tree, which the fact does not list), forgets everything: both are rare,
 * and correctness after one matters more than a few extra reads. A remembered ETag therefore always names what the
 * verifier would answer now, up to the lag both have behind the indexer.
 *
 * Memory is bounded: at most `maxHashes` remembered hashes (oldest first out) and `maxChanges` tracked changes;
 * past that it forgets everything and starts over from the current sequence.
 */
import type { FactRecord } from "../indexer/fact-log";
import type { FactSource } from "../indexer/fact-consumer";
import { MERKLE_SCHEME } from "../merkle/merkle-tree";

export interface RememberedValidator {
  etag: string;
  /** Block height of the answer's newest record (for its Cache-Control). */
  newestHeight: number;
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
  /** Data hash → route key → validator. */
  private readonly validators = new Map<string, Map<string, RememberedValidator>>();
  private running: Promise<void> | undefined;
  private again = false;
  /** Highest block height seen (chain notifications and facts), for the depth of answers. */
  tipHeight: number | undefined;

  constructor(
    private readonly source: ValidatorSource,
    private readonly limits: { maxHashes: number; maxChanges: number } = { maxHashes: 100_000, maxChanges: 200_000 },
  ) {}

  get started(): boolean {
    return this.known !== undefined;
  }

  /** The validator remembered for a route of a data hash (lowercase hex), if any. */
  find(dataHash: string, routeKey: string): RememberedValidator | undefined {
    return this.validators.get(dataHash)?.get(routeKey);
  }

  /**
   * Remembers the validator of an answer the verifier gave after applying the facts through `readSeq`, unless a
   * change of the hash the cache knows of came later, or the answer predates what the cache follows.
   */
  remember(dataHash: string, routeKey: string, validator: RememberedValidator, readSeq: number): void {
    if (this.known === undefined || readSeq < this.floor) return;
    if ((this.changedAt.get(dataHash) ?? -1) > readSeq) return;
    let routes = this.validators.get(dataHash);
    if (!routes) {
      if (this.validators.size >= this.limits.maxHashes) this.validators.delete(this.validators.keys().next().value!);
      routes = new Map();
      this.validators.set(dataHash, routes);
    }
    routes.set(routeKey, validator);
  }

  /** A chain notification: the tip's height, and the log's head (a head behind what is known means a new log). */
  noteBlock(height: number | undefined, lastSeq: number | undefined): void {
    if (height !== undefined && (this.tipHeight === undefined || height > this.tipHeight)) this.tipHeight = height;
    if (this.known !== undefined && lastSeq !== undefined && lastSeq < this.known) this.restart(lastSeq);
  }

  /** Reads the log after what is known (starting at its head the first time). Concurrent calls share one run. */
  catchUp(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => (this.running = undefined));
    return this.running;
  }

  private async drain(): Promise<void> {
    if (this.known === undefined) this.restart(await this.source.head());
    do {
      this.again = false;
      for (;;) {
        const batch = await this.source.after(this.known!, 1000);
        for (const r of batch) this.apply(r);
        if (batch.length < 1000) break;
      }
    } while (this.again);
  }

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
    this.validators.delete(hash);
    this.changedAt.set(hash, r.seq);
    if (this.changedAt.size > this.limits.maxChanges) this.forgetAll(r.seq);
  }

  private restart(seq: number): void {
    this.known = seq;
    this.forgetAll(seq);
  }

  private forgetAll(seq: number): void {
    this.floor = seq;
    this.validators.clear();
    this.changedAt.clear();
  }
}
