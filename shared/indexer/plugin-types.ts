/**
 * The indexer's plugin model, in the shape the spec's plugin-monitoring API describes (docs/architecture.md#plugins):
 * filters drop irrelevant transactions early, pre-actions and post-actions run around persisting a block,
 * event handlers react to decoded protocol events, schedulers run periodic jobs.
 * Built-in projections are plugins too; operators add their own from PLUGINS_DIR (plain JS modules).
 */
export type PluginKind = "filter" | "pre-action" | "post-action" | "event-handler" | "scheduler";

/** What plugins see of a block: enough to project, nothing tied to one chain client. */
export interface BlockContext<Tx = unknown> {
  slot: number;
  height: number;
  id: string;
  /** Block time in Unix ms. */
  time: number;
  transactions: Tx[];
}

export interface ProtocolEvent {
  /** e.g. "certificate.issued", "state.minted", "state.burned", "bootstrap.minted", "library.deployed" */
  type: string;
  slot: number;
  transactionId: string;
  payload: Record<string, unknown>;
}

interface PluginBase {
  name: string;
  /** Shown by the monitoring API; built-ins are "typescript", folder plugins "javascript". */
  language?: string;
}

export interface FilterPlugin<Tx = unknown> extends PluginBase {
  kind: "filter";
  /** Keep the transaction for further processing? */
  keep(tx: Tx, block: BlockContext<Tx>): boolean;
}

export interface PreActionPlugin<Tx = unknown> extends PluginBase {
  kind: "pre-action";
  /**
   * Runs before the block's facts are persisted; returns the number of items it handled. A plugin with `flush`
   * only stages its records here (in memory) and writes them in `flush`.
   */
  run(block: BlockContext<Tx>): Promise<number | void> | number | void;
  /**
   * Writes what `run` staged since the last call, in chain order. The indexer calls it in its batch write (one per
   * batch while catching up, one per block at the tip), before the checkpoint moves past the staged blocks.
   */
  flush?(): Promise<number | void> | number | void;
  /** Forgets what `run` staged and `flush` did not write (those blocks are processed again). */
  discard?(): void;
  /**
   * Deletes the plugin's records of blocks after `slot` (-1: all): a rollback, or what an interrupted write left
   * after the checkpoint. Records carry their block's slot for this.
   */
  rollback?(slot: number): Promise<void> | void;
}

export interface PostActionPlugin<Tx = unknown> extends PluginBase {
  kind: "post-action";
  /** Runs after the block and its events are persisted. */
  run(block: BlockContext<Tx>, events: readonly ProtocolEvent[]): Promise<number | void> | number | void;
}

export interface EventHandlerPlugin extends PluginBase {
  kind: "event-handler";
  /** Event types handled; "*" for all. */
  events: readonly string[];
  handle(event: ProtocolEvent): Promise<void> | void;
}

export interface SchedulerPlugin extends PluginBase {
  kind: "scheduler";
  intervalMs: number;
  run(): Promise<void> | void;
}

export type IndexerPlugin<Tx = unknown> =
  FilterPlugin<Tx> | PreActionPlugin<Tx> | PostActionPlugin<Tx> | EventHandlerPlugin | SchedulerPlugin;
