/**
 * The transparency log's storage over the store port (SQLite embedded, MongoDB in scale mode), docs/transparency-log.md#storage:
 * - `tlog_rounds`: one document per integration round, `_id` its first index (zero-padded): the atomic claim of the
 *   indices [start, start + count) for the calendar requests' positions it lists. Inserted once; a second sequencer
 *   that read the same size fails on the duplicate `_id`, so two rounds never take one index;
 * - `tlog_records`: the rounds' records (nonce ‖ hash, base64), split at entry-tile boundaries so a tile's records
 *   are read in a few small documents (`_id` `<tile>:<start>`);
 * - `tlog_tiles`: hash tiles of level 1 and up (level 0 is computed from the records), rewritten as they grow: a
 *   tile's hashes are complete-subtree hashes, so its first W hashes never change and serve `.p/W` for any W it has;
 * - `tlog_tile_blocks`: the block hashes (tile-blocks.ts) of each full level-0 tile, written when it fills, so a
 *   proof hashes 16 of its records instead of 256 (2 bytes per entry);
 * - `tlog_state`: the latest signed checkpoint (size, root, the note), moved forward by compare-and-set on the size;
 * - `tlog_witnessed`: the latest checkpoint witnesses cosigned, with their cosignature lines (witnessing.ts).
 * Everything written is a function of the rounds, so a round an interrupted sequencer left half-written is finished
 * the same way by the next one.
 */
import { ByteLru } from "../domain/byte-lru";
import { isDuplicateKeyError, type Collection, type Store, type StoredDocument } from "../store";
import { encodeEntryBundle, formatTilePath, TILE_WIDTH, type Tile } from "../tlog/tiles";
import { entryOfRecord, leafOfRecord, recordAt, RECORD_BYTES } from "./log-entries";
import { blockHashes } from "./tile-blocks";

const HASH = 32;
const INDEX_DIGITS = 15;

export interface RoundDocument extends StoredDocument {
  start: number;
  count: number;
  /** the calendar request positions [from, to) that became indices start… in this order */
  parts: { request: string; from: number; to: number }[];
  /** every later step done: records, tiles, the checkpoint, the requests' log positions */
  done: boolean;
}

interface RecordsDocument extends StoredDocument {
  tile: number;
  start: number;
  /** packed records (nonce ‖ hash), base64 */
  records: string;
}

interface TileDocument extends StoredDocument {
  level: number;
  index: number;
  /** packed hashes, base64 */
  hashes: string;
}

interface TileBlocksDocument extends StoredDocument {
  /** packed block hashes of the full level-0 tile `_id`, base64 */
  blocks: string;
}

export interface LogState extends StoredDocument {
  size: number;
  /** base64 */
  root: string;
  /** the signed checkpoint note */
  checkpoint: string;
  at: number;
}

export const roundId = (start: number): string => String(start).padStart(INDEX_DIGITS, "0");
const STATE_ID = "log";
const WITNESSED_ID = "witnessed";

/** The latest checkpoint that witnesses cosigned: its size and the note with their cosignature lines. */
export interface WitnessedCheckpoint extends StoredDocument {
  size: number;
  note: string;
}

export class LogStore {
  /**
   * tiles and entry bundles by path: a path names a width (`.p/W` for a partial one), and the first W hashes of a
   * tile never change, so whatever a path gave once it gives forever; and the records of full entry tiles
   */
  private readonly servedTiles: ByteLru;

  private constructor(
    readonly rounds: Collection<RoundDocument>,
    private readonly records: Collection<RecordsDocument>,
    private readonly tiles: Collection<TileDocument>,
    private readonly storedBlocks: Collection<TileBlocksDocument>,
    private readonly state: Collection<LogState>,
    private readonly witnessedCheckpoints: Collection<WitnessedCheckpoint>,
    cacheBytes: number,
  ) {
    this.servedTiles = new ByteLru(cacheBytes);
  }

  static async open(store: Store, cacheBytes = 32 * 1024 * 1024): Promise<LogStore> {
    const rounds = store.collection<RoundDocument>("tlog_rounds");
    await rounds.ensureIndexes([{ fields: { done: 1 } }]);
    const records = store.collection<RecordsDocument>("tlog_records");
    await records.ensureIndexes([{ fields: { tile: 1 } }]);
    return new LogStore(
      rounds,
      records,
      store.collection<TileDocument>("tlog_tiles"),
      store.collection<TileBlocksDocument>("tlog_tile_blocks"),
      store.collection<LogState>("tlog_state"),
      store.collection<WitnessedCheckpoint>("tlog_witnessed"),
      cacheBytes,
    );
  }

