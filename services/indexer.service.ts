/**
 * indexer: follows the chain (shared/indexer) and serves its fact log to the consumers (verifier, stats, …), and
 * the script/datum/transaction lookups of `/scripts/...` and `/txs/...` from its `script-lookups` plugin (shared/lookups).
 * The extensions' part comes from their registry (shared/extensions/registry.ts): their fact decoders and reads,
 * and the layouts of their sorted lists. Single replica per deployment: it is the only writer of the chain cursor
 * and the fact log. In scale mode it also publishes `chain.block` and `chain.rollback` on plain NATS subjects, the
 * contract outside services may rely on (docs/nats-contract.md).
 */
import { addReadinessCheck } from "../shared/mesh/health-middleware";
import { DATUM_HASH_PARAM, hexParam, SCRIPT_HASH_PARAM, TX_HASH_PARAM } from "../shared/mesh/action-params";
import { PolicyId, TxHash, type Hash32, type ScriptHash } from "../shared/domain/hex";
import { notFound, stillStarting } from "../shared/domain/errors";
import type { Transaction } from "@cardano-ogmios/schema";
import type { ActionSchema, Context, ServiceSchema } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { Indexer } from "../shared/indexer/indexer";
import { loadPluginsFromDir } from "../shared/indexer/plugin-loader";
import { PluginPipeline } from "../shared/indexer/plugin-pipeline";
import { currentPointer, libraryEntries, liveBootstraps, liveStates } from "../shared/indexer/protocol-state";
import { networkIdOfNetwork } from "../shared/config/network";
import { protocolViewOf } from "../shared/indexer/protocol-view";
import { slotToTimeFrom } from "../shared/indexer/slot-time";
import { createLookupPlugin } from "../shared/lookups/lookup-plugin";
import { LookupStore } from "../shared/lookups/lookup-store";
import { defineRouteActions, internalActions } from "../shared/gateway/route-actions";
import { createSortedListPlugin, SortedListStore } from "../shared/sorted-list";
import { EXTENSION_INDEXER_READS, extensionFactDecoders, extensionListLayouts } from "../shared/extensions/registry";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { chainEventPublisher } from "../shared/mesh/chain-event-publisher";

interface IndexerLocals {
  indexer?: Indexer;
  client?: ChainClient;
  pipeline: PluginPipeline<Transaction>;
  lookups?: LookupStore;
  /** the sorted lists of the extensions, by layout name (shared/sorted-list) */
  sortedLists: Map<string, SortedListStore>;
}

