/**
 * The indexer plugin behind the script/datum/transaction lookups: a staging pre-action that stages the scripts,
 * datums, outputs and redeemers of the block's protocol-relevant transactions (lookup-store.ts) and writes them in
 * the indexer's batch write, before the checkpoint moves past their blocks. Registered as critical: a failure makes
 * the indexer process the blocks again, so the lookups never silently miss a transaction.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import type { PreActionPlugin } from "../indexer/plugin-types";
import type { LookupStore } from "./lookup-store";

const LOOKUP_PLUGIN_NAME = "script-lookups";

export function createLookupPlugin(lookups: LookupStore, isRelevant: (tx: Transaction) => boolean): PreActionPlugin<Transaction> {
  return {
    kind: "pre-action",
    name: LOOKUP_PLUGIN_NAME,
    run: (block) => (block.transactions.length === 0 ? 0 : lookups.stageBlock(block.slot, block.transactions.filter(isRelevant))),
    flush: () => lookups.flush(),
    discard: () => lookups.discard(),
    rollback: (slot) => lookups.rollback(slot),
  };
}
