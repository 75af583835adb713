// Persistence: the chain is a genesis description plus an append-only log of blocks (one JSON line each, with the
// transactions' CBOR). On start the devnet replays — and re-validates — every block from this log.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { devnetSetupError } from "./errors";
import type { GenesisFund } from "./genesis";

export interface LoggedBlock {
  height: number;
  slot: number;
  id: string;
  txs: string[];
}

export interface ChainDescription {
  systemStartMs: number;
  genesis: GenesisFund[];
}

const CHAIN_FILE = "chain.json";
const BLOCKS_FILE = "blocks.jsonl";

export class BlockLog {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** The stored chain description, if this directory holds a chain. */
  readChain(): ChainDescription | undefined {
    const path = join(this.dir, CHAIN_FILE);
    if (!existsSync(path)) return undefined;
    const raw = JSON.parse(readFileSync(path, "utf8")) as { systemStartMs: number; genesis: { address: string; lovelace: string }[] };
    return { systemStartMs: raw.systemStartMs, genesis: raw.genesis.map((g) => ({ address: g.address, lovelace: BigInt(g.lovelace) })) };
  }

  writeChain(chain: ChainDescription): void {
    const text = JSON.stringify({
      systemStartMs: chain.systemStartMs,
      genesis: chain.genesis.map((g) => ({ address: g.address, lovelace: g.lovelace.toString() })),
    });
    writeFileSync(join(this.dir, CHAIN_FILE), `${text}\n`);
    if (!existsSync(join(this.dir, BLOCKS_FILE))) writeFileSync(join(this.dir, BLOCKS_FILE), "");
  }

  /**
   * Every logged block, in order.
   * @throws DevnetError BLOCK_LOG_CORRUPT when a line is not a block (a torn last line from a crash is ignored).
   */
  readBlocks(): LoggedBlock[] {
    const path = join(this.dir, BLOCKS_FILE);
    if (!existsSync(path)) return [];
    const lines = readFileSync(path, "utf8").split("\n");
    const blocks: LoggedBlock[] = [];
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        blocks.push(JSON.parse(line) as LoggedBlock);
      } catch {
        if (i === lines.length - 1) return;
        throw devnetSetupError("BLOCK_LOG_CORRUPT", `line ${i + 1} of ${path} is not a block`, { path, line: i + 1 });
      }
    });
    return blocks;
  }

  append(block: LoggedBlock): void {
    appendFileSync(join(this.dir, BLOCKS_FILE), `${JSON.stringify(block)}\n`);
  }

  /** Replaces the log (after a rollback) atomically. */
  rewrite(blocks: readonly LoggedBlock[]): void {
    const path = join(this.dir, BLOCKS_FILE);
    writeFileSync(`${path}.tmp`, blocks.map((b) => `${JSON.stringify(b)}\n`).join(""));
    renameSync(`${path}.tmp`, path);
  }
}
