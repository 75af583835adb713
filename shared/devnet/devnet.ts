// The embedded devnet: our own chain (blocks, slots, tip, mempool, UTxO views, genesis, persistence) around the
// scalus rule engine. Consistency choice: submissions and evaluations see the MEMPOOL state (a transaction may spend
// outputs of one still in the mempool, as on a real node), while UTxO queries answer the CONFIRMED state (what is in
// blocks), as a real Ogmios answers from the ledger state at the tip, which never includes the mempool.
import { EventEmitter } from "node:events";
import type { Emulator } from "scalus";
import { bigintJson } from "./bigint-json";
import { BlockLog, type LoggedBlock } from "./block-log";
import { blockId, projectBlock } from "./block";
import { EPOCH_LENGTH_SLOTS, epochOf, slotAt } from "./chain-time";
import { utxoKey } from "../csl/utxo";
import { decodeTransaction, isValidAtSlot, type DecodedTransaction } from "./decoded-transaction";
import { DevnetError, devnetSetupError } from "./errors";
import { EvaluatorPool } from "./evaluator-pool";
import { ledgerBudgets } from "./ledger-evaluation";
import { genesisUtxos, utxoMapCbor, type GenesisFund } from "./genesis";
import { toHex } from "./ledger-digest";
import { ogmiosOutputToCbor as ogmiosUtxoToOutputCbor } from "./ogmios-output-codec";
import type { OgmiosBlock, OgmiosProtocolParameters, OgmiosUtxo, OutputReference } from "./ogmios-types";
import { ogmiosProtocolParameters } from "./protocol-parameters";
import { RuleEngine } from "./rule-engine";
import { rejectionToOgmiosError } from "./submit-errors";
import { inputCbor, utxoEntry, UtxoSet, type UtxoEntry } from "./utxo-set";

export interface DevnetOptions {
  /** Funded at genesis (bech32 addr_test…). */
  genesis?: { address: string; lovelace: bigint }[];
  /** ms since epoch; slots derive from it (slot length 1000 ms). Default Date.now. */
  clock?: () => number;
  /** Block log persisted here and replayed (re-validated) on create; undefined = memory only. */
  dataDir?: string;
  /** Auto-produce a block every N ms while the mempool is non-empty; 0/undefined = only on demand. */
  blockTimeMs?: number;
  /**
   * The newest blocks keep their serialized Ogmios JSON (made once, when the block is forged) up to this many bytes
   * in all, so chain-sync serves them without decoding and projecting again (default 32 MiB; 0 = none).
   */
  blockJsonCacheBytes?: number;
}

/** Default budget of the serialized-block cache. */
export const DEFAULT_BLOCK_JSON_CACHE_BYTES = 32 * 1024 * 1024;

/** A transaction accepted into the mempool, with the UTxO entries it creates (projected once). */
interface PendingTransaction {
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

interface ChainBlock {
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

/** Keeps what a block needs of a mempool transaction and releases its decoded (wasm) form. */
function confirm(p: PendingTransaction): ConfirmedTransaction {
  const confirmed = { id: p.tx.id, bytes: p.tx.bytes, consumed: p.tx.consumed, produced: p.produced };
  p.tx.fixed.free();
  return confirmed;
}

/** Decodes a confirmed transaction back into a mempool one (rollback), reusing its UTxO entries. */
function unconfirm(c: ConfirmedTransaction): PendingTransaction {
  return { tx: decodeTransaction(toHex(c.bytes)), produced: c.produced };
}

/** Which UTxOs a query asks for: all (no filter), or those at `addresses` and/or `outputReferences`. */
export interface UtxoFilter {
  addresses?: string[];
  outputReferences?: OutputReference[];
}

export type DevnetPoint = { slot: number; id: string } | "origin";
export type DevnetTip = { slot: number; id: string; height: number } | "origin";

/** Events: "block" (OgmiosBlock), "rollback" (DevnetPoint: the new tip), "mempool" (the mempool changed). */
export type DevnetEvent = "block" | "rollback" | "mempool";

/** Rule-engine snapshots kept for rollbacks (snapshots share structure; deeper rollbacks replay from genesis). */
const RECENT_STATES = 128;
/** Ogmios reports a mempool capacity; a node allows about two blocks' worth. */
export const MEMPOOL_CAPACITY_BYTES = 2 * 90_112;
/** The most empty blocks one `produceEmptyBlocks` call appends. */
const MAX_EMPTY_BLOCKS = 1_000_000;

export class Devnet {
  private readonly events = new EventEmitter();
  private readonly blocks: ChainBlock[] = [];
  private mempool: PendingTransaction[] = [];
  private confirmed: UtxoSet;
  private view: UtxoSet;
  private timer: NodeJS.Timeout | undefined;
  /** Plutus evaluation off the main thread, in recycled workers (see evaluator-pool.ts). */
  private readonly evaluator = new EvaluatorPool();
  private closed = false;
  private lastTipUpdateMs: number;
  /** Blocks holding their JSON text are at this height or above; their texts' total length (`blockJsonCacheBytes`). */
  private oldestCachedHeight = 1;
  private cachedJsonBytes = 0;
  private blockJsonCacheBytes = DEFAULT_BLOCK_JSON_CACHE_BYTES;

