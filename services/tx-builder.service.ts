/**
 * tx-builder: `POST /transaction/build` and `/transaction/prepare-collateral` (shared/issuance), plus the
 * internal `burnStates` the user-state service's OPT_OUT uses. Stateless apart from the shared in-flight
 * registry in the store, so it scales to several replicas. Confirmed blocks release in-flight locks.
 */
import type { Context, ServiceSchema } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { networkIdOf } from "../shared/indexer/protocol-view";
import type { BootstrapInfo, LibraryEntry, PointerInfo, StateInfo } from "../shared/indexer/protocol-state";
import { InflightRegistry } from "../shared/inflight";
import { createIssuanceEnv, handleBuild, handleBurnStates, handlePrepareCollateral, handleUndeploy, handleUpgrade, httpStatusOf, type BuildTransactionResponse, type IssuanceEnv } from "../shared/issuance";
import { defineRouteActions, internalActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";

type Body = Record<string, unknown>;

export default function createTxBuilderService(deps: ServiceDeps): ServiceSchema {
  const locals: { env?: IssuanceEnv; client?: ChainClient; registry?: InflightRegistry } = {};
  const envOf = (): IssuanceEnv => {
    if (!locals.env) throw new Error("tx-builder not started");
    return locals.env;
  };
  const respond = (ctx: Context, res: BuildTransactionResponse): BuildTransactionResponse => {
    (ctx.meta as { $statusCode?: number }).$statusCode = httpStatusOf(res);
    return res;
  };
  /** Drops submissions past expiry before each build (cheap: one indexed delete). */
  const fresh = async (): Promise<IssuanceEnv> => {
    const env = envOf();
    await env.registry.expire();
    return env;
  };

  return {
    name: "tx-builder",
    actions: {
      ...defineRouteActions("tx-builder", {
        build: {
          async handler(ctx: Context<Body>) {
            return respond(ctx, await handleBuild(await fresh(), ctx.params ?? {}));
          },
        },
        prepareCollateral: {
          async handler(ctx: Context<Body>) {
            return respond(ctx, await handlePrepareCollateral(await fresh(), ctx.params ?? {}));
          },
        },
      }),
      ...internalActions({
        /** One transaction burning several states of one owner (user-state OPT_OUT / INVALIDATE_STATE). */
        burnStates: {
          params: { address: { type: "string", min: 1 }, stateIds: { type: "array", items: { type: "string", length: 64, hex: true }, min: 1 } },
          async handler(ctx: Context<{ address: string; stateIds: string[] }>) {
            return handleBurnStates(await fresh(), ctx.params.address, ctx.params.stateIds);
          },
        },
        /** The library's upgrade (new state script) and undeploy transactions, for the service wallet. */
        upgrade: {
          params: { address: { type: "string", min: 1 }, scriptReference: { type: "any" } },
          async handler(ctx: Context<{ address: string; scriptReference: unknown }>) {
            return handleUpgrade(await fresh(), ctx.params.address, ctx.params.scriptReference);
          },
        },
        undeploy: {
          params: { address: { type: "string", min: 1 }, transactionHash: { type: "string", length: 64, hex: true, optional: true }, outputIndex: { type: "number", integer: true, min: 0, optional: true } },
          async handler(ctx: Context<{ address: string; transactionHash?: string; outputIndex?: number }>) {
            const { transactionHash, outputIndex } = ctx.params;
            const which = transactionHash !== undefined && outputIndex !== undefined ? { outRef: { txHash: transactionHash.toLowerCase(), index: outputIndex } } : ("unused" as const);
            return handleUndeploy(await fresh(), ctx.params.address, which);
          },
        },
      }),
    },
    events: {
      "chain.block": {
        async handler(ctx: Context<{ transactionIds?: string[] }>) {
          await locals.registry?.confirmed(ctx.params.transactionIds ?? []);
        },
      },
    },
    async started() {
      const store = await deps.resources.store();
      const chain = await deps.resources.chain();
      const client = createChainClient({ url: chain.ogmiosUrl });
      locals.client = client;
      locals.registry = await InflightRegistry.open(store, deps.now);
      const broker = this.broker;
      locals.env = await createIssuanceEnv({
        chain: client,
        registry: locals.registry,
        protocol: deps.config.protocol,
        networkId: networkIdOf(deps.config.network),
        now: deps.now,
        source: {
          states: (filter) => broker.call<StateInfo[], typeof filter>("indexer.states", filter),
          bootstraps: (filter) => broker.call<BootstrapInfo[], typeof filter>("indexer.bootstraps", filter),
          protocol: () => broker.call<{ pointer: PointerInfo | null; library: LibraryEntry[] }>("indexer.protocol"),
        },
      });
    },
    async stopped() {
      await locals.client?.close();
    },
  };
}
