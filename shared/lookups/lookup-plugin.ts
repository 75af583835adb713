/**
 * The indexer plugin behind the script/datum/transaction lookups: a pre-action that records the scripts,
 * datums, outputs and redeemers of the block's protocol-relevant transactions (lookup-store.ts). A pre-action
 * runs before the block's checkpoint is written, so (registered as critical) a failure makes the indexer process
 * the block again and the lookups never silently miss a transaction.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import type { PreActionPlugin } from "../indexer/plugin-types";
import type { LookupStore } from "./lookup-store";

export const LOOKUP_PLUGIN_NAME = "script-lookups";

export function createLookupPlugin(lookups: LookupStore, isRelevant: (tx: Transaction) => boolean): PreActionPlugin<Transaction> {
  return {
    kind: "pre-action",
    name: LOOKUP_PLUGIN_NAME,
    run: (block) => lookups.recordBlock(block.slot, block.transactions.filter(isRelevant)),
  };
}
