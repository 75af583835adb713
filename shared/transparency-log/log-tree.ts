/**
 * The log's Merkle tree read through its tiles (c2sp.org/tlog-tiles over RFC 9162): roots, inclusion and consistency
 * proofs of any size the log has reached, and the tile updates a round makes. The library computes from a
 * synchronous hash reader; the tiles live in the store, so a computation first runs on placeholder hashes to learn
 * which tiles it reads (the tiles read never depend on the hashes), then on the tiles loaded.
 */
import { consistencyProof, inclusionProof, treeRoot, type HashReader } from "../tlog/rfc9162";
import { formatTilePath, TILE_WIDTH, tileOfHash, type Tile } from "../tlog/tiles";
import { leafOfRecord, recordAt, RECORD_BYTES } from "./log-entries";
import type { LogStore } from "./log-store";
import { BLOCK_WIDTH, blockHashes, completeSubtreeHash, hashesOf } from "./tile-blocks";

const HASH = 32;

export class TileMissingError extends Error {
  override readonly name = "TileMissingError";
}

/** A tile loaded for a computation: its hashes (computed on demand for an entry tile) and its block hashes. */
interface LoadedTile {
  row(i: number): Uint8Array;
  blocks: Buffer;
}

async function loadTile(store: LogStore, tile: Tile, path: string): Promise<LoadedTile> {
  const missing = () => new TileMissingError(`The log has no ${path} yet.`);
  const blocks = await store.tileBlocks(tile);
  if (blocks === undefined) throw missing();
  if (tile.level === 0 && tile.width === TILE_WIDTH) {
    // a full entry tile: the rows a computation asks for are the leaves of at most one block (the blocks give the rest)
    const records = await store.tileRecords(tile.index);
    if (records.length < TILE_WIDTH * RECORD_BYTES) throw missing();
    return { row: (i) => leafOfRecord(recordAt(records, i)), blocks };
  }
  const bytes = await store.tile(tile);
  if (bytes === undefined) throw missing();
  return { row: (i) => bytes.subarray(i * HASH, (i + 1) * HASH), blocks };
}

/**
 * Runs `compute` over the tiles of a tree of `size` leaves, loaded from the store: a first run on a reader that
 * only notes which hashes it is asked (no hashing: the hashes asked never depend on their values) gives the tiles
 * to load, the second runs on them, a subtree of 16 hashes or more from the tile's block hashes.
 */
export async function computeFromTiles<T>(store: LogStore, size: number, compute: (read: HashReader) => T): Promise<T> {
  const wanted = new Map<string, Tile>();
  const placeholder = new Uint8Array(HASH);
  compute((level, index) => {
    const { tile } = tileOfHash(size, level, index);
    wanted.set(formatTilePath(tile), tile);
    return placeholder;
  });
  const loaded = new Map<string, LoadedTile>();
  await Promise.all([...wanted].map(async ([path, tile]) => loaded.set(path, await loadTile(store, tile, path))));
  return compute((level, index) => {
    const { tile, at, span } = tileOfHash(size, level, index);
    const { row, blocks } = loaded.get(formatTilePath(tile))!;
    if (span >= BLOCK_WIDTH) return completeSubtreeHash(hashesOf(blocks, at / BLOCK_WIDTH, span / BLOCK_WIDTH));
    return completeSubtreeHash(Array.from({ length: span }, (_, i) => row(at + i)));
  });
}

export const rootAt = (store: LogStore, size: number): Promise<Uint8Array> => computeFromTiles(store, size, (read) => treeRoot(size, read));

export const inclusionAt = (store: LogStore, index: number, size: number): Promise<Uint8Array[]> =>
  computeFromTiles(store, size, (read) => inclusionProof(index, size, read));

export const consistencyBetween = (store: LogStore, from: number, to: number): Promise<Uint8Array[]> =>
  computeFromTiles(store, to, (read) => consistencyProof(from, to, read));

/**
 * Adds the leaf hashes of indices [from, from + leaves.length) to the stored tiles: each level-0 tile that fills
 * gives a hash to level 1, and so on up; every tile of level ≥ 1 that changed is written. Level-0 tiles are the
 * records' own (written before). Deterministic: running it twice writes the same tiles.
 */
export async function addLeavesToTiles(store: LogStore, from: number, leaves: readonly Uint8Array[]): Promise<void> {
  let level = 0;
  let first = from;
  let hashes = leaves;
  while (hashes.length > 0) {
    const completed: Uint8Array[] = [];
    let completedFirst = -1;
    for (let i = 0; i < hashes.length;) {
      const index = first + i;
      const tile = Math.floor(index / TILE_WIDTH);
      const offset = index - tile * TILE_WIDTH;
      const n = Math.min(hashes.length - i, TILE_WIDTH - offset);
      const before = offset === 0 ? Buffer.alloc(0) : await store.tile({ level, index: tile, width: offset });
      if (before === undefined) throw new TileMissingError(`The log has no tile ${level}/${tile} of width ${offset} to extend.`);
      const content = Buffer.concat([before, ...hashes.slice(i, i + n)]);
      if (level > 0) await store.saveTile(level, tile, content);
      if (offset + n === TILE_WIDTH) {
        if (completedFirst < 0) completedFirst = tile;
        // the tile's hash for the level above, through its block hashes (kept for a level-0 tile)
        const blocks = blockHashes(content, TILE_WIDTH);
        if (level === 0) await store.saveTileBlocks(tile, blocks);
        completed.push(completeSubtreeHash(hashesOf(blocks, 0, TILE_WIDTH / BLOCK_WIDTH)));
      }
      i += n;
    }
    level += 1;
    first = completedFirst;
    hashes = completed;
  }
}
