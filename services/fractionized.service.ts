/**
 * fractionized: the fractionized-certificate extension (docs/api.md#fractionized-certificates). Builds Init,
 * Insert and Claim transactions (shared/fractionized over the issuance machinery and the shared in-flight
 * registry, so it scales to several replicas) and answers the status of a node from the indexer's record of
 * the lists (`indexer.sortedList`).
 */
import type { Context, ServiceSchema } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { networkIdOfNetwork } from "../shared/config/network";
import { notFound, stillStarting } from "../shared/domain/errors";
import { chainRebuildPorts } from "../shared/sorted-list";
import {
  FractionizedBuildLog,
  FractionizedScripts,
  fractionizedStatus,
  handleFractionizedBuild,
  rebuildBeaten,
  rebuildLogged,
  type FractionizedEnv,
  type ListSource,
} from "../shared/fractionized";
import { TX_HASH_PARAM } from "../shared/mesh/action-params";
import type { TransactionRecord } from "../shared/records/protocol-records";
import { InflightRegistry } from "../shared/inflight";
import { createIssuanceEnv } from "../shared/issuance";
import type { BootstrapInfo, LibraryEntry, PointerInfo, StateInfo } from "../shared/records/protocol-records";
import { httpStatusOfType } from "../shared/mesh/error-mapping";
import { addReadinessCheck } from "../shared/mesh/health-middleware";
import { defineRouteActions, internalActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";

type Meta = { $statusCode?: number; $responseType?: string; $responseHeaders?: Record<string, string> };

export default function createFractionizedService(deps: ServiceDeps): ServiceSchema {
  const locals: { env?: FractionizedEnv; client?: ChainClient; log?: FractionizedBuildLog; checking?: Promise<unknown> } = {};
  const envOf = (): FractionizedEnv => {
    if (!locals.env) throw stillStarting("fractionized");
    return locals.env;
  };
  /** One check of the logged builds at a time; a block or rollback meanwhile is covered by the next one. */
  const checkBeaten = (broker: Context["broker"], logger: Context["broker"]["logger"]): void => {
    const env = locals.env;
    const log = locals.log;
    if (!env || !log || locals.checking) return;
    const ports = chainRebuildPorts(
      env.issuance.chain,
      async (id) => (await broker.call<TransactionRecord | null, { id: string }>("indexer.transaction", { id })) !== null,
    );
    locals.checking = rebuildBeaten(env, log, ports)
      .catch((err: unknown) =>
        logger.warn("Rebuilding beaten fractionized builds failed", { error: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => (locals.checking = undefined));
  };
  const logOf = (): FractionizedBuildLog => {
    if (!locals.log) throw stillStarting("fractionized");
    return locals.log;
  };

  return {
    name: "fractionized",
    actions: {
      ...defineRouteActions("fractionized", {
        build: {
          async handler(ctx: Context<Record<string, unknown>, Meta>) {
            const env = envOf();
            await env.issuance.registry.expire();
            const body = ctx.params ?? {};
            const out = await handleFractionizedBuild(env, body);
            if (!out.ok) {
              ctx.meta.$statusCode = httpStatusOfType(out.error) ?? 400;
              if (out.policyId) ctx.meta.$responseHeaders = { "X-Policy-Id": out.policyId };
              return { ...out.data, error: out.error, message: out.message };
            }
            const b = out.built;
            await logOf().record(b.txId, body, b.spends, b.policyId);
            ctx.meta.$responseHeaders = { "X-Policy-Id": b.policyId };
            if (out.form === "reference") {
              ctx.meta.$responseType = "text/plain; charset=utf-8";
              return b.unsignedTransaction;
            }
            return {
              unsignedTransaction: b.unsignedTransaction,
              policyId: b.policyId,
              initUtxoTxHash: b.initUtxoTxHash,
              initUtxoOutputIndex: b.initUtxoOutputIndex,
              key: b.key,
            };
          },
        },
        status: {
          params: {
            key: { type: "string", min: 1, max: 256 },
            policyId: { type: "string", max: 128, optional: true },
            initUtxoTxHash: { type: "string", max: 128, optional: true },
            initUtxoOutputIndex: { type: "string", max: 16, optional: true, convert: true },
          },
          handler(ctx: Context<{ key: string; policyId?: string; initUtxoTxHash?: string; initUtxoOutputIndex?: string }>) {
            return fractionizedStatus(envOf().lists, ctx.params);
          },
        },
        pending: {
          params: { txHash: TX_HASH_PARAM },
          async handler(ctx: Context<{ txHash: string }>) {
            const b = await logOf().find(ctx.params.txHash.toLowerCase());
            if (!b?.rebuilt) throw notFound(`nothing was rebuilt for transaction ${ctx.params.txHash.toLowerCase()}`);
            return { rebuiltTransaction: b.rebuilt };
          },
        },
      }),
      ...internalActions({
        /** The submitter's question after refusing a transaction whose inputs are taken: can it be rebuilt? */
        rebuild: {
          params: { txHash: TX_HASH_PARAM },
          async handler(ctx: Context<{ txHash: string }>) {
            return (await rebuildLogged(envOf(), logOf(), ctx.params.txHash.toLowerCase())) ?? null;
          },
        },
      }),
    },
    events: {
      "chain.block": {
        handler(this: { broker: Context["broker"]; logger: Context["broker"]["logger"] }) {
          checkBeaten(this.broker, this.logger);
        },
      },
      "chain.rollback": {
        handler(this: { broker: Context["broker"]; logger: Context["broker"]["logger"] }) {
          checkBeaten(this.broker, this.logger);
        },
      },
    },
    async started() {
      const store = await deps.resources.store();
      const chain = await deps.resources.chain();
      const client = createChainClient({ url: chain.ogmiosUrl });
      locals.client = client;
      const registry = await InflightRegistry.open(store, deps.now);
      const broker = this.broker;
      addReadinessCheck(broker, "fractionized reaches the chain and the indexer", async () => {
        await Promise.all([client.networkTip(), broker.call("indexer.status")]);
        return true;
      });
      const networkId = networkIdOfNetwork(deps.config.network);
      const issuance = await createIssuanceEnv({
        chain: client,
        registry,
        protocol: deps.config.protocol,
        networkId,
        now: deps.now,
        source: {
          states: (filter) => broker.call<StateInfo[], typeof filter>("indexer.states", filter),
          bootstraps: (filter) => broker.call<BootstrapInfo[], typeof filter>("indexer.bootstraps", filter),
          protocol: () => broker.call<{ pointer: PointerInfo | null; library: LibraryEntry[] }>("indexer.protocol"),
        },
      });
      const lists: ListSource = {
        list: (ref) =>
          broker.call("indexer.sortedList", {
            name: "fractionized",
            ...("policyId" in ref ? { policyId: ref.policyId } : { initTxHash: ref.initRef.txHash, initIndex: ref.initRef.index }),
          }),
      };
      locals.log = await FractionizedBuildLog.open(store, deps.now);
      locals.env = { issuance, lists, scripts: new FractionizedScripts(networkId) };
    },
    async stopped() {
      await locals.client?.close();
    },
  };
}