  private constructor(
    readonly systemStartMs: number,
    private readonly clock: () => number,
    private readonly genesis: UtxoEntry[],
    private readonly genesisState: Emulator,
    private readonly engine: RuleEngine,
    private readonly log: BlockLog | undefined,
  ) {
    this.confirmed = new UtxoSet(genesis);
    this.view = this.confirmed.clone();
    this.lastTipUpdateMs = clock();
    this.events.setMaxListeners(0);
  }

  /**
   * Creates a devnet; with `dataDir`, an existing chain there is replayed with every block re-validated.
   * @throws DevnetError GENESIS_INVALID, GENESIS_MISMATCH, BLOCK_LOG_CORRUPT, BLOCK_LOG_INVALID.
   */
  static async create(opts: DevnetOptions = {}): Promise<Devnet> {
    const clock = opts.clock ?? Date.now;
    const log = opts.dataDir === undefined ? undefined : new BlockLog(opts.dataDir);
    const stored = log?.readChain();
    const funds: GenesisFund[] = stored?.genesis ?? (opts.genesis ?? []).map((g) => ({ address: g.address, lovelace: g.lovelace }));
    if (stored && opts.genesis && !sameGenesis(stored.genesis, opts.genesis)) {
      throw devnetSetupError("GENESIS_MISMATCH", `the chain in ${opts.dataDir} was created with a different genesis`, {
        dataDir: opts.dataDir,
      });
    }
    const systemStartMs = stored?.systemStartMs ?? Math.floor(clock() / 1000) * 1000;
    const genesis = genesisUtxos(funds);
    if (log && !stored) log.writeChain({ systemStartMs, genesis: funds });
    const engine = RuleEngine.fromUtxoMap(utxoMapCbor(genesis), systemStartMs);
    const devnet = new Devnet(systemStartMs, clock, genesis, engine.snapshotConfirmed(), engine, log);
    if (opts.blockJsonCacheBytes !== undefined) devnet.blockJsonCacheBytes = Math.max(0, opts.blockJsonCacheBytes);
    if (log) devnet.replay(log.readBlocks());
    if (opts.blockTimeMs && opts.blockTimeMs > 0) devnet.startBlockProduction(opts.blockTimeMs);
    return devnet;
  }

  // ---- submission and evaluation (mempool state) ------------------------------------------------------------

  /**
   * Validates a transaction against the mempool state and adds it to the mempool.
   * @returns the transaction id.
   * @throws DevnetError with the Ogmios submitTransaction codes (3117, 3122, 3125, 3136, …; -32602 undecodable).
   */
  async submitTransaction(cborHex: string): Promise<string> {
    this.assertOpen();
    const tx = decodeTransaction(cborHex);
    const slot = this.currentSlot();
    const verdict = this.engine.submit(tx.bytes, slot);
    if (!verdict.accepted) {
      const error = rejectionToOgmiosError(verdict.message, verdict.logs, { tx, view: this.view, slot });
      tx.fixed.free();
      throw error;
    }
    this.acceptIntoMempool(tx);
    return tx.id;
  }

