/**
 * Where a submitted hash is in the log (docs/transparency-log.md#lookups): `/verify` and `/proof` of a calendar hash
 * find its index here, then read its record (nonce ‖ hash) from the log to confirm it.
 *
 * Each hash has a lookup key, the first KEY_BYTES of SHA-256(salt ‖ hash) under a random salt of the deployment: a
 * caller cannot choose hashes that crowd one bucket. Rows (key ‖ index) are kept in aligned blocks of the log: a
 * level-0 block holds BLOCK_ENTRIES entries, and 16 blocks of a level make one of the next as soon as the last of
 * them is full (a merge), so a lookup reads at most 15 documents per level (one per block: about log₁₆ of the size).
 * A block's rows are split into buckets by the first 2 + level hex digits of the key (about 256 rows each). Within a
 * block a key keeps its first index only: a hash submitted again is found where it was first.
 *
 * Writes are unions: a bucket document only ever gains rows, and a merge writes its block before it deletes the
 * smaller ones, so indexing that a crash interrupted is finished by running it again; a lookup that meets a row
 * twice (a merge under way) answers it once.
 */
import { createHash, randomBytes } from "node:crypto";
import { isDuplicateKeyError, type Collection, type Store, type StoredDocument } from "../store";
import { yieldToEventLoop } from "./sequencer";
import { HASH_BYTES, NONCE_BYTES } from "./log-entries";
import type { LogStore } from "./log-store";

const KEY_BYTES = 10;
const INDEX_BYTES = 6;
const ROW_BYTES = KEY_BYTES + INDEX_BYTES;
/** Entries of a level-0 block. */
export const BLOCK_ENTRIES = 65_536;
const FANOUT = 16;
/** Level 5 blocks hold 2^36 entries: beyond any log this store keeps. */
const MAX_LEVEL = 5;
const SALT_ID = "salt";
const STATE_ID = "lookup";

interface BucketDocument extends StoredDocument {
  level: number;
  block: number;
  /** the hex prefix of the keys in this bucket: 2 + level digits */
  bucket: string;
  /** rows key ‖ index (6 bytes big-endian), sorted, packed, base64 */
  rows: string;
}

interface LookupState extends StoredDocument {
  /** entries [0, indexed) are in the lookup */
  indexed?: number;
  /** base64 */
  salt?: string;
}

/** A hash's place in the log, with its nonce. */
export interface FoundEntry {
  index: number;
  nonce: Buffer;
}

const prefixDigits = (level: number): number => 2 + level;

/** Sorted rows, one per key (the smallest index), from packed rows in any order. */
function sortedUniqueRows(rows: Buffer[]): Buffer {
  rows.sort(Buffer.compare);
  const out: Buffer[] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last === undefined || last.compare(r, 0, KEY_BYTES, 0, KEY_BYTES) !== 0) out.push(r);
  }
  return Buffer.concat(out);
}

function unpackRows(packed: Buffer): Buffer[] {
  const rows: Buffer[] = [];
  for (let at = 0; at + ROW_BYTES <= packed.length; at += ROW_BYTES) rows.push(packed.subarray(at, at + ROW_BYTES));
  return rows;
}

function row(key: Buffer, index: number): Buffer {
  const r = Buffer.allocUnsafe(ROW_BYTES);
  key.copy(r, 0, 0, KEY_BYTES);
  r.writeUIntBE(index, KEY_BYTES, INDEX_BYTES);
  return r;
}

export class LogLookup {
  private salt: Buffer | undefined;

  private constructor(
    private readonly buckets: Collection<BucketDocument>,
    private readonly state: Collection<LookupState>,
    private readonly log: LogStore,
    private readonly blockEntries: number,
  ) {}

  /** `blockEntries`: entries of a level-0 block (smaller in tests, to reach the merges of several levels). */
  static async open(store: Store, log: LogStore, blockEntries = BLOCK_ENTRIES): Promise<LogLookup> {
    const buckets = store.collection<BucketDocument>("tlog_lookup");
    await buckets.ensureIndexes([{ fields: { bucket: 1 } }, { fields: { level: 1, block: 1 } }]);
    return new LogLookup(buckets, store.collection<LookupState>("tlog_lookup_state"), log, blockEntries);
  }

  /** Entries [0, n) are in the lookup. */
  async indexed(): Promise<number> {
    return (await this.state.findOne({ _id: STATE_ID }))?.indexed ?? 0;
  }

