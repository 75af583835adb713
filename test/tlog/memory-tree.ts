/**
 * An in-memory Merkle tree for the tests, built level by level with node:crypto (independent of the library):
 * every complete subtree hash of `size` leaves "entry 0", "entry 1", …
 */
import { sha256 } from "./reference";

export interface MemoryTree {
  entries: Uint8Array[];
  levels: Uint8Array[][];
  read: (level: number, index: number) => Uint8Array;
}

export function memoryTree(size: number, entry = (i: number) => new TextEncoder().encode(`entry ${i}`)): MemoryTree {
  const entries = Array.from({ length: size }, (_, i) => entry(i));
  const levels: Uint8Array[][] = [entries.map((e) => sha256(Uint8Array.of(0), e))];
  while (levels[levels.length - 1]!.length > 1) {
    const below = levels[levels.length - 1]!;
    levels.push(Array.from({ length: Math.floor(below.length / 2) }, (_, i) => sha256(Uint8Array.of(1), below[2 * i]!, below[2 * i + 1]!)));
  }
  const read = (level: number, index: number) => {
    const h = levels[level]?.[index];
    if (!h) throw new Error(`no complete subtree ${level}/${index} in a tree of ${size}`);
    return h;
  };
  return { entries, levels, read };
}