  /**
   * Runs the scripts of a transaction against the mempool view plus `additionalUtxo`.
   * @throws DevnetError 3010 (script failures, or unknown inputs as 3117 per validator), 3002 (overlapping UTxO).
   */
  async evaluateTransaction(
    cborHex: string,
    additionalUtxo: OgmiosUtxo[] = [],
  ): Promise<{ validator: { purpose: string; index: number }; budget: { memory: number; cpu: number } }[]> {
    this.assertOpen();
    const tx = decodeTransaction(cborHex);
    const extra = new Map<string, Uint8Array>();
    const overlapping: OutputReference[] = [];
    for (const utxo of additionalUtxo) {
      const key = utxoKey(utxo);
      if (this.view.has(key)) overlapping.push({ transaction: { id: utxo.transaction.id }, index: utxo.index });
      else extra.set(key, ogmiosUtxoToOutputCbor(utxo));
    }
    if (overlapping.length > 0) {
      throw new DevnetError(3002, "The additional UTxO overlaps with UTxO known to the ledger.", {
        overlappingOutputReferences: overlapping,
      });
    }
    const inputs: Uint8Array[] = [];
    const outputs: Uint8Array[] = [];
    const unknown: string[] = [];
    for (const key of new Set([...tx.inputs, ...tx.referenceInputs])) {
      const output = this.view.get(key)?.outputCbor ?? extra.get(key);
      if (!output) {
        unknown.push(key);
        continue;
      }
      const [txId, index] = key.split("#") as [string, string];
      inputs.push(inputCbor({ txId, index: Number(index) }));
      outputs.push(output);
    }
    if (unknown.length > 0) {
      const refs = unknown.map((k) => ({ transaction: { id: k.split("#")[0] ?? "" }, index: Number(k.split("#")[1]) }));
      throw new DevnetError(3010, "Some scripts cannot be evaluated: unknown transaction inputs.", [
        {
          validator: { purpose: "spend", index: Math.max(0, tx.inputs.indexOf(unknown[0] ?? "")) },
          error: { code: 3117, message: "Unknown transaction input (missing from UTxO set).", data: { unknownOutputReferences: refs } },
        },
      ]);
    }
    try {
      // The ledger's own machine answers (the budgets `submitTransaction` will find); when it refuses, the UPLC
      // evaluator in a worker describes the failure (the failing validator, its traces).
      const resolved = { inputs, outputs };
      const ledger = ledgerBudgets(tx.bytes, resolved, this.systemStartMs);
      if ("budgets" in ledger) return ledger.budgets;
      return await this.evaluator.evaluate(tx.bytes, resolved, this.systemStartMs, ledger.failure);
    } finally {
      tx.fixed.free();
    }
  }

  private acceptIntoMempool(tx: DecodedTransaction): void {
    const produced = tx.produced.map((p) => utxoEntry(p.txId, p.index, p.outputCbor));
    this.view.apply(tx.consumed, produced);
    this.mempool.push({ tx, produced });
    this.events.emit("mempool");
  }

  // ---- blocks ----------------------------------------------------------------------------------------------

  /**
   * Turns the whole mempool into a block at the current slot (at least one past the tip). Transactions whose
   * validity interval no longer holds at the block's slot are dropped, as a node's mempool re-validation would.
   * @returns the block, or undefined when the mempool is empty.
   */
  produceBlock(): OgmiosBlock | undefined {
    this.assertOpen();
    if (this.mempool.length === 0) return undefined;
    const tip = this.blocks.at(-1);
    const slot = Math.max(slotAt(this.systemStartMs, this.clock()), (tip?.slot ?? -1) + 1);
    let included = this.mempool;
    if (!included.every((p) => isValidAtSlot(p.tx, slot))) {
      // Rebuild the mempool state with only the transactions that are still valid at the block's slot.
      this.engine.discardPending();
      this.view = this.confirmed.clone();
      included = [];
      for (const pending of this.mempool) {
        if (isValidAtSlot(pending.tx, slot) && this.engine.submit(pending.tx.bytes, slot).accepted) {
          this.view.apply(pending.tx.consumed, pending.produced);
          included.push(pending);
        }
      }
    }
    this.mempool = [];
    if (included.length === 0) {
      this.engine.discardPending();
      this.events.emit("mempool");
      return undefined;
    }
    this.engine.confirmPending();
    const block = this.appendBlock(slot, included);
    this.log?.append(loggedBlock(block));
    const json = this.blockJson(block);
    this.cacheJson(block, json);
    this.events.emit("mempool");
    this.events.emit("block", json);
    return json;
  }

