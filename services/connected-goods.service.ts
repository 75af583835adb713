/**
 * connected-goods: `/extension/connected-goods/...` (shared/connected-goods): build the mint of a batch, the claim
 * of an item with its password (returned already signed by the item key), the update of a claimed item's social
 * hub, its transfer to a new owner, and the read of a hub, decrypted. Batches and hubs come from the indexer's facts (indexer.goodsBatch /
 * goodsHubs); pending claims from the shared in-flight registry, so replicas can run side by side.
 */
import type { Context, ServiceSchema } from "moleculer";
import { openIssuanceOverMesh } from "../shared/mesh/issuance-over-mesh";
import { DomainError, stillStarting } from "../shared/domain/errors";
import type { ChainClient } from "../shared/chain";
import { networkIdOfNetwork } from "../shared/config/network";
import { outRefKey } from "../shared/domain/out-ref";
import { deriveConnectedGoodsScripts, loadBlueprint } from "../shared/protocol";
import {
  claimItem,
  HubKeys,
  mintBatch,
  readSocialHub,
  transferItem,
  updateItem,
  type BatchFact,
  type GoodsEnv,
  type HubFact,
} from "../shared/connected-goods";
import { defineRouteActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";

type Body = Record<string, unknown>;
type TextMeta = { $responseType?: string };

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
  const text = (ctx: Context<Body, TextMeta>, hex: string): string => {
    ctx.meta.$responseType = "text/plain";
    return hex;
  };

  return {
    name: "connected-goods",
    actions: defineRouteActions("connected-goods", {
      mintBatch: { handler: async (ctx: Context<Body>) => mintBatch(await envOf(), ctx.params ?? {}) },
      claimItem: { handler: async (ctx: Context<Body, TextMeta>) => text(ctx, await claimItem(await envOf(), ctx.params ?? {})) },
      updateItem: { handler: async (ctx: Context<Body, TextMeta>) => text(ctx, await updateItem(await envOf(), ctx.params ?? {})) },
      transferItem: { handler: async (ctx: Context<Body, TextMeta>) => text(ctx, await transferItem(await envOf(), ctx.params ?? {})) },
      socialHub: {
        params: { batchIds: { type: "string", min: 1, max: 2000 }, itemId: { type: "string", min: 1, max: 1024 } },
        handler: async (ctx: Context<{ batchIds: string; itemId: string }>) =>
          readSocialHub(await envOf(), ctx.params.batchIds, ctx.params.itemId),
      },
    }),
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
