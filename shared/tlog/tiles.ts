/**
 * c2sp.org/tlog-tiles §Merkle Tree and §Log entries: tiles of height 8 (256 hashes wide), their paths
 * `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`, which tiles a tree of a given size consists of, the bytes
 * of a hash tile and of an entry bundle, and a HashReader over tiles alone (how a client computes proofs).
 */
import { concatBytes, type Result, ok, fail } from "./encoding";
import { TlogError, badArgument } from "./errors";
import { HASH_SIZE, type HashReader, nodeHash } from "./rfc9162";

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;
const MAX_LEVEL = 63;
const MAX_ENTRY_SIZE = 0xffff;

/** A hash tile (level ≥ 0) or an entry bundle (level "entries"); width 256 is a full tile, 1..255 a partial one. */
export interface Tile {
  level: number | "entries";
  index: number;
  width: number;
}

/** N as zero-padded 3-digit elements, all but the last prefixed with x: 1234067 → x001/x234/067. */
export function formatTileIndex(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) badArgument(`tile index ${index} is not a non-negative integer`, { index });
  const groups: string[] = [];
  let n = index;
  do {
    groups.unshift(String(n % 1000).padStart(3, "0"));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join("/");
}

export function formatTilePath(tile: Tile): string {
  const { level, index, width } = tile;
  if (level !== "entries" && (!Number.isInteger(level) || level < 0 || level > MAX_LEVEL))
    badArgument(`tile level ${level} is not in 0..63`, { level });
  if (!Number.isInteger(width) || width < 1 || width > TILE_WIDTH) badArgument(`tile width ${width} is not in 1..256`, { width });
  return `tile/${level}/${formatTileIndex(index)}${width < TILE_WIDTH ? `.p/${width}` : ""}`;
}

/** Parses a tile path (no prefix, no leading slash), refusing every form but the one formatTilePath writes. */
export function parseTilePath(path: string): Result<Tile> {
  const m = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/.exec(path);
  if (!m) return fail(`"${path}" is not tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>]`);
  const level = m[1] === "entries" ? "entries" : Number(m[1]);
  if (level !== "entries" && level > MAX_LEVEL) return fail(`tile level ${level} is above 63`);
  const groups = m[2]!.split("/").map((g) => g.replace("x", ""));
  if (groups.length > 1 && groups[0] === "000") return fail(`tile index "${m[2]}" has a leading zero group`);
  const index = groups.reduce((n, g) => n * 1000 + Number(g), 0);
  if (!Number.isSafeInteger(index)) return fail(`tile index "${m[2]}" is too large`);
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if (m[3] !== undefined && width >= TILE_WIDTH) return fail(`partial tile width ${width} is not in 1..255`);
  return ok({ level, index, width });
}

/** How many hashes tile level `level` holds in a tree of `size` leaves: floor(size / 256^level). */
export function hashesAtLevel(size: number, level: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/** Every hash tile of a tree of `size` leaves, full ones then the partial one of each level, lowest level first. */
export function tilesOfTree(size: number): Tile[] {
  const tiles: Tile[] = [];
  for (let level = 0; hashesAtLevel(size, level) > 0; level++) {
    const count = hashesAtLevel(size, level);
    for (let index = 0; index < Math.floor(count / TILE_WIDTH); index++) tiles.push({ level, index, width: TILE_WIDTH });
    if (count % TILE_WIDTH > 0) tiles.push({ level, index: Math.floor(count / TILE_WIDTH), width: count % TILE_WIDTH });
  }
  return tiles;
}

/** The partial tiles of a tree of `size` leaves (those that change when the tree grows). */
export function partialTiles(size: number): Tile[] {
  const tiles: Tile[] = [];
  for (let level = 0; hashesAtLevel(size, level) > 0; level++) {
    const count = hashesAtLevel(size, level);
    if (count % TILE_WIDTH > 0) tiles.push({ level, index: Math.floor(count / TILE_WIDTH), width: count % TILE_WIDTH });
  }
  return tiles;
}

/** The bytes of hash tile (level, index, width): the hashes at tree level 8·level, 32 bytes each, concatenated. */
export function hashTile(tile: Tile, read: HashReader): Uint8Array {
  if (tile.level === "entries") return badArgument("an entry bundle is not a hash tile");
  const first = tile.index * TILE_WIDTH;
  return concatBytes(...Array.from({ length: tile.width }, (_, i) => read(TILE_HEIGHT * (tile.level as number), first + i)));
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [i, e] of entries.entries()) {
    if (e.length > MAX_ENTRY_SIZE) badArgument(`entry ${i} has ${e.length} bytes; a bundle entry holds at most 65535`, { entry: i });
    parts.push(Uint8Array.of(e.length >> 8, e.length & 255), e);
  }
  return concatBytes(...parts);
}

export function decodeEntryBundle(bundle: Uint8Array): Result<Uint8Array[]> {
  const entries: Uint8Array[] = [];
  for (let at = 0; at < bundle.length;) {
    if (at + 2 > bundle.length) return fail(`the bundle ends inside the length of entry ${entries.length}`);
    const length = (bundle[at]! << 8) | bundle[at + 1]!;
    if (at + 2 + length > bundle.length) return fail(`entry ${entries.length} claims ${length} bytes past the bundle's end`);
    entries.push(bundle.slice(at + 2, at + 2 + length));
    at += 2 + length;
  }
  if (entries.length > TILE_WIDTH) return fail(`the bundle holds ${entries.length} entries, more than 256`);
  return ok(entries);
}

/**
 * Where the hash of the complete subtree (level, index) of a tree of `size` leaves is kept: the tile at level
 * floor(level/8) with the width the tree of this size has, its `span` = 2^(level mod 8) hashes from position `at`.
 */
export function tileOfHash(size: number, level: number, index: number): { tile: Tile; at: number; span: number } {
  const tileLevel = Math.floor(level / TILE_HEIGHT);
  const span = 2 ** (level % TILE_HEIGHT);
  const first = index * span;
  const tileIndex = Math.floor(first / TILE_WIDTH);
  const available = hashesAtLevel(size, tileLevel) - tileIndex * TILE_WIDTH;
  const width = Math.min(TILE_WIDTH, available);
  const at = first % TILE_WIDTH;
  if (at + span > width) badArgument(`subtree ${level}/${index} is not complete in a tree of ${size}`, { level, index, size });
  return { tile: { level: tileLevel, index: tileIndex, width }, at, span };
}

/**
 * A HashReader for a tree of `size` leaves that reads only hash tiles, as a client does: the tile that holds the
 * subtree's hashes (tileOfHash), then hashes up the remaining level mod 8 levels. `fetchTile` returns the tile's
 * bytes (cache it: the reader asks for a tile many times).
 */
export function tileHashReader(size: number, fetchTile: (tile: Tile) => Uint8Array): HashReader {
  return (level, index) => {
    const { tile, at, span } = tileOfHash(size, level, index);
    const bytes = fetchTile(tile);
    if (bytes.length !== tile.width * HASH_SIZE)
      throw new TlogError("TLOG_BAD_TILE", `tile ${formatTilePath(tile)} has ${bytes.length} bytes, not ${tile.width * HASH_SIZE}`, {
        tile,
      });
    let hashes: Uint8Array[] = Array.from({ length: span }, (_, i) => bytes.slice((at + i) * HASH_SIZE, (at + i + 1) * HASH_SIZE));
    while (hashes.length > 1) hashes = Array.from({ length: hashes.length / 2 }, (_, i) => nodeHash(hashes[2 * i]!, hashes[2 * i + 1]!));
    return hashes[0]!;
  };
}
