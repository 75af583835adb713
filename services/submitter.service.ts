/**
 * submitter: `/transaction/submit` (merge witnesses, submit, record in flight) and `/transaction/confirm/{hash}`
 * from the indexer's transaction index (any transaction on chain, not only the service's).
 * In-flight entries are released on `chain.block` (their transaction ids) and by a periodic expiry job.
 * Logic: shared/submission/.
 */
import type { Context, ServiceSchema } from "moleculer";
import { Errors } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { DomainError } from "../shared/domain/errors";
import type { TransactionRecord } from "../shared/indexer/fact-log";
import { slotToTimeFrom } from "../shared/indexer/slot-time";
import { defineRouteActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { InflightRegistry } from "../shared/inflight";
import { submitSignedTransaction } from "../shared/submission/submit-transaction";

const TX_HASH = { type: "string", pattern: /^[0-9a-fA-F]{64}$/, messages: { stringPattern: "'{field}' must be 64 hex digits" } } as const;
const CBOR_HEX = { type: "string", optional: true, max: 65_536 * 2 } as const;
/** How often expired in-flight entries are released. */
const EXPIRY_INTERVAL_MS = 30_000;

const HTTP_STATUS: Record<string, number> = { INVALID_TRANSACTION: 400, LEDGER_REJECTED: 400, INPUTS_IN_FLIGHT: 409, CHAIN_UNAVAILABLE: 503 };

interface SubmitterLocals {
  client?: ChainClient;
  slotToTime?: (slot: number) => number;
  inflight: InflightRegistry | null;
  timer?: NodeJS.Timeout;
}

export default function createSubmitterService(deps: ServiceDeps): ServiceSchema {
  const locals: SubmitterLocals = { inflight: null };
  const ready = async (): Promise<{ client: ChainClient; slotToTime: (slot: number) => number }> => {
    if (!locals.client) throw new Errors.MoleculerServerError("submitter not started", 503, "CHAIN_UNAVAILABLE");
    if (!locals.slotToTime) {
      locals.slotToTime = slotToTimeFrom(await locals.client.eraSummaries(), (await locals.client.networkStartTime()).getTime());
    }
    return { client: locals.client, slotToTime: locals.slotToTime };
  };

  return {
    name: "submitter",
    actions: defineRouteActions("submitter", {
      submit: {
        params: { transaction: { type: "string", min: 1, max: 65_536 * 2 }, witnessSet: CBOR_HEX, witness_set: CBOR_HEX },
        async handler(ctx: Context<{ transaction: string; witnessSet?: string; witness_set?: string }>) {
          try {
            const { client, slotToTime } = await ready();
            const result = await submitSignedTransaction(
              { transaction: ctx.params.transaction, witnessSet: ctx.params.witnessSet ?? ctx.params.witness_set },
              {
                submit: (cbor) => client.submit(cbor),
                knownTransaction: async (txId) => {
                  if (await ctx.call<TransactionRecord | null, { id: string }>("indexer.transaction", { id: txId })) return true;
                  const mempool = await client.mempool();
                  try {
                    await mempool.acquire(5_000);
                    return await mempool.hasTransaction(txId);
                  } finally {
                    await mempool.close();
                  }
                },
                confirmedOutputs: async (refs) => {
                  const found = await client.utxosByOutputReferences(refs.map((r) => ({ txId: r.split("#")[0]!, index: Number(r.split("#")[1]) })));
                  return found.map((u) => `${u.transaction.id}#${u.index}`);
                },
                slotToTime,
                now: deps.now,
                inflight: locals.inflight,
              },
            );
            return { transactionHash: result.transactionHash };
          } catch (err) {
            if (err instanceof DomainError) {
              throw new Errors.MoleculerClientError(err.message, HTTP_STATUS[err.type] ?? 400, err.type, err.data);
            }
            throw err;
          }
        },
      },
      confirm: {
        params: { hash: TX_HASH },
        async handler(ctx: Context<{ hash: string }>) {
          const tx = await ctx.call<TransactionRecord | null, { id: string }>("indexer.transaction", { id: ctx.params.hash });
          if (!tx) throw new Errors.MoleculerClientError(`transaction ${ctx.params.hash.toLowerCase()} is not on chain (yet)`, 404, "NOT_FOUND");
          return { transactionHash: tx._id, confirmed: true, blockHash: tx.blockId, blockNumber: tx.height, slot: tx.slot, valid: tx.valid };
        },
      },
    }),
    events: {
      "chain.block": {
        async handler(ctx: Context<{ transactionIds?: string[] }>) {
          const ids = ctx.params.transactionIds ?? [];
          if (locals.inflight && ids.length > 0) await locals.inflight.confirmed(ids);
        },
      },
    },
    async started() {
      const chain = await deps.resources.chain();
      locals.client = createChainClient({ url: chain.ogmiosUrl });
      const inflight = await InflightRegistry.open(await deps.resources.store(), deps.now);
      locals.inflight = inflight;
      locals.timer = setInterval(() => {
        inflight.expire(deps.now()).catch((err: unknown) => this.logger.warn("In-flight expiry failed", err));
      }, EXPIRY_INTERVAL_MS);
      locals.timer.unref();
    },
    async stopped() {
      if (locals.timer) clearInterval(locals.timer);
      await locals.client?.close();
    },
  };
}
