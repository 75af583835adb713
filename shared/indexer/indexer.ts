/**
 * Follows the chain from the stored checkpoint and records it in the fact log (see fact-log.ts), running the plugin
 * pipeline around every block. One indexer per deployment (its chain cursor is the single writer of the log).
 *
 * Order per block: pre-actions → filters → decode → persist (transactions, facts, checkpoint) → post-actions →
 * event handlers → bus notifications. A failure before the checkpoint is written (a critical plugin, the store)
 * fails the chain-sync; the indexer then resumes from its checkpoint after a pause, so the block is processed again.
 * Bus notifications are hints only: consumers read the fact log after their own cursor.
 *
 * Catching up, the persist step is batched: blocks are staged in the fact log and written together (one write per
 * collection) when the block is the chain's tip, when `BATCH_BLOCKS` blocks or `BATCH_FACTS` facts are staged, and
 * before a rollback or a stop. The post-actions and event handlers of the staged blocks then run, block by block, so
 * they still see their block persisted. At the tip every block is written at once, as before. Pre-actions with a
 * `flush` (the lookups, the sorted lists) stage their records the same way: the fact log writes them first in each
 * batch, deletes them after the rollback point on a rollback, and deletes whatever an interrupted write left after
 * the checkpoint before the indexer resumes (see FactLog.repair).
 */
import type { Block, Tip, Transaction } from "@cardano-ogmios/schema";
import type { ChainClient } from "../chain/chain-client";
import type { ProtocolParameters } from "../csl/protocol-parameters";
import { AnchorLanguageViews } from "./anchor-language-views";
import { paymentCredentialOf, rewardCredentialOf } from "../csl/address";
import { registerBuiltinPlugins, transactionsOf, type IndexerNotify } from "./builtin-plugins";
import { FactLog, type BlockPoint, type FactRecord } from "./fact-log";
import type { PluginPipeline } from "./plugin-pipeline";
import type { BlockContext, ProtocolEvent } from "./plugin-types";
import { decodeProtocolTransaction, type FactDecoder, type ProtocolFact, type ProtocolView } from "./protocol-decoder";
import { StateScriptTrust } from "./state-script-trust";
import type { Store } from "../store";

export interface IndexerLogger {
  info(msg: string, data?: object): void;
  warn(msg: string, data?: object): void;
}

export interface IndexerOptions {
  store: Store;
  chain: Pick<ChainClient, "chainSync">;
  /**
   * The chain's protocol parameters, for the language views of Merkle batch anchors (anchor-language-views.ts);
   * without it anchors are recorded without them.
   */
  protocolParameters?: () => Promise<ProtocolParameters>;
  view: ProtocolView;
  /** the extensions' decoders: their transactions are relevant and their facts go into the log (default: none) */
  decoders?: readonly FactDecoder[];
  pipeline: PluginPipeline<Transaction>;
  slotToTime: (slot: number) => number;
  /** Where to start when there is no checkpoint (default: origin). */
  startPoint?: BlockPoint | "origin";
  /** Broadcasts a notification on the bus (`chain.*` with the published contract's payloads). */
  notify?: IndexerNotify;
  logger?: IndexerLogger;
  /** Pause before resuming after a failure (ms, default 1000). */
  retryDelayMs?: number;
  /** Block points kept as intersection candidates (default `RECENT_BLOCKS_KEPT`, the rollback horizon). */
  keepBlocks?: number;
}

export type IndexerState = "stopped" | "following" | "retrying";

/** The newest block whose facts are all in the log (or the point a rollback went back to), with the log's sequence then. */
export interface WrittenTip {
  slot: number;
  id: string;
  height: number;
  /** Unix ms; 0 for a rollback point */
  time: number;
  /** the fact log holds every fact of this block and before it up to this sequence number */
  lastSeq: number;
}

/** Most blocks staged before a write while catching up (each costs a few hundred bytes until written). */
export const BATCH_BLOCKS = 1000;
/** Most facts staged before a write. */
const BATCH_FACTS = 5000;
/** Output addresses whose payment credential is remembered. */
const ADDRESS_MEMO_SIZE = 10_000;

const quiet: IndexerLogger = { info: () => undefined, warn: () => undefined };

