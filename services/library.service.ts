/**
 * library: the deployment, upgrade and undeploy transactions of the protocol's reference scripts (built by the
 * tx-builder, paid and signed by the service wallet) and the current on-chain deployment state.
 */
import { utxoKey } from "../shared/csl/utxo";
import { httpStatusOfType } from "../shared/gateway/http-status";
import { DomainError, stillStarting } from "../shared/domain/errors";
import { HEX_PATTERNS, TxHash } from "../shared/domain/hex";
import { hexParam } from "../shared/mesh/action-params";
import type { Context, ServiceSchema } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { enterpriseAddressOfKeyHash } from "../shared/csl/address";
import type { StateInfo } from "../shared/records/protocol-records";
import { networkIdOfNetwork } from "../shared/config/network";
import { defineRouteActions } from "../shared/gateway/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { libraryDeployments, type ProtocolSnapshot } from "../shared/submission/library-deployments";

interface BuildResponse {
  unsignedTransaction?: string;
  type?: string;
  status?: { code?: string; message?: string };
}

export default function createLibraryService(deps: ServiceDeps): ServiceSchema {
  let client: ChainClient | undefined;
  const serviceAddress = (): string => {
    if (deps.config.serviceAddress) return deps.config.serviceAddress;
    const keyHash = deps.config.protocol?.serviceKeyHash;
    if (!keyHash) throw new DomainError("NOT_CONFIGURED", "No protocol deployment is configured (PROXY_TX_HASH, SERVICE_KEY_HASH).");
    return enterpriseAddressOfKeyHash(keyHash, networkIdOfNetwork(deps.config.network));
  };

  /** Calls a tx-builder action answering a BuildTransactionResponse and sets the HTTP status from its code. */
  const built = async (ctx: Context<unknown, { $statusCode?: number }>, action: string, params: Record<string, unknown>) => {
    const res = await ctx.call<BuildResponse, Record<string, unknown>>(action, { address: serviceAddress(), ...params });
    const status = res.status?.code !== undefined ? httpStatusOfType(res.status.code) : undefined;
    if (status !== undefined) ctx.meta.$statusCode = status;
    return res;
  };

  return {
    name: "library",
    actions: defineRouteActions("library", {
      upgradeProxy: {
        handler: (
          ctx: Context<{ scriptReference?: unknown; bootstrapAdministrators?: unknown; force?: unknown }, { $statusCode?: number }>,
        ) =>
          built(ctx, "tx-builder.upgrade", {
            scriptReference: ctx.params.scriptReference ?? "",
            bootstrapAdministrators: ctx.params.bootstrapAdministrators,
            force: ctx.params.force,
          }),
      },
      undeploy: {
        params: {
          // the validator's own message for a bad pattern, as this route has always answered it
          transactionHash: { type: "string", pattern: HEX_PATTERNS.hash32, custom: hexParam(TxHash) },
          outputIndex: { type: "number", integer: true, min: 0, convert: true },
        },
        handler: (ctx: Context<{ transactionHash: TxHash; outputIndex: number }, { $statusCode?: number }>) =>
          built(ctx, "tx-builder.undeploy", { transactionHash: ctx.params.transactionHash, outputIndex: ctx.params.outputIndex }),
      },
      undeployUnused: {
        handler: (ctx: Context<unknown, { $statusCode?: number }>) => built(ctx, "tx-builder.undeploy", {}),
      },
      deployProxy: {
        async handler(ctx: Context<Record<string, never>, { $statusCode?: number }>) {
          return { ...(await built(ctx, "tx-builder.build", { type: "deploy" })), type: "deploy" };
        },
      },
      deployments: {
        async handler(ctx: Context) {
          if (!client) throw stillStarting("library");
          const protocol = await ctx.call<ProtocolSnapshot>("indexer.protocol");
          const refs = protocol.library.map((e) => e.outRef);
          const onChain = await client.utxosByOutputReferences(refs);
          const unspent = new Set(onChain.map(utxoKey));
          const states = protocol.deployed ? await ctx.call<StateInfo[], Record<string, never>>("indexer.states", {}) : [];
          const boots = protocol.deployed ? await ctx.call<unknown[], Record<string, never>>("indexer.bootstraps", {}) : [];
          return libraryDeployments(protocol, unspent, states.length > 0 || boots.length > 0);
        },
      },
    }),
    async started() {
      client = createChainClient({ url: (await deps.resources.chain()).ogmiosUrl });
    },
    async stopped() {
      await client?.close();
    },
  };
}
