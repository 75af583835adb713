/**
 * submitter: `/transaction/confirm/{hash}` from the indexer's transaction index (any transaction on chain, not
 * only the service's). Submission and in-flight tracking arrive with the issuance issue.
 */
import type { Context, ServiceSchema } from "moleculer";
import { Errors } from "moleculer";
import type { TransactionRecord } from "../shared/indexer/fact-log";
import { defineRouteActions } from "../shared/mesh/route-actions";

const TX_HASH = { type: "string", pattern: /^[0-9a-fA-F]{64}$/, messages: { stringPattern: "'{field}' must be 64 hex digits" } } as const;

export default function createSubmitterService(): ServiceSchema {
  return {
    name: "submitter",
    actions: defineRouteActions("submitter", {
      confirm: {
        params: { hash: TX_HASH },
        async handler(ctx: Context<{ hash: string }>) {
          const tx = await ctx.call<TransactionRecord | null, { id: string }>("indexer.transaction", { id: ctx.params.hash });
          if (!tx) throw new Errors.MoleculerClientError(`transaction ${ctx.params.hash.toLowerCase()} is not on chain (yet)`, 404, "NOT_FOUND");
          return { transactionHash: tx._id, confirmed: true, blockHash: tx.blockId, blockNumber: tx.height, slot: tx.slot, valid: tx.valid };
        },
      },
    }),
  };
}