export default function createIndexerService(deps: ServiceDeps): ServiceSchema {
  const locals: IndexerLocals = { pipeline: new PluginPipeline<Transaction>({ clock: deps.now }), sortedLists: new Map() };
  const indexerOf = (): Indexer => {
    if (!locals.indexer) throw stillStarting("indexer");
    return locals.indexer;
  };

  const lookups = (): LookupStore => {
    if (!locals.lookups) throw stillStarting("indexer");
    return locals.lookups;
  };
  const found = async <T>(value: Promise<T | undefined>, what: string): Promise<T> => {
    const v = await value;
    if (v === undefined) throw notFound(what);
    return v;
  };

  /** The routes of the lookups (`/scripts/…`, `/txs/…`): each reads one thing by one hash from the lookup store. */
  type Read<H> = (store: LookupStore, hash: H) => Promise<unknown>;
  const scriptLookup = (read: Read<ScriptHash>): ActionSchema => ({
    params: { scriptHash: SCRIPT_HASH_PARAM },
    handler: ({ params: { scriptHash } }: Context<{ scriptHash: ScriptHash }>) =>
      found(read(lookups(), scriptHash), `no script ${scriptHash} seen`),
  });
  const datumLookup = (read: Read<Hash32>): ActionSchema => ({
    params: { datumHash: DATUM_HASH_PARAM },
    handler: ({ params: { datumHash } }: Context<{ datumHash: Hash32 }>) => found(read(lookups(), datumHash), `no datum ${datumHash} seen`),
  });
  const transactionLookup = (read: Read<TxHash>): ActionSchema => ({
    params: { txHash: TX_HASH_PARAM },
    handler: ({ params: { txHash } }: Context<{ txHash: TxHash }>) => read(lookups(), txHash),
  });

  return {
    name: "indexer",
    actions: {
      ...defineRouteActions("indexer", {
        script: scriptLookup((store, hash) => store.script(hash)),
        scriptJson: scriptLookup((store, hash) => store.scriptJson(hash)),
        scriptDetails: scriptLookup((store, hash) => store.scriptDetails(hash)),
        scriptCbor: scriptLookup((store, hash) => store.scriptCbor(hash)),
        datum: datumLookup((store, hash) => store.datum(hash)),
        datumCbor: datumLookup((store, hash) => store.datumCbor(hash)),
        // A transaction without scripts, or one the indexer never saw, answers [] (as Blockfrost and Yaci do).
        txScripts: transactionLookup((store, hash) => store.txScripts(hash)),
        txRedeemers: transactionLookup((store, hash) => store.txRedeemers(hash)),
      }),
      ...internalActions({
        /** Facts and rollback markers after a consumer's cursor. */
        factsAfter: {
          params: {
            cursor: { type: "number", integer: true, min: 0 },
            limit: { type: "number", integer: true, min: 1, max: 5000, optional: true },
          },
          handler: (ctx: Context<{ cursor: number; limit?: number }>) => indexerOf().log.after(ctx.params.cursor, ctx.params.limit ?? 1000),
        },
        /** The recorded transaction (for confirmations), or null. */
        transaction: {
          params: { id: { type: "string", length: 64, hex: true, custom: hexParam(TxHash) } },
          // Known once its whole block is indexed (facts and checkpoint written), not when the transaction index
          // already has it: a confirmation then means every fact of the transaction is in the log.
          handler: async (ctx: Context<{ id: TxHash }>) => {
            const log = indexerOf().log;
            const tx = await log.transaction(ctx.params.id);
            const checkpoint = tx ? await log.checkpoint() : undefined;
            return tx && checkpoint && tx.slot <= checkpoint.point.slot ? tx : null;
          },
        },
        status: { handler: () => indexerOf().status() },
        /** Live (not burned) user states, by owner key hash and/or state id. */
        states: {
          params: {
            owner: { type: "string", length: 56, hex: true, optional: true },
            id: { type: "string", length: 64, hex: true, optional: true },
          },
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
            return {
              ...ix.viewSummary(),
              pointer: await currentPointer(ix.log),
              library: await libraryEntries(ix.log),
              stateScriptHashes: view.stateScriptHashes,
            };
          },
        },
        ...Object.fromEntries(
          Object.entries(EXTENSION_INDEXER_READS).map(([name, r]) => [
            name,
            { params: r.params, handler: (ctx: Context<never>) => r.read(indexerOf().log, ctx.params) } as ActionSchema,
          ]),
        ),
        pluginSnapshot: { handler: () => locals.pipeline.snapshot() },
        /** One extension list (by policy id or init output reference) and its current entries; list null when unknown. */
        sortedList: {
          params: {
            name: { type: "string", max: 32 },
            policyId: { type: "string", length: 56, hex: true, optional: true, custom: hexParam(PolicyId) },
            initTxHash: { type: "string", length: 64, hex: true, optional: true, custom: hexParam(TxHash) },
            initIndex: { type: "number", integer: true, min: 0, optional: true },
          },
          async handler(ctx: Context<{ name: string; policyId?: PolicyId; initTxHash?: TxHash; initIndex?: number }>) {
            const lists = locals.sortedLists.get(ctx.params.name);
            if (!lists) throw stillStarting("indexer");
            const { policyId, initTxHash, initIndex } = ctx.params;
            const list = policyId
              ? await lists.listByPolicy(policyId)
              : initTxHash !== undefined && initIndex !== undefined
                ? await lists.listByInitRef({ txHash: initTxHash, index: initIndex })
                : undefined;
            return { list: list ?? null, entries: list ? await lists.currentEntries(list.policyId) : [] };
          },
        },
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
      // In scale mode chain.block and chain.rollback also go out on plain NATS subjects (docs/nats-contract.md).
      const published = chainEventPublisher(broker, deps.config.namespace, this.logger);
      const networkId = networkIdOfNetwork(deps.config.network);
      locals.indexer = await Indexer.create({
        store,
        chain: client,
        protocolParameters: () => client.protocolParameters(),
        view: protocolViewOf(deps.config.protocol, networkId),
        decoders: extensionFactDecoders(networkId),
        pipeline: locals.pipeline,
        slotToTime,
        startPoint: deps.config.indexerStartPoint,
        // The lookups and the sorted lists forget rolled-back blocks through the pipeline (their plugins' rollback).
        notify: (event, payload) => {
          void broker.broadcast(event, payload);
          published?.publish(event, payload);
        },
        logger: { info: (m, d) => this.logger.info(m, d), warn: (m, d) => this.logger.warn(m, d) },
      });
      const indexer = locals.indexer;
      locals.lookups = await LookupStore.open(store);
      locals.pipeline.register(
        createLookupPlugin(locals.lookups, (tx) => indexer.isProtocolRelevant(tx)),
        { critical: true },
      );
      for (const layout of extensionListLayouts(networkId)) {
        const lists = await SortedListStore.open(store, layout);
        locals.sortedLists.set(layout.name, lists);
        locals.pipeline.register(createSortedListPlugin(lists), { critical: true });
      }
      locals.pipeline.startSchedulers();
      addReadinessCheck(this.broker, "indexer follows the chain", () => indexer.status().state === "following");
      await locals.indexer.start();
    },
    async stopped() {
      locals.pipeline.stopSchedulers();
      await locals.indexer?.stop();
      await locals.client?.close();
    },
  };
}
