/**
 * The indexer's own plugins, so plugin monitoring shows the built-in work with its metrics:
 * - pre-action `transaction-index` (critical): stages every transaction id of the block, for confirmations (written
 *   with the block's facts);
 * - filter `protocol-relevance`: lets only transactions touching the protocol reach the decoder;
 * - post-action `chain-notifier`: broadcasts `chain.block`;
 * - event handler `protocol-notifier`: broadcasts every decoded fact as `protocol.<type>`;
 * - scheduler `block-history-pruning`: keeps the stored block points (intersection candidates) bounded.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import type { ChainBlockEvent, ChainEventPayloads } from "../records/published-events";
import { RECENT_BLOCKS_KEPT, type FactLog } from "./fact-log";
import type { PluginPipeline } from "./plugin-pipeline";
import type { BlockContext } from "./plugin-types";

/**
 * What the indexer notifies on the bus: `chain.block` and `chain.rollback` with the payloads of the published contract
 * (shared/records/published-events.ts: the same payloads go out on plain NATS), and each decoded fact as
 * `protocol.<type>`.
 */
export interface IndexerNotices extends ChainEventPayloads {
  [event: `protocol.${string}`]: Record<string, unknown>;
}
export type IndexerNotify = <E extends keyof IndexerNotices>(event: E, payload: IndexerNotices[E]) => void;

export interface BuiltinPluginDeps {
  log: FactLog;
  isRelevant(tx: Transaction): boolean;
  notify?: IndexerNotify;
  /** Block points kept for intersections (default 2160, the security parameter k of mainnet). */
  keepBlocks?: number;
  pruneIntervalMs?: number;
}

export function transactionsOf(block: BlockContext<Transaction>) {
  return block.transactions.map((t) => ({ id: t.id, fee: BigInt(t.fee?.ada.lovelace ?? 0n), valid: t.spends !== "collaterals" }));
}

export function registerBuiltinPlugins(pipeline: PluginPipeline<Transaction>, deps: BuiltinPluginDeps): void {
  pipeline.register(
    {
      kind: "pre-action",
      name: "transaction-index",
      run: (block) =>
        deps.log.stageTransactions({
          point: { slot: block.slot, id: block.id },
          height: block.height,
          time: block.time,
          transactions: transactionsOf(block),
        }),
    },
    { critical: true },
  );
  pipeline.register({ kind: "filter", name: "protocol-relevance", keep: (tx) => deps.isRelevant(tx) });
  const notify = deps.notify;
  if (notify) {
    pipeline.register({
      kind: "post-action",
      name: "chain-notifier",
      run: (block) => {
        const payload: ChainBlockEvent = {
          slot: block.slot,
          height: block.height,
          id: block.id,
          time: block.time,
          transactionIds: block.transactions.map((t) => t.id),
          lastSeq: deps.log.lastSeq(),
        };
        notify("chain.block", payload);
        return 1;
      },
    });
    pipeline.register({
      kind: "event-handler",
      name: "protocol-notifier",
      events: ["*"],
      handle: (e) => notify(`protocol.${e.type}`, { ...e.payload, slot: e.slot, transactionId: e.transactionId }),
    });
  }
  const keep = deps.keepBlocks ?? RECENT_BLOCKS_KEPT;
  pipeline.register({
    kind: "scheduler",
    name: "block-history-pruning",
    intervalMs: deps.pruneIntervalMs ?? 10 * 60_000,
    run: () => void deps.log.pruneBlocks(keep),
  });
}
