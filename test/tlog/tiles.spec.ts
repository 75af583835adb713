/**
 * shared/tlog/tiles.ts against c2sp.org/tlog-tiles: the spec's path and size examples, every malformed path form
 * refused, entry bundles round-trip, and proofs computed from tiles alone equal proofs computed from the tree's
 * own hashes (an in-memory tree built here with node:crypto, level by level).
 */
import { expect } from "chai";
import { consistencyProof, inclusionProof, treeRoot } from "../../shared/tlog/rfc9162";
import {
  decodeEntryBundle,
  encodeEntryBundle,
  formatTileIndex,
  formatTilePath,
  hashTile,
  parseTilePath,
  partialTiles,
  tileHashReader,
  tilesOfTree,
  type Tile,
} from "../../shared/tlog/tiles";
import { memoryTree } from "./memory-tree";

describe("tlog tiles: paths", () => {
  it("writes N as x-prefixed 3-digit groups, as the spec's example", () => {
    expect(formatTileIndex(1234067)).to.equal("x001/x234/067");
    expect(formatTileIndex(0)).to.equal("000");
    expect(formatTileIndex(1000)).to.equal("x001/000");
  });

  it("round-trips hash tile and entry bundle paths, full and partial", () => {
    const tiles: Tile[] = [
      { level: 0, index: 0, width: 256 },
      { level: 0, index: 1234067, width: 17 },
      { level: 63, index: 999, width: 1 },
      { level: "entries", index: 1000, width: 255 },
      { level: "entries", index: 5, width: 256 },
    ];
    for (const t of tiles) expect(parseTilePath(formatTilePath(t))).to.deep.equal({ ok: true, value: t });
    expect(formatTilePath({ level: 2, index: 1234067, width: 5 })).to.equal("tile/2/x001/x234/067.p/5");
    expect(formatTilePath({ level: "entries", index: 3, width: 256 })).to.equal("tile/entries/003");
  });

  it("refuses every malformed path", () => {
    for (const bad of [
      "tile/00/000", // leading zero in L
      "tile/64/000", // L above 63
      "tile/-1/000",
      "tile/0/00", // N group not 3 digits
      "tile/0/0000",
      "tile/0/x000/067", // leading zero group
      "tile/0/001/067", // missing x
      "tile/0/x001", // last group with x
      "tile/0/x001/x234",
      "tile/0/067.p/0", // width 0
      "tile/0/067.p/256", // width 256 is a full tile
      "tile/0/067.p/007", // leading zero in W
      "tile/0/067.p/",
      "tile/0/067.p/1a",
      "tile/0/06a",
      "tile/data/000",
      "/tile/0/000",
      "tile/0/000/",
      "tile/entries/x000/001",
      "tile/8/0/000", // Go's sumdb path with a height
    ]) {
      const r = parseTilePath(bad);
      expect(r.ok, bad).to.equal(false);
    }
  });
});

describe("tlog tiles: which tiles a tree has", () => {
  it("matches the spec's example of a tree of 70,000 leaves and of 256 leaves", () => {
    const tiles = tilesOfTree(70000);
    expect(tiles.filter((t) => t.level === 0 && t.width === 256)).to.have.length(273);
    expect(partialTiles(70000)).to.deep.equal([
      { level: 0, index: 273, width: 112 },
      { level: 1, index: 1, width: 17 },
      { level: 2, index: 0, width: 1 },
    ]);
    expect(tiles.filter((t) => t.level === 1)).to.deep.equal([
      { level: 1, index: 0, width: 256 },
      { level: 1, index: 1, width: 17 },
    ]);
    expect(tilesOfTree(256)).to.deep.equal([
      { level: 0, index: 0, width: 256 },
      { level: 1, index: 0, width: 1 },
    ]);
    expect(tilesOfTree(0)).to.deep.equal([]);
  });
});

describe("tlog tiles: entry bundles", () => {
  it("encodes each entry as a big-endian uint16 length and its bytes, and decodes it back", () => {
    const entries = [new Uint8Array(0), Uint8Array.of(7), new Uint8Array(300).fill(9), new Uint8Array(65535)];
    const bundle = encodeEntryBundle(entries);
    expect([...bundle.slice(0, 5)]).to.deep.equal([0, 0, 0, 1, 7]);
    expect([...bundle.slice(5, 7)]).to.deep.equal([1, 44]);
    expect(decodeEntryBundle(bundle)).to.deep.equal({ ok: true, value: entries });
  });

  it("refuses truncated bundles and entries over 65535 bytes", () => {
    expect(decodeEntryBundle(Uint8Array.of(0)).ok).to.equal(false);
    expect(decodeEntryBundle(Uint8Array.of(0, 3, 1, 2)).ok).to.equal(false);
    expect(() => encodeEntryBundle([new Uint8Array(65536)])).to.throw(/65535/);
  });
});

describe("tlog tiles: proofs from tiles alone", () => {
  const SIZE = 70000;
  const tree = memoryTree(SIZE);

  it("a hash tile is the 32-byte hashes at tree level 8·L, concatenated", () => {
    const tile = hashTile({ level: 1, index: 1, width: 17 }, tree.read);
    expect(tile.length).to.equal(17 * 32);
    expect(tile.slice(0, 32)).to.deep.equal(tree.read(8, 256));
  });

  it("gives the same roots and proofs as the tree's own hashes, for sizes around the tile edges", () => {
    for (const size of [1, 2, 255, 256, 257, 511, 512, 65535, 65536, 65537, 69999, SIZE]) {
      const fetched: string[] = [];
      const fromTiles = tileHashReader(size, (tile) => {
        fetched.push(formatTilePath(tile));
        return hashTile(tile, tree.read);
      });
      expect(treeRoot(size, fromTiles), `root ${size}`).to.deep.equal(treeRoot(size, tree.read));
      for (const index of [0, 1, size >> 1, size - 2, size - 1].filter((i) => i >= 0 && i < size))
        expect(inclusionProof(index, size, fromTiles), `${index} of ${size}`).to.deep.equal(inclusionProof(index, size, tree.read));
      for (const from of [1, 255, 256, 300, 65536, size - 1].filter((f) => f > 0 && f <= size))
        expect(consistencyProof(from, size, fromTiles), `${from} → ${size}`).to.deep.equal(consistencyProof(from, size, tree.read));
      // Every tile read is one the tree of this size has.
      const own = new Set(tilesOfTree(size).map(formatTilePath));
      for (const path of fetched) expect(own.has(path), `${path} in a tree of ${size}`).to.equal(true);
    }
  });

  it("refuses a tile of the wrong length with a typed error", () => {
    const read = tileHashReader(300, () => new Uint8Array(10));
    expect(() => read(0, 0)).to.throw(/has 10 bytes/);
  });
});