export class Indexer {
  private state: IndexerState = "stopped";
  /** Until chain-sync's first answer, the roll-back to the intersection where following starts. */
  private intersecting = false;
  private subscription: Awaited<ReturnType<ChainClient["chainSync"]>> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly view: ProtocolView;
  private readonly decoders: readonly FactDecoder[];
  /** the script hashes of the extensions' transactions */
  private readonly extensionScripts: ReadonlySet<string>;
  private readonly trust: StateScriptTrust;
  private blocksProcessed = 0;
  /** The point of the newest block processed (or rolled back to), for the next block's `previousBlock`. */
  private lastBlock: { slot: number; id: string } | undefined;
  private readonly logger: IndexerLogger;
  /** Blocks staged in the fact log, with their facts, whose post-actions and event handlers run after the write. */
  private staged: { ctx: BlockContext<Transaction>; records: FactRecord[] }[] = [];
  /** Payment script hash per output address seen (bounded: cleared when full). */
  private readonly addressScripts = new Map<string, string | null>();
  /** Block handling, rollbacks and the final write of a stop run one at a time. */
  private serial: Promise<unknown> = Promise.resolve();
  private readonly languageViews: AnchorLanguageViews | undefined;
  private written: WrittenTip | undefined;

  private constructor(
    private readonly opts: IndexerOptions,
    readonly log: FactLog,
  ) {
    this.view = opts.view;
    this.decoders = opts.decoders ?? [];
    this.extensionScripts = new Set(this.decoders.flatMap((d) => d.scriptHashes));
    this.trust = new StateScriptTrust([...opts.view.stateScriptHashes]);
    this.logger = opts.logger ?? quiet;
    this.languageViews = opts.protocolParameters && new AnchorLanguageViews(opts.protocolParameters);
  }

  static async create(opts: IndexerOptions): Promise<Indexer> {
    const keep = opts.keepBlocks === undefined ? {} : { keepBlocks: opts.keepBlocks };
    const pipeline = opts.pipeline;
    const staged = {
      write: () => pipeline.flushStaged(),
      discard: () => pipeline.discardStaged(),
      deleteAfter: (slot: number) => pipeline.rollbackPreActions(slot),
    };
    const indexer = new Indexer(opts, await FactLog.open(opts.store, { ...keep, staged }));
    registerBuiltinPlugins(opts.pipeline, {
      ...keep,
      log: indexer.log,
      isRelevant: (tx) => indexer.isProtocolRelevant(tx),
      ...(opts.notify ? { notify: opts.notify } : {}),
    });
    // The log holds only what this deployment's view recognised: under another deployment (e.g. configured after
    // the indexer already passed its init block) start over, telling consumers through a rollback to origin.
    const fingerprint = `${opts.view.proxyPolicyId}|${opts.view.libraryAddress}|${opts.view.libraryAdmin}`;
    const previous = await indexer.log.deployment();
    if (previous !== fingerprint) {
      if (previous !== undefined || (await indexer.log.checkpoint())) {
        await indexer.log.rollback("origin", 0);
        indexer.logger.warn("the protocol deployment changed; re-indexing from the start point", {});
      }
      await indexer.log.setDeployment(fingerprint);
    }
    await indexer.replayPointerHistory();
    return indexer;
  }

  status() {
    return {
      state: this.state,
      lastSeq: this.log.lastSeq(),
      blocksProcessed: this.blocksProcessed,
      // undefined until the first write of this process
      tip: this.written,
      stateScriptHashes: [...this.trust.everTrusted()],
    };
  }

  /** The deployment this indexer decodes (empty strings when none is configured). */
  viewSummary() {
    const v = this.view;
    return {
      deployed: v.proxyPolicyId !== "",
      proxyPolicyId: v.proxyPolicyId,
      proxyAddress: v.proxyAddress,
      pointerTokenName: v.pointerTokenName,
      libraryAddress: v.libraryAddress,
      libraryAdmin: v.libraryAdmin,
    };
  }

  /** Starts following; resolves once the first intersection is found (or the first attempt failed and a retry is scheduled). */
  async start(): Promise<void> {
    if (this.state !== "stopped") return;
    this.state = "following";
    await this.follow();
  }

  async stop(): Promise<void> {
    this.state = "stopped";
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const sub = this.subscription;
    this.subscription = undefined;
    await sub?.close();
    // What was processed before the stop is written (a failure only means those blocks are processed again).
    await this.exclusive(() => this.flush()).catch((err: unknown) =>
      this.logger.warn("could not write the last blocks before stopping", {
        error: err instanceof Error ? err.message : String(err),
      }),
    );
  }

