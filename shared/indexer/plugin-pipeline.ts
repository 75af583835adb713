/**
 * Runs the indexer's plugins and keeps their metrics.
 *
 * Failure policy: a plugin marked `critical` (the built-in projections) makes the block fail, so the indexer does
 * not advance its checkpoint and processes the block again (at-least-once; projections are idempotent). Any other
 * plugin's error is recorded in its metrics and the block goes on: an operator's plugin cannot stall the chain.
 * A failing filter keeps the transaction (losing data is worse than processing one more transaction).
 */
import { emptyMetrics, recordExecution, type PluginMetrics } from "./plugin-metrics";
import type {
  BlockContext,
  EventHandlerPlugin,
  FilterPlugin,
  IndexerPlugin,
  PluginKind,
  PostActionPlugin,
  PreActionPlugin,
  ProtocolEvent,
  SchedulerPlugin,
} from "./plugin-types";

export type SchedulerStatus = "SCHEDULED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED";

export interface PluginSnapshot {
  name: string;
  kind: PluginKind;
  language: string;
  metrics: PluginMetrics;
  schedule?: { intervalMs: number; status: SchedulerStatus };
}

interface Registered<P extends IndexerPlugin<never>> {
  plugin: P;
  critical: boolean;
  metrics: PluginMetrics;
}

export interface PipelineOptions {
  /** ms clock; injected so tests control time. */
  clock?: () => number;
  /** Called for every non-critical plugin error (for logging). */
  onPluginError?: (plugin: string, error: unknown) => void;
}

export class PluginPipeline<Tx = unknown> {
  private readonly filters: Registered<FilterPlugin<Tx>>[] = [];
  private readonly preActions: Registered<PreActionPlugin<Tx>>[] = [];
  private readonly postActions: Registered<PostActionPlugin<Tx>>[] = [];
  private readonly handlers: Registered<EventHandlerPlugin>[] = [];
  private readonly schedulers: (Registered<SchedulerPlugin> & { status: SchedulerStatus; timer?: NodeJS.Timeout })[] = [];
  private readonly names = new Set<string>();
  private readonly clock: () => number;

  constructor(private readonly options: PipelineOptions = {}) {
    this.clock = options.clock ?? Date.now;
  }

  /** Registers a plugin; names are unique per kind. */
  register(plugin: IndexerPlugin<Tx>, opts: { critical?: boolean } = {}): void {
    const key = `${plugin.kind}/${plugin.name}`;
    if (this.names.has(key)) throw new Error(`duplicate ${plugin.kind} plugin "${plugin.name}"`);
    this.names.add(key);
    const entry = { critical: opts.critical ?? false, metrics: emptyMetrics() };
    if (plugin.kind === "filter") this.filters.push({ plugin, ...entry });
    else if (plugin.kind === "pre-action") this.preActions.push({ plugin, ...entry });
    else if (plugin.kind === "post-action") this.postActions.push({ plugin, ...entry });
    else if (plugin.kind === "event-handler") this.handlers.push({ plugin, ...entry });
    else if (plugin.kind === "scheduler") this.schedulers.push({ plugin, ...entry, status: "SCHEDULED" });
  }

  /** The transactions of the block every filter keeps (each filter sees what the previous ones kept). */
  filter(block: BlockContext<Tx>): Tx[] {
    let kept = block.transactions;
    for (const f of this.filters) {
      const startedAt = this.clock();
      const t0 = performance.now();
      const examined = kept.length;
      let error: unknown;
      kept = kept.filter((tx) => {
        try {
          return f.plugin.keep(tx, block);
        } catch (err) {
          error ??= err;
          return true;
        }
      });
      recordExecution(f.metrics, { startedAt, durationMs: performance.now() - t0, items: examined, error });
      if (error !== undefined) this.options.onPluginError?.(f.plugin.name, error);
    }
    return kept;
  }

  async runPreActions(block: BlockContext<Tx>): Promise<void> {
    for (const p of this.preActions) {
      const done = this.execute(p, () => p.plugin.run(block));
      if (done !== true) await done;
    }
  }

  /**
   * Writes what the staging pre-actions (those with `flush`) staged, in registration order. Its duration counts in
   * the plugin's total duration; a failure counts as a failed execution (and, for a critical plugin, is thrown).
   */
  async flushStaged(): Promise<void> {
    for (const p of this.preActions) {
      const flush = p.plugin.flush?.bind(p.plugin);
      if (!flush) continue;
      const startedAt = this.clock();
      const t0 = performance.now();
      try {
        await flush();
        p.metrics.totalDuration += performance.now() - t0;
      } catch (err) {
        this.fail(p, err, startedAt, performance.now() - t0, 0);
        if (p.critical) throw err;
      }
    }
  }

  /** Drops what the staging pre-actions staged and did not write (the blocks are processed again). */
  discardStaged(): void {
    for (const p of this.preActions) p.plugin.discard?.();
  }

