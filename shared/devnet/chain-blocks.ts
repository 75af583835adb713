// The devnet's chain: its blocks, the confirmed UTxO set they lead to, and the rule engine's state after each recent
// block (for rollbacks). A block keeps its transactions' bytes and UTxO effects, and its Ogmios JSON text while the
// text fits the cache budget (newest blocks first); older blocks are projected again when asked for.
import type { Emulator } from "scalus";
import { bigintJson } from "./bigint-json";
import { blockId, projectBlock } from "./block";
import type { LoggedBlock } from "./block-log";
import { decodeTransaction, isValidAtSlot, type DecodedTransaction } from "./decoded-transaction";
import { devnetSetupError } from "./errors";
import { toHex } from "./ledger-digest";
import type { OgmiosBlock } from "./ogmios-types";
import type { RuleEngine } from "./rule-engine";
import { utxoEntry, UtxoSet, type UtxoEntry } from "./utxo-set";

/** A transaction accepted into the mempool, with the UTxO entries it creates (projected once). */
export interface PendingTransaction {
  tx: DecodedTransaction;
  produced: UtxoEntry[];
}

/** A transaction in a block: only its bytes and UTxO effects are kept (decoded again when projected). */
interface ConfirmedTransaction {
  id: string;
  bytes: Uint8Array;
  consumed: string[];
  produced: UtxoEntry[];
}

export interface ChainBlock {
  height: number;
  slot: number;
  id: string;
  ancestor: string | "genesis";
  txs: ConfirmedTransaction[];
  /** Entries this block removed from the confirmed set, for undo on rollback. */
  removed: UtxoEntry[];
  /** Rule-engine state after this block; kept for the most recent blocks only. */
  state?: Emulator;
  /** The block's Ogmios JSON text, while it fits in the cache budget (newest blocks first). */
  json?: string;
}

export type DevnetPoint = { slot: number; id: string } | "origin";
export type DevnetTip = { slot: number; id: string; height: number } | "origin";

/** Rule-engine snapshots kept for rollbacks (snapshots share structure; deeper rollbacks replay from genesis). */
const RECENT_STATES = 128;

/** Default budget of the serialized-block cache. */
export const DEFAULT_BLOCK_JSON_CACHE_BYTES = 32 * 1024 * 1024;

/** Keeps what a block needs of a mempool transaction and releases its decoded (wasm) form. */
function confirm(p: PendingTransaction): ConfirmedTransaction {
  const confirmed = { id: p.tx.id, bytes: p.tx.bytes, consumed: p.tx.consumed, produced: p.produced };
  p.tx.fixed.free();
  return confirmed;
}

/** A decoded transaction with the UTxO entries it creates. */
export function pendingOf(tx: DecodedTransaction): PendingTransaction {
  return { tx, produced: tx.produced.map((p) => utxoEntry(p.txId, p.index, p.outputCbor)) };
}

/** Decodes a confirmed transaction back into a mempool one (rollback), reusing its UTxO entries. */
export function unconfirm(c: ConfirmedTransaction): PendingTransaction {
  return { tx: decodeTransaction(toHex(c.bytes)), produced: c.produced };
}

/** A block as the block log keeps it. */
export function loggedBlock(block: ChainBlock): LoggedBlock {
  return { height: block.height, slot: block.slot, id: block.id, txs: block.txs.map((t) => toHex(t.bytes)) };
}

export class ChainBlocks {
  private readonly blocks: ChainBlock[] = [];
  /** The UTxO set after the last block (what queries answer). */
  readonly confirmed: UtxoSet;
  /** Blocks holding their JSON text are at this height or above; their texts' total length (`jsonCacheBytes`). */
  private oldestCachedHeight = 1;
  private cachedJsonBytes = 0;

  constructor(
    genesis: readonly UtxoEntry[],
    private readonly engine: RuleEngine,
    /** The rule engine's state at genesis (rollbacks to origin, deep replays). */
    private readonly genesisState: Emulator,
    /** Budget of the blocks' JSON texts (0 = none kept). */
    readonly jsonCacheBytes: number,
  ) {
    this.confirmed = new UtxoSet(genesis);
  }

  /** Number of blocks (the height of the tip; 0 at origin). */
  get height(): number {
    return this.blocks.length;
  }

  /** The last block, if any. */
  tipBlock(): ChainBlock | undefined {
    return this.blocks.at(-1);
  }

  /**
   * Appends a block of `pending` (already applied to the engine's confirmed state) at `slot`: the confirmed set
   * follows, the engine's state is kept for rollbacks.
   */
  append(slot: number, pending: readonly PendingTransaction[]): ChainBlock {
    const tip = this.blocks.at(-1);
    const height = (tip?.height ?? 0) + 1;
    const ancestor = tip?.id ?? "genesis";
    const removed: UtxoEntry[] = [];
    for (const p of pending) removed.push(...this.confirmed.apply(p.tx.consumed, p.produced));
    const txs = pending.map(confirm);
    const block: ChainBlock = {
      height,
      slot,
      ancestor,
      txs,
      removed,
      id: blockId(
        ancestor,
        height,
        slot,
        txs.map((t) => t.id),
      ),
      state: this.engine.snapshotConfirmed(),
    };
    this.blocks.push(block);
    const old = this.blocks[this.blocks.length - 1 - RECENT_STATES];
    if (old) delete old.state;
    return block;
  }

