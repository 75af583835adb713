/**
 * indexer: follows the chain (shared/indexer) and serves its fact log to the consumers (verifier, stats, …), and
 * the script/datum/transaction lookups of `/scripts/...` and `/txs/...` from its `script-lookups` plugin (shared/lookups).
 * Single replica per deployment: it is the only writer of the chain cursor and the fact log.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import type { Context, ServiceSchema } from "moleculer";
import { Errors } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { Indexer } from "../shared/indexer/indexer";
import { loadPluginsFromDir } from "../shared/indexer/plugin-loader";
import { PluginPipeline } from "../shared/indexer/plugin-pipeline";
import { currentPointer, libraryEntries, liveBootstraps, liveStates } from "../shared/indexer/protocol-state";
import { networkIdOf, protocolViewOf } from "../shared/indexer/protocol-view";
import { slotToTimeFrom } from "../shared/indexer/slot-time";
import { createLookupPlugin } from "../shared/lookups/lookup-plugin";
import { LookupStore } from "../shared/lookups/lookup-store";
import { defineRouteActions, internalActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";

interface IndexerLocals {
  indexer?: Indexer;
  client?: ChainClient;
  pipeline: PluginPipeline<Transaction>;
  lookups?: LookupStore;
}

const SCRIPT_HASH = { type: "string", pattern: /^[0-9a-fA-F]{56}$/, messages: { stringPattern: "'{field}' must be a 56-hex script hash" } } as const;
const HASH_32 = { type: "string", pattern: /^[0-9a-fA-F]{64}$/, messages: { stringPattern: "'{field}' must be 64 hex digits" } } as const;

const notFound = (what: string) => new Errors.MoleculerClientError(what, 404, "NOT_FOUND");

export default function createIndexerService(deps: ServiceDeps): ServiceSchema {
  const locals: IndexerLocals = { pipeline: new PluginPipeline<Transaction>({ clock: deps.now }) };
  const indexerOf = (): Indexer => {
    if (!locals.indexer) throw new Error("indexer not started");
    return locals.indexer;
  };

  const lookups = (): LookupStore => {
    if (!locals.lookups) throw new Errors.MoleculerRetryableError("indexer is starting", 503, "SERVICE_STARTING");
    return locals.lookups;
  };
  const found = async <T>(value: Promise<T | undefined>, what: string): Promise<T> => {
    const v = await value;
    if (v === undefined) throw notFound(what);
    return v;
  };

  const seen = async (txHash: string): Promise<void> => {
    if (!(await indexerOf().log.transaction(txHash.toLowerCase()))) throw notFound(`transaction ${txHash.toLowerCase()} has not been seen on chain`);
  };

  return {
    name: "indexer",
    actions: {
      ...defineRouteActions("indexer", {
        script: { params: { scriptHash: SCRIPT_HASH }, handler: (ctx: Context<{ scriptHash: string }>) => found(lookups().script(ctx.params.scriptHash), `no script ${ctx.params.scriptHash.toLowerCase()} seen`) },
        scriptJson: { params: { scriptHash: SCRIPT_HASH }, handler: (ctx: Context<{ scriptHash: string }>) => found(lookups().scriptJson(ctx.params.scriptHash), `no script ${ctx.params.scriptHash.toLowerCase()} seen`) },
        scriptDetails: { params: { scriptHash: SCRIPT_HASH }, handler: (ctx: Context<{ scriptHash: string }>) => found(lookups().scriptDetails(ctx.params.scriptHash), `no script ${ctx.params.scriptHash.toLowerCase()} seen`) },
        scriptCbor: { params: { scriptHash: SCRIPT_HASH }, handler: (ctx: Context<{ scriptHash: string }>) => found(lookups().scriptCbor(ctx.params.scriptHash), `no script ${ctx.params.scriptHash.toLowerCase()} seen`) },
        datum: { params: { datumHash: HASH_32 }, handler: (ctx: Context<{ datumHash: string }>) => found(lookups().datum(ctx.params.datumHash), `no datum ${ctx.params.datumHash.toLowerCase()} seen`) },
        datumCbor: { params: { datumHash: HASH_32 }, handler: (ctx: Context<{ datumHash: string }>) => found(lookups().datumCbor(ctx.params.datumHash), `no datum ${ctx.params.datumHash.toLowerCase()} seen`) },
        // A transaction the indexer never saw is 404; a seen one without scripts answers [] (as the reference).
        txScripts: { params: { txHash: HASH_32 }, handler: async (ctx: Context<{ txHash: string }>) => (await seen(ctx.params.txHash), lookups().txScripts(ctx.params.txHash)) },
        txRedeemers: { params: { txHash: HASH_32 }, handler: async (ctx: Context<{ txHash: string }>) => (await seen(ctx.params.txHash), lookups().txRedeemers(ctx.params.txHash)) },
      }),
      ...internalActions({
        /** Facts and rollback markers after a consumer's cursor. */
        factsAfter: {
          params: { cursor: { type: "number", integer: true, min: 0 }, limit: { type: "number", integer: true, min: 1, max: 5000, optional: true } },
          handler: (ctx: Context<{ cursor: number; limit?: number }>) => indexerOf().log.after(ctx.params.cursor, ctx.params.limit ?? 1000),
        },
        /** The recorded transaction (for confirmations), or null. */
        transaction: {
          params: { id: { type: "string", length: 64, hex: true } },
          handler: async (ctx: Context<{ id: string }>) => (await indexerOf().log.transaction(ctx.params.id.toLowerCase())) ?? null,
        },
        status: { handler: () => indexerOf().status() },
        /** Live (not burned) user states, by owner key hash and/or state id. */
        states: {
          params: { owner: { type: "string", length: 56, hex: true, optional: true }, id: { type: "string", length: 64, hex: true, optional: true } },
          handler: (ctx: Context<{ owner?: string; id?: string }>) => liveStates(indexerOf().log, ctx.params),
        },
        /** Live bootstrap datums, optionally by name. */
        bootstraps: {
          params: { name: { type: "string", max: 64, optional: true } },
          handler: (ctx: Context<{ name?: string }>) => liveBootstraps(indexerOf().log, ctx.params),
        },
        /** The deployment as indexed: addresses, policy, current pointer and library entries. */
        protocol: {
          async handler() {
            const ix = indexerOf();
            const view = ix.status();
            return { ...ix.viewSummary(), pointer: await currentPointer(ix.log), library: await libraryEntries(ix.log), stateScriptHashes: view.stateScriptHashes };
          },
        },
        pluginSnapshot: { handler: () => locals.pipeline.snapshot() },
      }),
    },
    async started() {
      const store = await deps.resources.store();
      const chain = await deps.resources.chain();
      const client = createChainClient({ url: chain.ogmiosUrl });
      locals.client = client;
      const slotToTime = slotToTimeFrom(await client.eraSummaries(), (await client.networkStartTime()).getTime());
      if (deps.config.pluginsDir) for (const p of loadPluginsFromDir(deps.config.pluginsDir)) locals.pipeline.register(p as never);
      if (!deps.config.protocol) this.logger.warn("No protocol deployment configured (PROXY_TX_HASH): recording transactions only.");
      const broker = this.broker;
      locals.indexer = await Indexer.create({
        store,
        chain: client,
        view: protocolViewOf(deps.config.protocol, networkIdOf(deps.config.network)),
        pipeline: locals.pipeline,
        slotToTime,
        startPoint: deps.config.indexerStartPoint,
        notify: (event, payload) => {
          // The lookups forget a rolled-back block before the next block is recorded (their writes are serialised).
          if (event === "chain.rollback") {
            locals.lookups?.rollback(Number(payload["slot"])).catch((err: unknown) => this.logger.error("lookups: rollback failed", { error: err instanceof Error ? err.message : String(err) }));
          }
          void broker.broadcast(event, payload);
        },
        logger: { info: (m, d) => this.logger.info(m, d), warn: (m, d) => this.logger.warn(m, d) },
      });
      const indexer = locals.indexer;
      locals.lookups = await LookupStore.open(store);
      locals.pipeline.register(createLookupPlugin(locals.lookups, (tx) => indexer.isProtocolRelevant(tx)), { critical: true });
      locals.pipeline.startSchedulers();
      await locals.indexer.start();
    },
    async stopped() {
      locals.pipeline.stopSchedulers();
      await locals.indexer?.stop();
      await locals.client?.close();
    },
  };
}
