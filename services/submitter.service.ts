/**
 * submitter: `/transaction/submit` (merge witnesses, submit, record in flight) and `/transaction/confirm/{hash}`
 * from the indexer's transaction index (any transaction on chain, not only the service's).
 * In-flight records follow the node: at start, on every `chain.block` and periodically, every record whose
 * transaction the node's mempool no longer holds is released (the event's payload is never trusted), and expired
 * records are dropped. A refused submission may be a list extension's build that lost its entry: the extension is
 * asked for a replacement (withRebuiltTransaction, shared/mesh/list-extension-service.ts). Each transaction handed to
 * the node is announced (`transaction.submitted`, docs/events.md) without waiting for the events service.
 * Logic: shared/submission/.
 */
import { addReadinessCheck } from "../shared/mesh/health-middleware";
import { utxoKey } from "../shared/csl/utxo";
import { TX_HASH_PARAM } from "../shared/mesh/action-params";
import { notFound, stillStarting } from "../shared/domain/errors";
import type { TxHash } from "../shared/domain/hex";
import { parseOutRefKey } from "../shared/domain/out-ref";
import type { Context, ServiceBroker, ServiceSchema } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import type { TransactionRecord } from "../shared/records/protocol-records";
import { slotToTimeFrom } from "../shared/indexer/slot-time";
import { catchUpProjections } from "../shared/mesh/fact-follower";
import { withRebuiltTransaction } from "../shared/mesh/list-extension-service";
import { defineRouteActions } from "../shared/gateway/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { InflightRegistry } from "../shared/inflight";
import { submitSignedTransaction } from "../shared/submission/submit-transaction";
import { EventAppender } from "../shared/mesh/event-appender";
import { transactionSubmitted } from "../shared/events/service-events";

const CBOR_HEX = { type: "string", optional: true, max: 65_536 * 2 } as const;
/** How often in-flight records are expired and reconciled without a block. */
const EXPIRY_INTERVAL_MS = 30_000;

interface SubmitterLocals {
  client?: ChainClient;
  slotToTime?: (slot: number) => number;
  inflight: InflightRegistry | null;
  timer?: NodeJS.Timeout;
  broker?: ServiceBroker;
  events?: EventAppender;
  logger?: ServiceBroker["logger"];
}

export default function createSubmitterService(deps: ServiceDeps): ServiceSchema {
  const locals: SubmitterLocals = { inflight: null };
  const ready = async (): Promise<{ client: ChainClient; slotToTime: (slot: number) => number }> => {
    if (!locals.client) throw stillStarting("submitter");
    if (!locals.slotToTime) {
      locals.slotToTime = slotToTimeFrom(await locals.client.eraSummaries(), (await locals.client.networkStartTime()).getTime());
    }
    return { client: locals.client, slotToTime: locals.slotToTime };
  };

  /** One reconciliation at a time; a request arriving meanwhile runs once more afterwards. */
  let reconciling: Promise<void> | undefined;
  let again = false;
  const reconcileSoon = (): void => {
    if (reconciling) {
      again = true;
      return;
    }
    reconciling = (async () => {
      do {
        again = false;
        const client = locals.client;
        if (!client || !locals.inflight) return;
        await locals.inflight.reconcile({ inMempoolAmong: (ids) => client.inMempoolAmong(ids) });
      } while (again);
    })()
      .catch((err: unknown) => locals.broker?.logger.warn("In-flight reconciliation failed", err))
      .finally(() => {
        reconciling = undefined;
      });
  };

  /** A transaction the ledger refused is worth an operator's look (a wallet or a build going wrong): one warning. */
  const noteRefusal = (err: unknown, requestId: string | null): void => {
    const e = err as { type?: unknown; message?: unknown; data?: { code?: unknown; reason?: unknown } };
    if (e.type !== "LEDGER_REJECTED") return;
    locals.logger?.warn("transaction refused by the ledger", {
      requestId,
      code: e.data?.code,
      reason: e.data?.reason,
      message: e.message,
    });
  };

  return {
    name: "submitter",
    actions: defineRouteActions("submitter", {
      submit: {
        params: { transaction: { type: "string", min: 1, max: 65_536 * 2 }, witnessSet: CBOR_HEX, witness_set: CBOR_HEX },
        async handler(ctx: Context<{ transaction: string; witnessSet?: string; witness_set?: string }>) {
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
                const found = await client.utxosByOutputReferences(refs.map((r) => parseOutRefKey(r)!));
                return found.map(utxoKey);
              },
              slotToTime,
              now: deps.now,
              inflight: locals.inflight,
            },
          ).catch(async (err: unknown) => {
            noteRefusal(err, ctx.requestID);
            throw await withRebuiltTransaction(ctx.broker, err, ctx.params.transaction);
          });
          locals.events?.append([transactionSubmitted(result.transactionHash, result.inFlightUntil, deps.now())]);
          return { transactionHash: result.transactionHash };
        },
      },
      confirm: {
        params: { hash: TX_HASH_PARAM },
        async handler(ctx: Context<{ hash: TxHash }>) {
          const tx = await ctx.call<TransactionRecord | null, { id: TxHash }>("indexer.transaction", { id: ctx.params.hash });
          if (!tx) throw notFound(`transaction ${ctx.params.hash} is not on chain (yet)`);
          // Read-your-writes: once this answers 200, every read the transaction affects (verify, credentials,
          // statistics, extension status…) already reflects it.
          await catchUpProjections(ctx.broker);
          return {
            transactionHash: tx._id,
            confirmed: true,
            blockHash: tx.blockId,
            blockNumber: tx.height,
            slot: tx.slot,
            valid: tx.valid,
          };
        },
      },
    }),
    events: {
      "chain.block": {
        handler() {
          reconcileSoon();
        },
      },
    },
    async started() {
      const chain = await deps.resources.chain();
      locals.broker = this.broker;
      locals.logger = this.logger;
      locals.events = new EventAppender(this.broker);
      const client = createChainClient({ url: chain.ogmiosUrl });
      locals.client = client;
      addReadinessCheck(this.broker, "submitter reaches the chain", async () => (await client.networkTip(), true));
      const inflight = await InflightRegistry.open(await deps.resources.store(), deps.now);
      locals.inflight = inflight;
      locals.timer = setInterval(() => {
        inflight.expire(deps.now()).catch((err: unknown) => this.logger.warn("In-flight expiry failed", err));
        reconcileSoon();
      }, EXPIRY_INTERVAL_MS);
      locals.timer.unref();
      // After a restart (or a new chain connection) records of transactions the node no longer holds go at once.
      reconcileSoon();
    },
    async stopped() {
      if (locals.timer) clearInterval(locals.timer);
      await locals.events?.flush(2_000);
      locals.events?.stop();
      await locals.client?.close();
    },
  };
}
