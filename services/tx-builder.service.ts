/**
 * tx-builder: `POST /transaction/build`, `/transaction/prepare-collateral` and `/batch/build` (shared/issuance), plus the
 * internal `burnStates` the user-state service's OPT_OUT uses. Stateless apart from the shared in-flight
 * registry in the store, so it scales to several replicas. Confirmed blocks release in-flight locks.
 */
import { openIssuanceOverMesh } from "../shared/mesh/issuance-over-mesh";
import { httpStatusOfType } from "../shared/gateway/http-status";
import { stillStarting } from "../shared/domain/errors";
import type { TxHash } from "../shared/domain/hex";
import { TX_HASH_PARAM } from "../shared/mesh/action-params";
import type { Context, ServiceSchema } from "moleculer";
import type { ChainClient } from "../shared/chain";
import type { StateInfo } from "../shared/records/protocol-records";
import type { InflightRegistry } from "../shared/inflight";
import {
  handleBatchBuild,
  handleBuild,
  handleBurnStates,
  handlePrepareCollateral,
  handleUndeploy,
  handleUpgrade,
  type BuildTransactionResponse,
  type IssuanceEnv,
} from "../shared/issuance";
import { defineRouteActions, internalActions } from "../shared/gateway/route-actions";
import { MerkleTreeStore } from "../shared/merkle/tree-store";
import { BatchQuota } from "../shared/merkle/batch-quota";
import type { ServiceDeps } from "../shared/mesh/service-deps";

type Body = Record<string, unknown>;

/** The window of a client's hashed batch leaves: about the validity of a built transaction (600 slots). */
const BATCH_QUOTA_WINDOW_MS = 10 * 60_000;

export default function createTxBuilderService(deps: ServiceDeps): ServiceSchema {
  const locals: {
    env?: IssuanceEnv;
    client?: ChainClient;
    registry?: InflightRegistry;
    trees?: MerkleTreeStore;
    batchQuota?: BatchQuota;
  } = {};
  const envOf = (): IssuanceEnv => {
    if (!locals.env) throw stillStarting("tx-builder");
    return locals.env;
  };
  const respond = (ctx: Context, res: BuildTransactionResponse): BuildTransactionResponse => {
    (ctx.meta as { $statusCode?: number }).$statusCode = httpStatusOfType(res.status.code);
    return res;
  };
  /** Drops submissions past expiry before a build (at most once a second: queries ignore expired records anyway). */
  const fresh = async (): Promise<IssuanceEnv> => {
    const env = envOf();
    await env.registry.sweep();
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
        /**
         * The anchoring of a Merkle batch (shared/issuance/batch-build.ts); `hashes` may be bytes. Over NATS the
         * gateway streams the packed hashes instead (shared/mesh/batch-stream-middleware.ts): read from `ctx.stream`.
         */
        buildBatch: {
          async handler(ctx: Context<Body, { clientKey?: string }>) {
            const stream = (ctx as { stream?: AsyncIterable<unknown> | null }).stream ?? undefined;
            const env = await fresh();
            if (!locals.trees || !locals.batchQuota) throw stillStarting("tx-builder");
            const batch = { trees: locals.trees, quota: locals.batchQuota, client: ctx.meta.clientKey ?? "mesh" };
            return respond(ctx, await handleBatchBuild(env, batch, ctx.params ?? {}, stream));
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
          params: { address: { type: "string", min: 1 }, states: { type: "array", items: "object", min: 1 } },
          async handler(ctx: Context<{ address: string; states: StateInfo[] }>) {
            return handleBurnStates(await fresh(), ctx.params.address, ctx.params.states);
          },
        },
        /** The library's upgrade (new state script) and undeploy transactions, for the service wallet. */
        upgrade: {
          params: {
            address: { type: "string", min: 1 },
            scriptReference: { type: "any" },
            bootstrapAdministrators: { type: "any", optional: true },
            force: { type: "any", optional: true },
          },
          async handler(ctx: Context<{ address: string; scriptReference: unknown; bootstrapAdministrators?: unknown; force?: unknown }>) {
            const { address, scriptReference, bootstrapAdministrators, force } = ctx.params;
            return handleUpgrade(await fresh(), address, scriptReference, { bootstrapAdministrators, force });
          },
        },
        undeploy: {
          params: {
            address: { type: "string", min: 1 },
            transactionHash: { ...TX_HASH_PARAM, optional: true },
            outputIndex: { type: "number", integer: true, min: 0, optional: true },
          },
          async handler(ctx: Context<{ address: string; transactionHash?: TxHash; outputIndex?: number }>) {
            const { transactionHash, outputIndex } = ctx.params;
            const which =
              transactionHash !== undefined && outputIndex !== undefined
                ? { outRef: { txHash: transactionHash, index: outputIndex } }
                : ("unused" as const);
            return handleUndeploy(await fresh(), ctx.params.address, which);
          },
        },
      }),
    },
    async started() {
      const broker = this.broker;
      const store = await deps.resources.store();
      locals.trees = await MerkleTreeStore.open(store, deps.now);
      locals.batchQuota = new BatchQuota(locals.trees, deps.config.batchLeavesPerClient, BATCH_QUOTA_WINDOW_MS, deps.now);
      const { client, registry, issuance } = await openIssuanceOverMesh(broker, deps, "tx-builder");
      locals.client = client;
      locals.registry = registry;
      locals.env = issuance;
    },
    async stopped() {
      await locals.client?.close();
    },
  };
}
