// The embedded devnet: our own chain (blocks, slots, tip, mempool, UTxO views, genesis, persistence) around the
// scalus rule engine. Consistency choice: submissions and evaluations see the MEMPOOL state (a transaction may spend
// outputs of one still in the mempool, as on a real node), while UTxO queries answer the CONFIRMED state (what is in
// blocks), as a real Ogmios answers from the ledger state at the tip, which never includes the mempool.
// The chain is `chain-blocks.ts`, the mempool `mempool.ts`; this class keeps them in step with the rule engine, the
// block log and the clock, and tells listeners.
import { EventEmitter } from "node:events";
import { BlockLog } from "./block-log";
import { EPOCH_LENGTH_SLOTS, epochOf, slotAt } from "./chain-time";
import {
  ChainBlocks,
  DEFAULT_BLOCK_JSON_CACHE_BYTES,
  loggedBlock,
  unconfirm,
  type DevnetPoint,
  type DevnetTip,
  type PendingTransaction,
} from "./chain-blocks";
import { decodeTransaction, type DecodedTransaction } from "./decoded-transaction";
import { DevnetError, devnetSetupError } from "./errors";
import { EvaluatorPool } from "./evaluator-pool";
import { genesisUtxos, utxoMapCbor, type GenesisFund } from "./genesis";
import { Mempool } from "./mempool";
import type { OgmiosBlock, OgmiosProtocolParameters, OgmiosUtxo } from "./ogmios-types";
import { ogmiosProtocolParameters } from "./protocol-parameters";
import { RuleEngine } from "./rule-engine";
import { rejectionToOgmiosError } from "./submit-errors";
import { evaluateAgainst, type Evaluation } from "./transaction-evaluation";
import type { UtxoEntry, UtxoFilter } from "./utxo-set";

export { MEMPOOL_CAPACITY_BYTES } from "./mempool";
export type { DevnetPoint, DevnetTip } from "./chain-blocks";

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

/** Events: "block" (OgmiosBlock), "rollback" (DevnetPoint: the new tip), "mempool" (the mempool changed). */
export type DevnetEvent = "block" | "rollback" | "mempool";

/** The most empty blocks one `produceEmptyBlocks` call appends. */
const MAX_EMPTY_BLOCKS = 1_000_000;

export class Devnet {
  private readonly events = new EventEmitter();
  private readonly mempool: Mempool;
  private timer: NodeJS.Timeout | undefined;
  /** Plutus evaluation off the main thread, in recycled workers (see evaluator-pool.ts). */
  private readonly evaluator = new EvaluatorPool();
  private closed = false;
  private lastTipUpdateMs: number;