  /** Runs `task` after every earlier block, rollback and flush. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.serial.then(task, task);
    this.serial = run.catch(() => undefined);
    return run;
  }

  private async follow(): Promise<void> {
    // Blocks staged by an earlier attempt are processed again from the checkpoint.
    this.staged = [];
    this.log.discardStaged();
    try {
      // Records after the checkpoint (an interrupted write, the plugins' included) go before anything is read.
      await this.log.repair();
      const checkpoint = await this.log.checkpoint();
      const points: (BlockPoint | "origin")[] = checkpoint ? await this.log.recentPoints(20) : [];
      points.push(this.opts.startPoint ?? "origin");
      this.intersecting = true;
      const sub = await this.opts.chain.chainSync(points, {
        rollForward: (block, tip) => this.exclusive(() => this.onBlock(block, tip)),
        rollBackward: (point) =>
          this.exclusive(() => this.onRollback(point === "origin" ? "origin" : { slot: Number(point.slot), id: point.id })),
      });
      if (this.state === "stopped") return void (await sub.close());
      this.subscription = sub;
      sub.done.then(
        () => undefined,
        (err: unknown) => this.retry(err),
      );
    } catch (err) {
      this.retry(err);
    }
  }

  private retry(err: unknown): void {
    if (this.state === "stopped") return;
    this.state = "retrying";
    this.subscription = undefined;
    this.logger.warn("chain-sync failed, resuming from the checkpoint", {
      error: err instanceof Error ? err.message : String(err),
    });
    this.retryTimer = setTimeout(() => {
      if (this.state === "stopped") return;
      this.state = "following";
      void this.follow();
    }, this.opts.retryDelayMs ?? 1000);
    this.retryTimer.unref();
  }

  /**
   * Does the transaction touch the protocol (state withdrawal, proxy mint or outputs, library outputs) or an
   * extension (a mint under, or an output at, one of its decoders' scripts)? The same answer as `isProxyAddress`,
   * with each output address decoded once (addresses repeat: change addresses, scripts).
   */
  isProtocolRelevant(tx: Transaction): boolean {
    const v = this.view;
    const extensions = this.extensionScripts;
    const mint = tx.mint;
    if (mint && (v.proxyPolicyId in mint || Object.keys(mint).some((policy) => extensions.has(policy)))) return true;
    for (const o of tx.outputs) {
      if (o.address === v.libraryAddress || o.address === v.proxyAddress) return true;
      const script = this.paymentScriptOf(o.address);
      if (script === null) continue;
      if (v.proxyPolicyId !== "" && script === v.proxyPolicyId) return true;
      if (extensions.has(script)) return true;
    }
    const everTrusted = this.trust.everTrusted();
    return Object.keys(tx.withdrawals ?? {}).some((a) => {
      const cred = rewardCredentialOf(a);
      return cred?.kind === "script" && everTrusted.has(cred.hash);
    });
  }

  /** The script hash of an address's payment credential; null for a key, a Byron or an unreadable address. */
  private paymentScriptOf(address: string): string | null {
    let script = this.addressScripts.get(address);
    if (script === undefined) {
      try {
        const cred = paymentCredentialOf(address);
        script = cred?.kind === "script" ? cred.hash : null;
      } catch {
        script = null;
      }
      if (this.addressScripts.size >= ADDRESS_MEMO_SIZE) this.addressScripts.clear();
      this.addressScripts.set(address, script);
    }
    return script;
  }

  /** The state scripts the pointer named, in order, from the log (after a start or a rollback). */
  private async replayPointerHistory(): Promise<void> {
    this.trust.reset();
    for (const r of await this.log.history(["pointer.set"]))
      if (r.fact?.type === "pointer.set") this.trust.pointTo(r.fact.scriptPointer, r.slot);
  }

  private async onBlock(block: Block, tip: Tip | "origin"): Promise<void> {
    const b = block as Block & { slot?: number; height?: number; transactions?: Transaction[] };
    const slot = Number(b.slot ?? 0);
    const ctx: BlockContext<Transaction> = {
      slot,
      height: Number(b.height ?? 0),
      id: b.id,
      time: this.opts.slotToTime(slot),
      transactions: b.transactions ?? [],
    };
    const pipeline = this.opts.pipeline;

    await pipeline.runPreActions(ctx);
    const relevant = new Set(pipeline.filter(ctx));
    const facts: { txId: string; fact: ProtocolFact; key?: string | null }[] = [];
    for (const tx of ctx.transactions) {
      if (!relevant.has(tx)) continue;
      const decoded = decodeProtocolTransaction(tx, { ...this.view, stateScriptHashes: this.trust.trustedAt(slot) });
      for (const e of decoded.errors) this.logger.warn("undecodable protocol data", { error: e });
      for (const fact of decoded.facts) {
        // a pointer change earlier in the block holds for the transactions after it
        if (fact.type === "pointer.set") this.trust.pointTo(fact.scriptPointer, slot);
        facts.push({ txId: tx.id, fact });
      }
      for (const decoder of this.decoders) {
        const own = decoder.decode(tx);
        for (const e of own.errors) this.logger.warn("undecodable protocol data", { error: e });
        for (const fact of own.facts) facts.push({ txId: tx.id, fact, key: decoder.keyOf(fact) });
      }
    }
    await this.addPreviousBlock(b, facts);
    await this.addLanguageViews(facts);
    const tipHeight = tip === "origin" ? undefined : Number(tip.height);
    const records = this.log.stageBlock(
      { point: { slot, id: ctx.id }, height: ctx.height, time: ctx.time, transactions: transactionsOf(ctx), facts },
      tipHeight === undefined ? {} : { tipHeight },
    );
    this.staged.push({ ctx, records });
    this.lastBlock = { slot, id: ctx.id };
    const atTip = tip === "origin" || ctx.height >= Number(tip.height);
    const counts = this.log.stagedCounts();
    if (atTip || counts.blocks >= BATCH_BLOCKS || counts.facts >= BATCH_FACTS) await this.flush();
  }

