/**
 * connected-goods: `/extension/connected-goods/...` (shared/extensions/connected-goods): build the mint of a batch, the claim
 * of an item with its password (returned already signed by the item key), the update of a claimed item's social
 * hub, its transfer to a new owner, and the read of a hub, decrypted. Batches and hubs come from the indexer's facts (indexer.goodsBatch /
 * goodsHubs); pending claims from the shared in-flight registry, so replicas can run side by side. Each call's key
 * derivations are paid from its client's budget (`meta.clientKey`, GOODS_KDF_*) and stop when the gateway announces
 * its HTTP request gone or its timeout passes (shared/mesh/request-signals.ts).
 */
import type { Context, ServiceSchema } from "moleculer";
import { openIssuanceOverMesh } from "../shared/mesh/issuance-over-mesh";
import { DomainError, stillStarting } from "../shared/domain/errors";
import type { ChainClient } from "../shared/chain";
import { networkIdOfNetwork } from "../shared/config/network";
import { outRefKey } from "../shared/domain/out-ref";
import { loadBlueprint } from "../shared/protocol";
import { deriveConnectedGoodsScripts } from "../shared/extensions/connected-goods/goods-scripts";
import {
  claimItem,
  HubKeys,
  KdfAllowance,
  KdfBudget,
  mintBatch,
  readSocialHub,
  transferItem,
  updateItem,
  type BatchFact,
  type GoodsEnv,
  type HubFact,
} from "../shared/extensions/connected-goods";
import { defineRouteActions } from "../shared/gateway/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { ABORT_KEY_META, REQUEST_GONE_EVENT } from "../shared/gateway/request-gone";
import { RequestSignals } from "../shared/mesh/request-signals";

type Body = Record<string, unknown>;
type Meta = { $responseType?: string; clientKey?: string; [ABORT_KEY_META]?: string };

export default function createConnectedGoodsService(deps: ServiceDeps): ServiceSchema {
  const locals: { env?: GoodsEnv; client?: ChainClient } = {};
  const envOf = async (): Promise<GoodsEnv> => {
    if (!deps.config.protocol) {
      throw new DomainError("NOT_CONFIGURED", "No protocol deployment is configured (PROXY_TX_HASH): connected goods are unavailable.");
    }
    if (!locals.env) throw stillStarting("connected-goods");
    await locals.env.issuance.registry.expire();
    return locals.env;
  };
  const text = (ctx: Context<Body, Meta>, hex: string): string => {
    ctx.meta.$responseType = "text/plain";
    return hex;
  };
  const budget = new KdfBudget({ ...deps.config.goodsKdf, now: deps.now });
  const signals = new RequestSignals();
  /** Runs `work` with the call's allowance: its client's budget, and a signal that fires when its request is gone. */
  const metered = async <T>(ctx: Context<unknown, Meta>, work: (caller: KdfAllowance) => Promise<T>): Promise<T> => {
    const call = signals.enter(ctx.meta[ABORT_KEY_META], ctx.options?.timeout ?? undefined);
    const allowance = new KdfAllowance(budget, ctx.meta.clientKey ?? "mesh", call.signal);
    try {
      return await work(allowance);
    } finally {
      // payments whose derivation never started go back to the client's budget
      allowance.close();
      call.done();
    }
  };

  return {
    name: "connected-goods",
    actions: defineRouteActions("connected-goods", {
      mintBatch: { handler: async (ctx: Context<Body, Meta>) => metered(ctx, async (c) => mintBatch(await envOf(), ctx.params ?? {}, c)) },
      claimItem: {
        handler: async (ctx: Context<Body, Meta>) =>
          text(ctx, await metered(ctx, async (c) => claimItem(await envOf(), ctx.params ?? {}, c))),
      },
      updateItem: {
        handler: async (ctx: Context<Body, Meta>) =>
          text(ctx, await metered(ctx, async (c) => updateItem(await envOf(), ctx.params ?? {}, c))),
      },
      transferItem: {
        handler: async (ctx: Context<Body, Meta>) =>
          text(ctx, await metered(ctx, async (c) => transferItem(await envOf(), ctx.params ?? {}, c))),
      },
      socialHub: {
        params: { batchIds: { type: "string", min: 1, max: 2000 }, itemId: { type: "string", min: 1, max: 1024 } },
        handler: async (ctx: Context<{ batchIds: string; itemId: string }, Meta>) =>
          metered(ctx, async (c) => readSocialHub(await envOf(), ctx.params.batchIds, ctx.params.itemId, c)),
      },
    }),
    events: {
      // The gateway saw the client leave before the answer: stop that call's derivations. Never queued.
      [REQUEST_GONE_EVENT]: {
        bulkhead: { enabled: false },
        handler: (ctx: Context<{ key?: unknown }>) => {
          if (typeof ctx.params?.key === "string") signals.markGone(ctx.params.key);
        },
      } as never,
    },
    async started() {
      const broker = this.broker;
      const networkId = networkIdOfNetwork(deps.config.network);
      const { client, issuance } = await openIssuanceOverMesh(broker, deps, "connected-goods");
      locals.client = client;
      const protocol = deps.config.protocol;
      locals.env = {
        issuance,
        networkId,
        scripts: deriveConnectedGoodsScripts(loadBlueprint(), networkId),
        // per deployment: the proxy's one-shot out-ref names the deployment and never changes
        hubKeys: new HubKeys(protocol ? outRefKey(protocol.proxyOneShot) : "unconfigured"),
        source: {
          batch: (batchId) => broker.call<BatchFact | null, { batchId: string }>("indexer.goodsBatch", { batchId }),
          hubs: (batchId) => broker.call<HubFact[], { batchId: string }>("indexer.goodsHubs", { batchId }),
        },
      };
    },
    async stopped() {
      await locals.client?.close();
    },
  };
}