  /**
   * Test and benchmark control: appends `count` blocks holding no transaction, one slot apart, from the current slot
   * (at least one past the tip). The mempool is left as it is (a node may forge an empty block while transactions
   * wait); nothing is validated because nothing is added to the ledger. Chain-sync followers see every block.
   * @returns the new tip.
   * @throws DevnetError INVALID_PARAMS when `count` is not a positive integer of at most 1,000,000.
   */
  produceEmptyBlocks(count: number): DevnetTip {
    this.assertOpen();
    if (!Number.isInteger(count) || count < 1 || count > MAX_EMPTY_BLOCKS) {
      throw new DevnetError(-32602, `cannot produce ${count} empty blocks (1 to ${MAX_EMPTY_BLOCKS})`, { blocks: count });
    }
    const first = Math.max(slotAt(this.systemStartMs, this.clock()), (this.blocks.at(-1)?.slot ?? -1) + 1);
    for (let i = 0; i < count; i++) {
      const block = this.appendBlock(first + i, []);
      this.log?.append(loggedBlock(block));
      const json = this.blockJson(block);
      this.cacheJson(block, json);
      this.events.emit("block", json);
    }
    return this.tipWithHeight();
  }

  private appendBlock(slot: number, pending: PendingTransaction[]): ChainBlock {
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
    this.lastTipUpdateMs = this.clock();
    return block;
  }

  /**
   * Test control: removes the last `blocks` blocks. Their transactions, then the old mempool, are re-submitted to the
   * mempool (those still valid stay), and chain-sync followers see a RollBackward to the new tip.
   * @throws DevnetError INVALID_PARAMS when `blocks` is negative or deeper than the chain.
   */
  rollback(blocks: number): void {
    this.assertOpen();
    if (!Number.isInteger(blocks) || blocks < 0 || blocks > this.blocks.length) {
      throw new DevnetError(-32602, `cannot roll back ${blocks} blocks on a chain of ${this.blocks.length}`, {
        blocks,
        height: this.blocks.length,
      });
    }
    if (blocks === 0) return;
    const dropped = this.blocks.splice(this.blocks.length - blocks, blocks);
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
    this.view = this.confirmed.clone();
    const resubmit = [...dropped.flatMap((b) => b.txs.map(unconfirm)), ...this.mempool];
    this.mempool = [];
    const slot = this.currentSlot();
    for (const p of resubmit) {
      if (this.engine.submit(p.tx.bytes, slot).accepted) {
        this.view.apply(p.tx.consumed, p.produced);
        this.mempool.push(p);
      }
    }
    this.log?.rewrite(this.blocks.map(loggedBlock));
    this.lastTipUpdateMs = this.clock();
    this.events.emit("rollback", this.tip());
    this.events.emit("mempool");
  }

  /** Re-validates the chain from genesis up to `height` to rebuild the rule-engine state (old rollbacks only). */
  private replayEngineTo(height: number): void {
    this.engine.restoreConfirmed(this.genesisState);
    for (const block of this.blocks.slice(0, height)) {
      for (const t of block.txs) this.engine.submit(t.bytes, block.slot);
      this.engine.confirmPending();
    }
  }

  /** Rebuilds the chain from the block log, re-validating every transaction at its block's slot. */
  private replay(logged: LoggedBlock[]): void {
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
        txs.push({ tx, produced: tx.produced.map((p) => utxoEntry(p.txId, p.index, p.outputCbor)) });
      }
      this.engine.confirmPending();
      const block = this.appendBlock(entry.slot, txs);
      if (block.id !== entry.id) {
        throw devnetSetupError("BLOCK_LOG_INVALID", `block ${entry.height} replays to id ${block.id}, log says ${entry.id}`, {
          height: entry.height,
        });
      }
    }
    this.view = this.confirmed.clone();
  }