  private constructor(
    readonly systemStartMs: number,
    private readonly clock: () => number,
    private readonly genesis: UtxoEntry[],
    private readonly engine: RuleEngine,
    private readonly chain: ChainBlocks,
    private readonly log: BlockLog | undefined,
  ) {
    this.mempool = new Mempool(engine, chain.confirmed);
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
    const jsonCacheBytes = Math.max(0, opts.blockJsonCacheBytes ?? DEFAULT_BLOCK_JSON_CACHE_BYTES);
    const chain = new ChainBlocks(genesis, engine, engine.snapshotConfirmed(), jsonCacheBytes);
    if (log) chain.replay(log.readBlocks());
    const devnet = new Devnet(systemStartMs, clock, genesis, engine, chain, log);
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
      const error = rejectionToOgmiosError(verdict.message, verdict.logs, { tx, view: this.mempool.view, slot });
      tx.fixed.free();
      throw error;
    }
    this.mempool.accept(tx);
    this.events.emit("mempool");
    return tx.id;
  }

  /**
   * Runs the scripts of a transaction against the mempool view plus `additionalUtxo`.
   * @throws DevnetError 3010 (script failures, or unknown inputs as 3117 per validator), 3002 (overlapping UTxO).
   */
  async evaluateTransaction(cborHex: string, additionalUtxo: OgmiosUtxo[] = []): Promise<Evaluation> {
    this.assertOpen();
    return evaluateAgainst(this.mempool.view, cborHex, additionalUtxo, this.evaluator, this.systemStartMs);
  }

  // ---- blocks ----------------------------------------------------------------------------------------------

  /**
   * Turns the whole mempool into a block at the current slot (at least one past the tip). Transactions whose
   * validity interval no longer holds at the block's slot are dropped, as a node's mempool re-validation would.
   * @returns the block, or undefined when the mempool is empty.
   */
  produceBlock(): OgmiosBlock | undefined {
    this.assertOpen();
    if (this.mempool.isEmpty) return undefined;
    const slot = Math.max(slotAt(this.systemStartMs, this.clock()), (this.chain.tipBlock()?.slot ?? -1) + 1);
    const included = this.mempool.takeForBlock(slot);
    if (included.length === 0) {
      this.events.emit("mempool");
      return undefined;
    }
    this.engine.confirmPending();
    const json = this.forge(slot, included);
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
    const first = Math.max(slotAt(this.systemStartMs, this.clock()), (this.chain.tipBlock()?.slot ?? -1) + 1);
    for (let i = 0; i < count; i++) this.events.emit("block", this.forge(first + i, []));
    return this.tipWithHeight();
  }

  /** Appends a block of transactions the engine has confirmed, logs it, and returns its JSON (its text cached). */
  private forge(slot: number, included: readonly PendingTransaction[]): OgmiosBlock {
    const block = this.chain.append(slot, included);
    this.lastTipUpdateMs = this.clock();
    this.log?.append(loggedBlock(block));
    return this.chain.newBlockJson(block);
  }

  /**
   * Test control: removes the last `blocks` blocks. Their transactions, then the old mempool, are re-submitted to the
   * mempool (those still valid stay), and chain-sync followers see a RollBackward to the new tip.
   * @throws DevnetError INVALID_PARAMS when `blocks` is negative or deeper than the chain.
   */
  rollback(blocks: number): void {
    this.assertOpen();
    if (!Number.isInteger(blocks) || blocks < 0 || blocks > this.chain.height) {
      throw new DevnetError(-32602, `cannot roll back ${blocks} blocks on a chain of ${this.chain.height}`, {
        blocks,
        height: this.chain.height,
      });
    }
    if (blocks === 0) return;
    const dropped = this.chain.removeLast(blocks);
    this.mempool.refill(
      dropped.flatMap((b) => b.txs.map(unconfirm)),
      this.currentSlot(),
    );
    this.log?.rewrite(this.chain.logged());
    this.lastTipUpdateMs = this.clock();
    this.events.emit("rollback", this.tip());
    this.events.emit("mempool");
  }

  private startBlockProduction(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (this.mempool.isEmpty) return;
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
    return this.chain.confirmed.select(filter).map((e) => e.ogmios);
  }

  /**
   * The `queryUtxo` answer as JSON text: the same text serializing `queryUtxo(filter)` gives, joined from each
   * output's text (made once per output while it is unspent, see `UtxoEntry.ogmiosText`).
   */
  queryUtxoText(filter?: UtxoFilter): string {
    return `[${this.chain.confirmed
      .select(filter)
      .map((e) => e.ogmiosText)
      .join(",")}]`;
  }

  protocolParameters(): OgmiosProtocolParameters {
    return ogmiosProtocolParameters();
  }

  /** The tip point, as Ogmios `queryLedgerState/tip` reports it. */
  tip(): DevnetPoint {
    const tip = this.chain.tipBlock();
    return tip ? { slot: tip.slot, id: tip.id } : "origin";
  }

  /** The tip with its height (chain-sync `tip`). */
  tipWithHeight(): DevnetTip {
    const tip = this.chain.tipBlock();
    return tip ? { slot: tip.slot, id: tip.id, height: tip.height } : "origin";
  }

  blockHeight(): number | "origin" {
    return this.chain.tipBlock()?.height ?? "origin";
  }

  /** The slot the chain is at now: the clock's slot, never behind the tip. */
  currentSlot(): number {
    return Math.max(slotAt(this.systemStartMs, this.clock()), this.chain.tipBlock()?.slot ?? 0, 0);
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
    return this.chain.height;
  }

  /** The block at `height` (1-based), as Ogmios JSON. */
  blockAt(height: number): OgmiosBlock | undefined {
    return this.chain.blockAt(height);
  }

  /** The block at `height` (1-based) as Ogmios JSON text: the cached text, else projected and serialized now. */
  blockTextAt(height: number): string | undefined {
    return this.chain.blockTextAt(height);
  }

  /** The height of the block at `point`, 0 for origin, undefined if the point is not on the chain. */
  heightOf(point: DevnetPoint): number | undefined {
    return this.chain.heightOf(point);
  }

  /** The mempool's transactions, oldest first. */
  mempoolTransactions(): readonly DecodedTransaction[] {
    return this.mempool.transactions();
  }

  on(event: DevnetEvent, listener: (payload: unknown) => void): () => void {
    this.events.on(event, listener);
    return () => this.events.off(event, listener);
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