  /** Writes the staged blocks, then runs their post-actions and event handlers in chain order. */
  private async flush(): Promise<void> {
    const staged = this.staged;
    this.staged = [];
    await this.log.flush();
    const lastSeq = this.log.lastSeq();
    const pipeline = this.opts.pipeline;
    for (const { ctx, records } of staged) {
      const events = records.map(toEvent);
      await pipeline.runPostActions(ctx, events);
      await pipeline.dispatch(events);
      this.blocksProcessed += 1;
      // after its notification (a post-action): a reader of the status has been told of every block up to it
      this.written = { slot: ctx.slot, id: ctx.id, height: ctx.height, time: ctx.time, lastSeq };
    }
  }

  /**
   * Batch-root anchors also name the block before theirs: a chain-sync from that point reaches their block. The
   * block before is the last one this indexer processed (or rolled back to), its configured start point, or after a
   * restart the stored point it resumed from.
   */
  private async addPreviousBlock(block: Block, facts: { fact: ProtocolFact }[]): Promise<void> {
    const anchors = facts.flatMap(({ fact }) => (fact.type === "certificate.issued" && fact.anchor ? [fact.anchor] : []));
    if (anchors.length === 0) return;
    const ancestor = (block as { ancestor?: string }).ancestor;
    const start = this.opts.startPoint;
    const known = [this.lastBlock, typeof start === "object" ? start : undefined].find((p) => p !== undefined && p.id === ancestor);
    const slot = known?.slot ?? (ancestor === undefined || ancestor === "genesis" ? undefined : await this.log.slotOf(ancestor));
    const previous = ancestor === "genesis" ? "origin" : slot === undefined ? undefined : { slot, id: ancestor! };
    if (previous !== undefined) for (const a of anchors) a.previousBlock = previous;
  }

  /**
   * Batch-root anchors also carry the language views that give their transaction's script_data_hash (one lookup per
   * transaction). Without them a proof cannot be checked offline past the redeemers; a failure to find them is
   * logged and the block recorded all the same.
   */
  private async addLanguageViews(facts: { fact: ProtocolFact }[]): Promise<void> {
    const finder = this.languageViews;
    if (!finder) return;
    const byTx = new Map<string, string | undefined>();
    for (const { fact } of facts) {
      if (fact.type !== "certificate.issued" || !fact.anchor) continue;
      const cbor = fact.anchor.transactionCbor;
      if (!byTx.has(cbor)) byTx.set(cbor, await this.languageViewsOf(finder, cbor, fact.hash));
      const found = byTx.get(cbor);
      if (found !== undefined) fact.anchor.languageViews = found;
    }
  }

  private async languageViewsOf(finder: AnchorLanguageViews, cbor: string, root: string): Promise<string | undefined> {
    try {
      const found = await finder.of(cbor);
      if (found === undefined) this.logger.warn("no language views reproduce a batch anchor's script_data_hash", { root });
      return found;
    } catch (err) {
      this.logger.warn("the protocol parameters for a batch anchor's language views could not be read", {
        root,
        error: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  }

  private async onRollback(point: BlockPoint | "origin"): Promise<void> {
    await this.flush();
    const height = point === "origin" ? 0 : await this.log.heightOf(point.id);
    const marker = await this.log.rollback(point, height);
    this.trust.rollbackTo(point === "origin" ? -1 : point.slot);
    this.lastBlock = point === "origin" ? undefined : { slot: point.slot, id: point.id };
    this.written = { slot: marker.slot, id: marker.blockId, height, time: 0, lastSeq: marker.seq };
    // Chain-sync's first answer is always a roll-back to the intersection found: where following starts, not a
    // rollback of the chain.
    if (this.intersecting) {
      this.intersecting = false;
      this.logger.info(point === "origin" ? "following the chain from its origin" : `following the chain from slot ${point.slot}`, {
        from: point,
      });
    } else this.logger.info(`the chain rolled back to ${point === "origin" ? "its origin" : `slot ${point.slot}`}`, { to: point });
    this.opts.notify?.("chain.rollback", { slot: marker.slot, id: point === "origin" ? "origin" : point.id, lastSeq: marker.seq });
  }
}

function toEvent(r: FactRecord): ProtocolEvent {
  return { type: r.fact!.type, slot: r.slot, transactionId: r.txId, payload: { seq: r.seq, ...r.fact } };
}
