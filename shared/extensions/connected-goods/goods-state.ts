/**
 * Connected-goods state as the indexer has confirmed it, from the latest fact per batch and per hub (fact-log.ts):
 * a rolled-back claim disappears with its facts, and the batch output before it is current again.
 */
import type { FactLog } from "../../indexer/fact-log";
import type { BatchFact, HubFact } from "./goods-decoder";

/** The batch's current output, or null (never seen, or closed). */
async function currentBatch(log: FactLog, batchId: string): Promise<BatchFact | null> {
  const [latest] = await log.current({ in: [`batch:${batchId}`] });
  return latest?.fact?.type === "goods.batch" ? latest.fact : null;
}

/** The current hub outputs of a batch's claimed items, in no particular order. */
async function hubsOfBatch(log: FactLog, batchId: string): Promise<HubFact[]> {
  const keys = await log.keysWhere({ "fact.batchId": batchId, "fact.type": "goods.hub" });
  if (keys.length === 0) return [];
  const latest = await log.current({ in: keys });
  return latest.map((r) => r.fact).filter((f): f is HubFact => f?.type === "goods.hub");
}

/** The reads of the goods facts the indexer serves (internal actions `indexer.goodsBatch`, `indexer.goodsHubs`). */
export const GOODS_INDEXER_READS = {
  /** A connected-goods batch's current output (null: unknown or closed). */
  goodsBatch: {
    params: { batchId: { type: "string", length: 64, hex: true } },
    read: (log: FactLog, p: { batchId: string }) => currentBatch(log, p.batchId.toLowerCase()),
  },
  /** The social hubs minted from a batch, each at its current output. */
  goodsHubs: {
    params: { batchId: { type: "string", length: 64, hex: true } },
    read: (log: FactLog, p: { batchId: string }) => hubsOfBatch(log, p.batchId.toLowerCase()),
  },
} as const;