  private startBlockProduction(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (this.mempool.length === 0) return;
      try {
        this.produceBlock();
      } catch {
        // A failing block-log write must not kill the server process (the block itself is already on the chain).
      }
    }, intervalMs);
    this.timer.unref();
  }

  // ---- queries (confirmed state) ------------------------------------------------------------------------------

  /** UTxOs of the confirmed state: all, or those at `addresses` and/or at `outputReferences`. */
  queryUtxo(filter?: UtxoFilter): OgmiosUtxo[] {
    return this.selectUtxo(filter).map((e) => e.ogmios);
  }

  /**
   * The `queryUtxo` answer as JSON text: the same text serializing `queryUtxo(filter)` gives, joined from each
   * output's text (made once per output while it is unspent, see `UtxoEntry.ogmiosText`).
   */
  queryUtxoText(filter?: UtxoFilter): string {
    return `[${this.selectUtxo(filter)
      .map((e) => e.ogmiosText)
      .join(",")}]`;
  }

  private selectUtxo(filter?: UtxoFilter): UtxoEntry[] {
    if (!filter || (filter.addresses === undefined && filter.outputReferences === undefined)) return [...this.confirmed.all()];
    const found = new Map<string, UtxoEntry>();
    for (const address of filter.addresses ?? []) for (const e of this.confirmed.atAddress(address)) found.set(e.key, e);
    for (const ref of filter.outputReferences ?? []) {
      const e = this.confirmed.get(utxoKey(ref));
      if (e) found.set(e.key, e);
    }
    return [...found.values()];
  }

  protocolParameters(): OgmiosProtocolParameters {
    return ogmiosProtocolParameters();
  }

  /** The tip point, as Ogmios `queryLedgerState/tip` reports it. */
  tip(): { slot: number; id: string } | "origin" {
    const tip = this.blocks.at(-1);
    return tip ? { slot: tip.slot, id: tip.id } : "origin";
  }

  /** The tip with its height (chain-sync `tip`). */
  tipWithHeight(): DevnetTip {
    const tip = this.blocks.at(-1);
    return tip ? { slot: tip.slot, id: tip.id, height: tip.height } : "origin";
  }

  blockHeight(): number | "origin" {
    return this.blocks.at(-1)?.height ?? "origin";
  }

  /** The slot the chain is at now: the clock's slot, never behind the tip. */
  currentSlot(): number {
    return Math.max(slotAt(this.systemStartMs, this.clock()), this.blocks.at(-1)?.slot ?? 0, 0);
  }

  currentEpoch(): number {
    return epochOf(this.currentSlot());
  }

  slotInEpoch(): number {
    return this.currentSlot() % EPOCH_LENGTH_SLOTS;
  }

  lastTipUpdate(): number {
    return this.lastTipUpdateMs;
  }

  now(): number {
    return this.clock();
  }

  genesisFunds(): { address: string; lovelace: bigint }[] {
    return this.genesis.map((e) => ({ address: e.address, lovelace: e.lovelace }));
  }

  // ---- chain-sync and mempool access for the server ----------------------------------------------------------

  /** Number of blocks (the height of the tip; 0 at origin). */
  get height(): number {
    return this.blocks.length;
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

  /** Keeps the block's JSON text, forgetting the oldest cached texts beyond the budget. */
  private cacheJson(block: ChainBlock, json: OgmiosBlock): void {
    if (this.blockJsonCacheBytes === 0) return;
    const text = bigintJson.stringify(json);
    block.json = text;
    this.cachedJsonBytes += text.length;
    while (this.cachedJsonBytes > this.blockJsonCacheBytes && this.oldestCachedHeight <= this.blocks.length) {
      const old = this.blocks[this.oldestCachedHeight - 1]!;
      this.oldestCachedHeight += 1;
      if (old.json !== undefined) {
        this.cachedJsonBytes -= old.json.length;
        delete old.json;
      }
    }
  }

  /** The height of the block at `point`, 0 for origin, undefined if the point is not on the chain. */
  heightOf(point: DevnetPoint): number | undefined {
    if (point === "origin") return 0;
    const block = this.blocks.find((b) => b.slot === point.slot && b.id === point.id);
    return block?.height;
  }

  /** The mempool's transactions, oldest first. */
  mempoolTransactions(): readonly DecodedTransaction[] {
    return this.mempool.map((p) => p.tx);
  }

  on(event: DevnetEvent, listener: (payload: unknown) => void): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
  }

  /** Projected from the transaction bytes (the chain holds bytes per block; JSON text only within the cache budget). */
  private blockJson(block: ChainBlock): OgmiosBlock {
    const decoded = block.txs.map((t) => decodeTransaction(toHex(t.bytes)));
    const json = projectBlock(block, decoded);
    for (const tx of decoded) tx.fixed.free();
    return json;
  }

  private assertOpen(): void {
    if (this.closed) throw devnetSetupError("DEVNET_CLOSED", "the devnet is closed");
  }

  /** Stops block production; the devnet refuses further use. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.events.removeAllListeners();
    await this.evaluator.close();
  }
}

function sameGenesis(a: readonly GenesisFund[], b: readonly GenesisFund[]): boolean {
  const text = (funds: readonly GenesisFund[]) =>
    funds
      .map((f) => `${f.address}=${f.lovelace}`)
      .sort()
      .join(",");
  return text(a) === text(b);
}

function loggedBlock(block: ChainBlock): LoggedBlock {
  return { height: block.height, slot: block.slot, id: block.id, txs: block.txs.map((t) => toHex(t.bytes)) };
}