  /** The deployment's salt, made by the first indexer (a reader before it finds none: nothing is indexed). */
  private async saltOf(create: boolean): Promise<Buffer | undefined> {
    if (this.salt) return this.salt;
    const stored = (await this.state.findOne({ _id: SALT_ID }))?.salt;
    if (stored !== undefined) return (this.salt = Buffer.from(stored, "base64"));
    if (!create) return undefined;
    try {
      await this.state.insertOne({ _id: SALT_ID, salt: randomBytes(16).toString("base64") });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    return this.saltOf(false);
  }

  private static keyOf(salt: Buffer, hash: Uint8Array): Buffer {
    return createHash("sha256").update(salt).update(hash).digest().subarray(0, KEY_BYTES);
  }

  /**
   * Adds entries [indexed, size) of the log (they must be in a signed checkpoint: their records are stored). Run
   * by one writer at a time (the calendar's round, under its lease); running it again after a crash is safe.
   */
  async indexUpTo(size: number): Promise<void> {
    const salt = (await this.saltOf(true))!;
    let indexed = await this.indexed();
    while (indexed < size) {
      const block = Math.floor(indexed / this.blockEntries);
      const end = Math.min(size, (block + 1) * this.blockEntries);
      // the block's rows from its start: a partial block is written again as it grows (rows only add up)
      const rows: Buffer[] = [];
      for (let index = block * this.blockEntries; index < end;) {
        const records = await this.log.recordsFrom(index, end - index, { cache: false });
        if (records.length === 0) throw new Error(`The log's record ${index} is not stored; entries up to ${end} cannot be indexed.`);
        for (const record of records) rows.push(row(LogLookup.keyOf(salt, record.subarray(NONCE_BYTES)), index++));
        await yieldToEventLoop();
      }
      await this.writeBlock(0, block, rows);
      if (end === (block + 1) * this.blockEntries) await this.mergeUp(block);
      indexed = end;
      await this.state.updateOne({ _id: STATE_ID }, { $set: { indexed } }, { upsert: true });
    }
  }

  /** Adds rows to the buckets of a block (a union with what they hold). */
  private async writeBlock(level: number, block: number, rows: Buffer[]): Promise<void> {
    const digits = prefixDigits(level);
    const byBucket = new Map<string, Buffer[]>();
    for (const r of rows) {
      const bucket = r.toString("hex", 0, Math.ceil(digits / 2)).slice(0, digits);
      let list = byBucket.get(bucket);
      if (list === undefined) byBucket.set(bucket, (list = []));
      list.push(r);
    }
    let written = 0;
    for (const [bucket, list] of byBucket) {
      const _id = `${level}:${block}:${bucket}`;
      const held = await this.buckets.findOne({ _id });
      const all = held === undefined ? list : [...unpackRows(Buffer.from(held.rows, "base64")), ...list];
      await this.buckets.updateOne(
        { _id },
        { $set: { level, block, bucket, rows: sortedUniqueRows(all).toString("base64") } },
        { upsert: true },
      );
      if (++written % 64 === 0) await yieldToEventLoop();
    }
  }

  /** After level-0 block `block` is full: every level whose 16 blocks are now all full becomes one block above. */
  private async mergeUp(block: number): Promise<void> {
    for (let level = 0, b = block; level < MAX_LEVEL && b % FANOUT === FANOUT - 1; level++, b = Math.floor(b / FANOUT)) {
      const first = b - (FANOUT - 1);
      const children = { level, block: { $gte: first, $lte: b } };
      // bucket by bucket: a merge of high levels never holds the whole block in memory
      // each bucket name once: every child block has its own document of it
      const buckets = new Set((await this.buckets.findProjected(children, { bucket: 1, _id: 0 })).map((d) => d.bucket));
      for (const bucket of buckets) {
        if (bucket === undefined) continue;
        const docs = await this.buckets.find({ ...children, bucket });
        const rows = docs.flatMap((d) => unpackRows(Buffer.from(d.rows, "base64")));
        await this.writeBlock(level + 1, Math.floor(b / FANOUT), rows);
      }
      await this.buckets.deleteMany(children);
    }
  }

  /** Where `hash` is in the indexed part of the log (at most one index per block, the first), in index order. */
  async find(hash: Uint8Array): Promise<FoundEntry[]> {
    const salt = await this.saltOf(false);
    if (salt === undefined) return [];
    const key = LogLookup.keyOf(salt, hash);
    const hex = key.toString("hex");
    const prefixes = Array.from({ length: MAX_LEVEL + 1 }, (_, level) => hex.slice(0, prefixDigits(level)));
    const indices = new Set<number>();
    for (const doc of await this.buckets.find({ bucket: { $in: prefixes } })) {
      const rows = Buffer.from(doc.rows, "base64");
      // rows are sorted: binary search for the first row of this key
      let lo = 0;
      let hi = rows.length / ROW_BYTES;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        // the row's key against the key looked for
        if (rows.compare(key, 0, KEY_BYTES, mid * ROW_BYTES, mid * ROW_BYTES + KEY_BYTES) < 0) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < rows.length / ROW_BYTES && rows.compare(key, 0, KEY_BYTES, i * ROW_BYTES, i * ROW_BYTES + KEY_BYTES) === 0; i++)
        indices.add(rows.readUIntBE(i * ROW_BYTES + KEY_BYTES, INDEX_BYTES));
    }
    const found: FoundEntry[] = [];
    for (const index of [...indices].sort((a, b) => a - b)) {
      const [record] = await this.log.recordsFrom(index, 1);
      // the key is 10 bytes of a hash: the record says whether it is this hash
      if (record !== undefined && Buffer.from(hash).equals(record.subarray(NONCE_BYTES, NONCE_BYTES + HASH_BYTES)))
        found.push({ index, nonce: Buffer.from(record.subarray(0, NONCE_BYTES)) });
    }
    return found;
  }
}
