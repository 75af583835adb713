/**
 * tokenizable: the tokenizable-certificate extension (docs/api.md#tokenizable-certificates). Builds Init, Insert
 * and Redeem transactions (shared/tokenizable over the issuance machinery, the shared in-flight registry and the
 * generic sorted-list module) and answers the status of a node from the indexer's record of the lists
 * (`indexer.sortedList`).
 */
import type { Context, ServiceSchema } from "moleculer";
import { createChainClient, type ChainClient } from "../shared/chain";
import { networkIdOfNetwork } from "../shared/config/network";
import { notFound, stillStarting } from "../shared/domain/errors";
import { TX_HASH_PARAM } from "../shared/mesh/action-params";
import type { TransactionRecord } from "../shared/records/protocol-records";
import { InflightRegistry } from "../shared/inflight";
import { createIssuanceEnv } from "../shared/issuance";
import { httpStatusOfType } from "../shared/mesh/error-mapping";
import { addReadinessCheck } from "../shared/mesh/health-middleware";
import { defineRouteActions, internalActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import type { BootstrapInfo, LibraryEntry, PointerInfo, StateInfo } from "../shared/records/protocol-records";
import { chainRebuildPorts, indexerListSource, ListBuildLog, rebuildBeaten, rebuildLogged, type Rebuilder } from "../shared/sorted-list";
import { handleTokenizableBuild, TokenizableScripts, tokenizableStatus, type TokenizableEnv } from "../shared/tokenizable";
import type { CertificateRecord } from "../shared/verifier/certificate-projection";

type Meta = { $statusCode?: number; $responseType?: string; $responseHeaders?: Record<string, string> };

export default function createTokenizableService(deps: ServiceDeps): ServiceSchema {
  const locals: { env?: TokenizableEnv; client?: ChainClient; log?: ListBuildLog; checking?: Promise<unknown> } = {};
  const envOf = (): TokenizableEnv => {
    if (!locals.env) throw stillStarting("tokenizable");
    return locals.env;
  };
  const logOf = (): ListBuildLog => {
    if (!locals.log) throw stillStarting("tokenizable");
    return locals.log;
  };
  const rebuilder = (env: TokenizableEnv): Rebuilder => ({
    build: (body) => handleTokenizableBuild(env, body),
    expireInflight: () => env.issuance.registry.expire(),
  });
  /** One check of the logged builds at a time; a block or rollback meanwhile is covered by the next one. */
  const checkBeaten = (broker: Context["broker"], logger: Context["broker"]["logger"]): void => {
    const { env, log } = locals;
    if (!env || !log || locals.checking) return;
    const ports = chainRebuildPorts(
      env.issuance.chain,
      async (id) => (await broker.call<TransactionRecord | null, { id: string }>("indexer.transaction", { id })) !== null,
    );
    locals.checking = rebuildBeaten(rebuilder(env), log, ports)
      .catch((err: unknown) =>
        logger.warn("Rebuilding beaten tokenizable builds failed", { error: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => (locals.checking = undefined));
  };
  const onChainEvent = {
    handler(this: { broker: Context["broker"]; logger: Context["broker"]["logger"] }) {
      checkBeaten(this.broker, this.logger);
    },
  };
  const networkId = networkIdOfNetwork(deps.config.network);
  const scripts = new TokenizableScripts(networkId);

  return {
    name: "tokenizable",
    actions: {
      ...defineRouteActions("tokenizable", {
        build: {
          async handler(ctx: Context<Record<string, unknown>, Meta>) {
            const env = envOf();
            await env.issuance.registry.expire();
            const out = await handleTokenizableBuild(env, ctx.params ?? {});
            if (!out.ok) {
              ctx.meta.$statusCode = httpStatusOfType(out.error) ?? 400;
              if (out.policyId) ctx.meta.$responseHeaders = { "X-Policy-Id": out.policyId };
              return { ...out.data, error: out.error, message: out.message };
            }
            const b = out.built;
            await logOf().record(b.txId, ctx.params ?? {}, b.spends, b.policyId);
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
            return tokenizableStatus(envOf().lists, networkId, ctx.params);
          },
        },
        metadataScript: {
          handler: () => ({ scriptHash: scripts.metadata.hash, address: scripts.metadata.address }),
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
            return (await rebuildLogged(rebuilder(envOf()), logOf(), ctx.params.txHash.toLowerCase())) ?? null;
          },
        },
      }),
    },
    events: { "chain.block": onChainEvent, "chain.rollback": onChainEvent },
    async started() {
      const store = await deps.resources.store();
      const chain = await deps.resources.chain();
      const client = createChainClient({ url: chain.ogmiosUrl });
      locals.client = client;
      const registry = await InflightRegistry.open(store, deps.now);
      const broker = this.broker;
      addReadinessCheck(broker, "tokenizable reaches the chain and the indexer", async () => {
        await Promise.all([client.networkTip(), broker.call("indexer.status")]);
        return true;
      });
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
      locals.log = await ListBuildLog.open(store, "tokenizable", deps.now);
      locals.env = {
        issuance,
        lists: indexerListSource("tokenizable", (action, params) => broker.call(action, params)),
        scripts,
        async certificateMetadata(key, txHash) {
          // The certificate the Insert anchored (the verifier's record); none known yet: no extra fields.
          const records = await broker
            .call<CertificateRecord[], { hash: string }>("verifier.byHash", { hash: key })
            .catch(() => [] as CertificateRecord[]);
          const record = records.find((r) => r.transactionHash === txHash) ?? records[0];
          return record?.metadata ?? "";
        },
      };
    },
    async stopped() {
      await locals.client?.close();
    },
  };
}