  async latest(): Promise<LogState | undefined> {
    return this.state.findOne({ _id: STATE_ID });
  }

  /** Moves the checkpoint from `fromSize` to `next`; false when another sequencer moved it first. */
  async advance(fromSize: number, next: Omit<LogState, "_id">): Promise<boolean> {
    // the first checkpoint (of the empty log) is an insert: a second sequencer's fails on the id
    if (fromSize === 0 && (await this.latest()) === undefined) {
      try {
        await this.state.insertOne({ _id: STATE_ID, ...next });
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    }
    const r = await this.state.updateOne({ _id: STATE_ID, size: fromSize }, { $set: { ...next } });
    return r.matchedCount === 1;
  }

  /** The latest checkpoint witnesses cosigned, if any. */
  async witnessed(): Promise<WitnessedCheckpoint | undefined> {
    return this.witnessedCheckpoints.findOne({ _id: WITNESSED_ID });
  }

  /** The latest checkpoint as served: with its witnesses' cosignatures once they came. */
  async servedCheckpoint(): Promise<{ size: number; note: string } | undefined> {
    const [state, witnessed] = await Promise.all([this.latest(), this.witnessed()]);
    if (state === undefined) return undefined;
    return { size: state.size, note: witnessed?.size === state.size ? witnessed.note : state.checkpoint };
  }

  /**
   * The checkpoint a proof of entry `index` is best made against: the latest cosigned one when it holds the entry
   * (a proof that witnesses back), else the latest; undefined while no checkpoint holds it.
   */
  async checkpointHolding(index: number): Promise<{ size: number; note: string } | undefined> {
    const [state, witnessed] = await Promise.all([this.latest(), this.witnessed()]);
    if (witnessed !== undefined && index < witnessed.size) return { size: witnessed.size, note: witnessed.note };
    return state !== undefined && index < state.size ? { size: state.size, note: state.checkpoint } : undefined;
  }

  /** Keeps `note` (a checkpoint with cosignature lines) unless a larger size is kept already. */
  async saveWitnessed(size: number, note: string): Promise<void> {
    try {
      await this.witnessedCheckpoints.updateOne({ _id: WITNESSED_ID, size: { $lte: size } }, { $set: { size, note } }, { upsert: true });
    } catch (err) {
      // a larger size is kept (the upsert met its id)
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /** Stores a round's records split at entry-tile boundaries (idempotent: the ids and contents follow from the round). */
  async saveRecords(start: number, packed: Buffer): Promise<void> {
    const count = packed.length / RECORD_BYTES;
    for (let i = 0; i < count;) {
      const index = start + i;
      const tile = Math.floor(index / TILE_WIDTH);
      const n = Math.min(count - i, (tile + 1) * TILE_WIDTH - index);
      const doc = { tile, start: index, records: packed.subarray(i * RECORD_BYTES, (i + n) * RECORD_BYTES).toString("base64") };
      await this.records.updateOne({ _id: `${tile}:${index}` }, { $set: doc }, { upsert: true });
      // the embedded store writes synchronously: leave the event loop to the requests every few tiles
      if (tile % 16 === 15) await new Promise((resolve) => setImmediate(resolve));
      i += n;
    }
  }

  /** Writes a hash tile of level ≥ 1 as it is now (its first hashes never change). */
  async saveTile(level: number, index: number, hashes: Buffer): Promise<void> {
    await this.tiles.updateOne(
      { _id: `${level}/${index}` },
      { $set: { level, index, hashes: hashes.toString("base64") } },
      { upsert: true },
    );
  }

  /** Keeps the block hashes of level-0 tile `index`, now full. */
  async saveTileBlocks(index: number, blocks: Buffer): Promise<void> {
    await this.storedBlocks.updateOne({ _id: String(index) }, { $set: { blocks: blocks.toString("base64") } }, { upsert: true });
  }

  /**
   * The block hashes of a hash tile the log holds (undefined when it does not): a full level-0 tile's as stored when
   * it filled, any other's computed from the tile once and kept beside the served tiles (level ≥ 1 tiles are few).
   */
  async tileBlocks(tile: Tile): Promise<Buffer | undefined> {
    const key = `blocks/${formatTilePath(tile)}`;
    const cached = this.servedTiles.get(key);
    if (cached !== undefined) return Buffer.from(cached.buffer, cached.byteOffset, cached.length);
    let blocks: Buffer | undefined;
    if (tile.level === 0 && tile.width === TILE_WIDTH) {
      const doc = await this.storedBlocks.findOne({ _id: String(tile.index) });
      if (doc !== undefined) blocks = Buffer.from(doc.blocks, "base64");
    }
    if (blocks === undefined) {
      // a partial tile, a level ≥ 1 tile, or a level-0 tile filled before the blocks were kept
      const bytes = await this.tile(tile);
      if (bytes === undefined) return undefined;
      blocks = blockHashes(bytes, tile.width);
    }
    this.servedTiles.set(key, blocks);
    return blocks;
  }

  /**
   * The records of entry tile `tile` stored so far, packed in index order. A full tile's never change: they are kept
   * beside the served tiles, so a proof reading its entry's record and then its level-0 tile reads them once.
   */
  async tileRecords(tile: number, opts: { cache: boolean } = { cache: true }): Promise<Buffer> {
    const key = `records/${tile}`;
    const cached = this.servedTiles.get(key);
    if (cached !== undefined) return Buffer.from(cached.buffer, cached.byteOffset, cached.length);
    const docs = await this.records.find({ tile }, { sort: { start: 1 } });
    const parts: Buffer[] = [];
    let next = tile * TILE_WIDTH;
    for (const d of docs) {
      if (d.start !== next) break; // a gap: a round still being written
      const b = Buffer.from(d.records, "base64");
      parts.push(b);
      next += b.length / RECORD_BYTES;
    }
    const packed = Buffer.concat(parts);
    if (opts.cache && packed.length === TILE_WIDTH * RECORD_BYTES) this.servedTiles.set(key, packed);
    return packed;
  }

  /**
   * Up to `max` stored records (nonce ‖ hash) from `index` on, within `index`'s entry tile; none when not stored.
   * `cache: false` for a pass over the whole log (the lookups' indexing), which would only push hot tiles out.
   */
  async recordsFrom(index: number, max: number, opts: { cache: boolean } = { cache: true }): Promise<Buffer[]> {
    const tile = Math.floor(index / TILE_WIDTH);
    const packed = await this.tileRecords(tile, opts);
    const out: Buffer[] = [];
    for (let i = index - tile * TILE_WIDTH; i < packed.length / RECORD_BYTES && out.length < max; i++) out.push(recordAt(packed, i));
    return out;
  }

  /**
   * A hash tile or entry bundle of a log of at least `tile`'s extent, or undefined when the log does not hold it (yet).
   * Level 0 and entry bundles come from the records; level ≥ 1 from the stored tiles.
   */
  async tile(tile: Tile): Promise<Buffer | undefined> {
    const key = formatTilePath(tile);
    const cached = this.servedTiles.get(key);
    if (cached !== undefined) return Buffer.from(cached.buffer, cached.byteOffset, cached.length);
    const bytes = await this.readTile(tile);
    // the right edge's partial tiles too: every proof against one checkpoint reads the same ones
    if (bytes !== undefined) this.servedTiles.set(key, bytes);
    return bytes;
  }

  private async readTile(tile: Tile): Promise<Buffer | undefined> {
    if (tile.level === "entries" || tile.level === 0) {
      const packed = await this.tileRecords(tile.index);
      if (packed.length < tile.width * RECORD_BYTES) return undefined;
      const records = Array.from({ length: tile.width }, (_, i) => recordAt(packed, i));
      return Buffer.from(tile.level === 0 ? Buffer.concat(records.map(leafOfRecord)) : encodeEntryBundle(records.map(entryOfRecord)));
    }
    const doc = await this.tiles.findOne({ _id: `${tile.level}/${tile.index}` });
    if (doc === undefined) return undefined;
    const hashes = Buffer.from(doc.hashes, "base64");
    return hashes.length >= tile.width * HASH ? hashes.subarray(0, tile.width * HASH) : undefined;
  }
}
