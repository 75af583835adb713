/**
 * Connected-goods state as the indexer has confirmed it, from the latest fact per batch and per hub (fact-log.ts):
 * a rolled-back claim disappears with its facts, and the batch output before it is current again.
 */
import { Hash32 } from "../../domain/hex";
import type { FactLog } from "../../indexer/fact-log";
import type { BatchFact, HubFact } from "./goods-decoder";

/** The batch's current output, or null (never seen, or closed). */
async function currentBatch(log: FactLog, batchId: string): Promise<BatchFact | null> {
  const [latest] = await log.current({ in: [`batch:${batchId}`] });
  return latest?.fact?.type === "goods.batch" ? latest.fact : null;
}

/** The current hub outputs of a batch's claimed items, in no particular order. */
async function hubsOfBatch(log: FactLog, batchId: Hash32): Promise<HubFact[]> {
  const keys = await log.keysWhere({ "fact.batchId": batchId, "fact.type": "goods.hub" });
  if (keys.length === 0) return [];
  const latest = await log.current({ in: keys });
  return latest.map((r) => r.fact).filter((f): f is HubFact => f?.type === "goods.hub");
}

/** A batch id in an action's params: 64 hex digits, handed on as a Hash32 (the validator runs `custom` after the checks). */
const BATCH_ID_PARAM = { type: "string", length: 64, hex: true, custom: (v: unknown) => Hash32.parse(v) ?? v } as const;

/** The reads of the goods facts the indexer serves (internal actions `indexer.goodsBatch`, `indexer.goodsHubs`). */
export const GOODS_INDEXER_READS = {
  /** A connected-goods batch's current output (null: unknown or closed). */
  goodsBatch: {
    params: { batchId: BATCH_ID_PARAM },
    read: (log: FactLog, p: { batchId: Hash32 }) => currentBatch(log, p.batchId),
  },
  /** The social hubs minted from a batch, each at its current output. */
  goodsHubs: {
    params: { batchId: BATCH_ID_PARAM },
    read: (log: FactLog, p: { batchId: Hash32 }) => hubsOfBatch(log, p.batchId),
  },
} as const;
