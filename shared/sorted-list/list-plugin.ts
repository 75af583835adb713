/**
 * The indexer plugin that records sorted lists of one kind (list-store.ts): a critical staging pre-action, so it
 * sees every transaction of the block (claims touch no core-protocol script and would not pass the protocol
 * filter), writes in the indexer's batch write before the checkpoint moves, and a failure makes the indexer
 * process the blocks again.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import type { PreActionPlugin } from "../indexer/plugin-types";
import type { SortedListStore } from "./list-store";

function sortedListPluginName(store: SortedListStore): string {
  return `${store.layout.name}-lists`;
}

export function createSortedListPlugin(store: SortedListStore): PreActionPlugin<Transaction> {
  return {
    kind: "pre-action",
    name: sortedListPluginName(store),
    run: (block) => store.stageBlock(block),
    flush: () => store.flush(),
    discard: () => store.discard(),
    rollback: (slot) => store.rollback(slot),
  };
}