  /**
   * Rebuilds the chain from the block log, re-validating every transaction at its block's slot.
   * @throws DevnetError BLOCK_LOG_INVALID when a transaction does not re-validate or a block's id differs
   */
  replay(logged: readonly LoggedBlock[]): void {
    for (const entry of logged) {
      const txs: PendingTransaction[] = [];
      for (const hex of entry.txs) {
        const tx = decodeTransaction(hex);
        const verdict = isValidAtSlot(tx, entry.slot)
          ? this.engine.submit(tx.bytes, entry.slot)
          : { accepted: false as const, message: "outside of its validity interval", logs: [] };
        if (!verdict.accepted) {
          throw devnetSetupError(
            "BLOCK_LOG_INVALID",
            `block ${entry.height}: transaction ${tx.id} does not re-validate: ${verdict.message}`,
            {
              height: entry.height,
              transaction: tx.id,
            },
          );
        }
        txs.push(pendingOf(tx));
      }
      this.engine.confirmPending();
      const block = this.append(entry.slot, txs);
      if (block.id !== entry.id) {
        throw devnetSetupError("BLOCK_LOG_INVALID", `block ${entry.height} replays to id ${block.id}, log says ${entry.id}`, {
          height: entry.height,
        });
      }
    }
  }

  /**
   * Removes the last `count` blocks (at most the chain's height): the confirmed set and the engine's confirmed state
   * go back to the new tip.
   * @returns the removed blocks, oldest first
   */
  removeLast(count: number): ChainBlock[] {
    const dropped = this.blocks.splice(this.blocks.length - count, count);
    this.cachedJsonBytes = dropped.reduce((n, b) => n - (b.json?.length ?? 0), this.cachedJsonBytes);
    this.oldestCachedHeight = Math.min(this.oldestCachedHeight, this.blocks.length + 1);
    for (const block of [...dropped].reverse()) {
      for (const t of [...block.txs].reverse()) for (const e of t.produced) this.confirmed.remove(e.key);
      for (const e of block.removed) this.confirmed.add(e);
    }
    const tip = this.blocks.at(-1);
    if (!tip) this.engine.restoreConfirmed(this.genesisState);
    else if (tip.state) this.engine.restoreConfirmed(tip.state);
    else this.replayEngineTo(this.blocks.length);
    return dropped;
  }

  /** Re-validates the chain from genesis up to `height` to rebuild the rule-engine state (old rollbacks only). */
  private replayEngineTo(height: number): void {
    this.engine.restoreConfirmed(this.genesisState);
    for (const block of this.blocks.slice(0, height)) {
      for (const t of block.txs) this.engine.submit(t.bytes, block.slot);
      this.engine.confirmPending();
    }
  }

  /** Every block, as the block log keeps them. */
  logged(): LoggedBlock[] {
    return this.blocks.map(loggedBlock);
  }

  /** The block at `height` (1-based), as Ogmios JSON. */
  blockAt(height: number): OgmiosBlock | undefined {
    const block = this.blocks[height - 1];
    return block ? this.blockJson(block) : undefined;
  }

  /** The block at `height` (1-based) as Ogmios JSON text: the cached text, else projected and serialized now. */
  blockTextAt(height: number): string | undefined {
    const block = this.blocks[height - 1];
    if (!block) return undefined;
    return block.json ?? bigintJson.stringify(this.blockJson(block));
  }

  /** The height of the block at `point`, 0 for origin, undefined if the point is not on the chain. */
  heightOf(point: DevnetPoint): number | undefined {
    if (point === "origin") return 0;
    const block = this.blocks.find((b) => b.slot === point.slot && b.id === point.id);
    return block?.height;
  }

  /** A new block's Ogmios JSON, its text kept in the cache (forgetting the oldest cached texts beyond the budget). */
  newBlockJson(block: ChainBlock): OgmiosBlock {
    const json = this.blockJson(block);
    if (this.jsonCacheBytes === 0) return json;
    const text = bigintJson.stringify(json);
    block.json = text;
    this.cachedJsonBytes += text.length;
    while (this.cachedJsonBytes > this.jsonCacheBytes && this.oldestCachedHeight <= this.blocks.length) {
      const old = this.blocks[this.oldestCachedHeight - 1]!;
      this.oldestCachedHeight += 1;
      if (old.json !== undefined) {
        this.cachedJsonBytes -= old.json.length;
        delete old.json;
      }
    }
    return json;
  }

  /** Projected from the transaction bytes (the chain holds bytes per block; JSON text only within the cache budget). */
  private blockJson(block: ChainBlock): OgmiosBlock {
    const decoded = block.txs.map((t) => decodeTransaction(toHex(t.bytes)));
    const json = projectBlock(block, decoded);
    for (const tx of decoded) tx.fixed.free();
    return json;
  }
}
