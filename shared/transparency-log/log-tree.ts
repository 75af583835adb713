/**
 * The log's Merkle tree read through its tiles (c2sp.org/tlog-tiles over RFC 9162): roots, inclusion and consistency
 * proofs of any size the log has reached, and the tile updates a round makes. The library computes from a
 * synchronous tile reader; the tiles live in the store, so a computation first runs on placeholder tiles to learn
 * which tiles it reads (the tiles read never depend on the hashes), then on the tiles loaded.
 */
import { consistencyProof, inclusionProof, nodeHash, treeRoot, type HashReader } from "../tlog/rfc9162";
import { formatTilePath, TILE_WIDTH, tileHashReader, tileOfHash, type Tile } from "../tlog/tiles";
import type { LogStore } from "./log-store";

const HASH = 32;

export class TileMissingError extends Error {
  override readonly name = "TileMissingError";
}

/**
 * Runs `compute` over the tiles of a tree of `size` leaves, loaded from the store: a first run on a reader that
 * only notes which hashes it is asked (no hashing: the hashes asked never depend on their values) gives the tiles
 * to load, the second runs on them.
 */
export async function computeFromTiles<T>(store: LogStore, size: number, compute: (read: HashReader) => T): Promise<T> {
  const wanted = new Map<string, Tile>();
  const placeholder = new Uint8Array(HASH);
  compute((level, index) => {
    const { tile } = tileOfHash(size, level, index);
    wanted.set(formatTilePath(tile), tile);
    return placeholder;
  });
  const loaded = new Map<string, Uint8Array>();
  await Promise.all(
    [...wanted].map(async ([path, tile]) => {
      const bytes = await store.tile(tile);
      if (bytes === undefined) throw new TileMissingError(`The log has no ${path} yet.`);
      loaded.set(path, bytes);
    }),
  );
  return compute(tileHashReader(size, (tile) => loaded.get(formatTilePath(tile))!));
}

export const rootAt = (store: LogStore, size: number): Promise<Uint8Array> => computeFromTiles(store, size, (read) => treeRoot(size, read));

export const inclusionAt = (store: LogStore, index: number, size: number): Promise<Uint8Array[]> =>
  computeFromTiles(store, size, (read) => inclusionProof(index, size, read));

export const consistencyBetween = (store: LogStore, from: number, to: number): Promise<Uint8Array[]> =>
  computeFromTiles(store, to, (read) => consistencyProof(from, to, read));

/** MTH of a full tile's 256 hashes: the hash it contributes to the tile level above. */
function hashOfFullTile(hashes: Uint8Array): Uint8Array {
  let level = Array.from({ length: TILE_WIDTH }, (_, i) => hashes.subarray(i * HASH, (i + 1) * HASH));
  while (level.length > 1) level = Array.from({ length: level.length / 2 }, (_, i) => nodeHash(level[2 * i]!, level[2 * i + 1]!));
  return level[0]!;
}

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
        completed.push(hashOfFullTile(content));
      }
      i += n;
    }
    level += 1;
    first = completedFirst;
    hashes = completed;
  }
}