  /**
   * Deletes the pre-actions' records of blocks after `slot` (-1: all): a rollback, or leftovers of an interrupted
   * write after the checkpoint. A critical plugin's failure is thrown.
   */
  async rollbackPreActions(slot: number): Promise<void> {
    for (const p of this.preActions) {
      const rollback = p.plugin.rollback?.bind(p.plugin);
      if (!rollback) continue;
      try {
        await rollback(slot);
      } catch (err) {
        this.fail(p, err, this.clock(), 0, 0);
        if (p.critical) throw err;
      }
    }
  }

  async runPostActions(block: BlockContext<Tx>, events: readonly ProtocolEvent[]): Promise<void> {
    for (const p of this.postActions) {
      const done = this.execute(p, () => p.plugin.run(block, events));
      if (done !== true) await done;
    }
  }

  async dispatch(events: readonly ProtocolEvent[]): Promise<void> {
    for (const h of this.handlers) {
      const relevant = h.plugin.events.includes("*") ? events : events.filter((e) => h.plugin.events.includes(e.type));
      if (relevant.length === 0) continue;
      await this.execute(h, async () => {
        for (const e of relevant) await h.plugin.handle(e);
        return relevant.length;
      });
    }
  }

  /** Starts the periodic jobs; their timers never keep the process alive. */
  startSchedulers(): void {
    for (const s of this.schedulers) {
      if (s.timer) continue;
      s.status = "SCHEDULED";
      s.timer = setInterval(() => void this.runScheduler(s), s.plugin.intervalMs);
      s.timer.unref();
    }
  }

  stopSchedulers(): void {
    for (const s of this.schedulers) {
      if (s.timer) clearInterval(s.timer);
      delete s.timer;
      s.status = "CANCELLED";
    }
  }

  /** Runs one scheduler now (also what its timer calls). */
  async runScheduler(s: PipelineScheduler | string): Promise<void> {
    const entry = typeof s === "string" ? this.schedulers.find((x) => x.plugin.name === s) : s;
    if (!entry) throw new Error(`unknown scheduler "${String(s)}"`);
    if (entry.status === "RUNNING") return;
    entry.status = "RUNNING";
    const ok = await this.execute(entry, () => entry.plugin.run(), false);
    entry.status = ok ? (entry.timer ? "SCHEDULED" : "COMPLETED") : "FAILED";
  }

  snapshot(): PluginSnapshot[] {
    const language = (p: { language?: string }) => p.language ?? "typescript";
    const plain = <P extends IndexerPlugin<never>>(r: Registered<P>): PluginSnapshot => ({
      name: r.plugin.name,
      kind: r.plugin.kind,
      language: language(r.plugin),
      metrics: { ...r.metrics },
    });
    return [
      ...this.filters.map(plain),
      ...this.preActions.map(plain),
      ...this.postActions.map(plain),
      ...this.handlers.map(plain),
      ...this.schedulers.map((s) => ({ ...plain(s), schedule: { intervalMs: s.plugin.intervalMs, status: s.status } })),
    ];
  }

  /**
   * Runs one plugin call and records it. A call that returns no promise is recorded at once (no microtask, and no
   * closure, per plugin per block): `true` then, else a promise of whether it succeeded.
   */
  private execute(
    entry: Registered<IndexerPlugin<never>>,
    run: () => Promise<number | void> | number | void,
    rethrowCritical = true,
  ): true | Promise<boolean> {
    const startedAt = this.clock();
    const t0 = performance.now();
    let result: Promise<number | void> | number | void;
    try {
      result = run();
    } catch (err) {
      return this.settle(entry, Promise.reject(err), startedAt, t0, rethrowCritical);
    }
    // any thenable counts as a promise (operator plugins may bring their own)
    if (typeof (result as { then?: unknown } | undefined)?.then === "function")
      return this.settle(entry, result as Promise<number | void>, startedAt, t0, rethrowCritical);
    this.succeed(entry, result as number | void, startedAt, t0);
    return true;
  }

  private async settle(
    entry: Registered<IndexerPlugin<never>>,
    result: Promise<number | void>,
    startedAt: number,
    t0: number,
    rethrowCritical: boolean,
  ): Promise<boolean> {
    let items: number | void;
    try {
      items = await result;
    } catch (err) {
      this.fail(entry, err, startedAt, performance.now() - t0, 0);
      if (entry.critical && rethrowCritical) throw err;
      return false;
    }
    this.succeed(entry, items, startedAt, t0);
    return true;
  }

  private succeed(entry: Registered<IndexerPlugin<never>>, items: number | void, startedAt: number, t0: number): void {
    recordExecution(entry.metrics, { startedAt, durationMs: performance.now() - t0, items: typeof items === "number" ? items : 0 });
  }

  private fail(entry: Registered<IndexerPlugin<never>>, error: unknown, startedAt: number, durationMs: number, items: number): void {
    recordExecution(entry.metrics, { startedAt, durationMs, items, error });
    if (!entry.critical) this.options.onPluginError?.(entry.plugin.name, error);
  }
}

type PipelineScheduler = Registered<SchedulerPlugin> & { status: SchedulerStatus; timer?: NodeJS.Timeout };
