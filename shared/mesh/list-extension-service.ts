/**
 * The Moleculer side every list-extension service (fractionized, tokenizable) shares: the `build`, `status` and
 * `pending` route actions, the internal `rebuild` the submitter asks after refusing a transaction whose list entry
 * is taken, the rebuild of beaten builds on `chain.block` / `chain.rollback` (shared/extensions/list-kit/rebuild.ts),
 * and the start-up that wires the issuance machinery, the indexer's lists and the build log. A service file names
 * its extension's build, status and environment, and adds its own routes (docs/architecture.md#services). The
 * submitter's side of rebuilds is `withRebuiltTransaction`.
 */
import type { ActionSchema, Context, ServiceBroker, ServiceSchema } from "moleculer";
import type { ChainClient } from "../chain";
import { txIdOf } from "../csl/witnesses";
import { notFound, stillStarting } from "../domain/errors";
import type { TxHash } from "../domain/hex";
import { REBUILDING_SERVICES } from "../extensions/registry";
import type { IssuanceEnv } from "../issuance";
import type { TransactionRecord } from "../records/protocol-records";
import {
  chainRebuildPorts,
  isInputTaken,
  rebuildBeaten,
  rebuildLogged,
  refusalWithReplacement,
  type Rebuilder,
} from "../extensions/list-kit/rebuild";
import { indexerListSource, type ListSource } from "../extensions/list-kit/list-source";
import { ListBuildLog } from "../extensions/list-kit/build-log";
import type { ListBuildAnswer } from "../extensions/list-kit/build-answer";
import type { StatusQuery } from "../extensions/list-kit/request-fields";
import { TX_HASH_PARAM } from "./action-params";
import { httpStatusOfType } from "../gateway/http-status";
import { openIssuanceOverMesh } from "./issuance-over-mesh";
import { EventAppender } from "./event-appender";
import { extensionRebuilt } from "../events/service-events";
import type { ServiceDeps } from "./service-deps";

type Meta = { $statusCode?: number; $responseType?: string; $responseHeaders?: Record<string, string> };
type Broker = Context["broker"];
type Logger = Broker["logger"];

export interface ListExtensionSpec<Env extends { issuance: IssuanceEnv; lists: ListSource }> {
  /** the service name (its extension module's), the indexer's list layout name and the build log's collection prefix */
  readonly name: string;
  build(env: Env, body: Record<string, unknown>): Promise<ListBuildAnswer<string>>;
  status(env: Env, query: StatusQuery): Promise<unknown>;
  /** the extension's environment, once the issuance machinery and the indexer's lists are ready */
  env(base: { issuance: IssuanceEnv; lists: ListSource; broker: Broker }): Env;
}

interface ListExtensionService<Env> {
  /** the route actions every list extension has (`build`, `status`, `pending`): pass them to defineRouteActions */
  readonly routeActions: { build: ActionSchema; status: ActionSchema; pending: ActionSchema };
  /** the internal `rebuild` action */
  readonly internalActions: Record<string, ActionSchema>;
  /** name, events, started, stopped */
  readonly schema: Pick<ServiceSchema, "name" | "events" | "started" | "stopped">;
  /** @throws SERVICE_STARTING before the service has started */
  envOf(): Env;
}

export function listExtensionService<Env extends { issuance: IssuanceEnv; lists: ListSource }>(
  deps: ServiceDeps,
  spec: ListExtensionSpec<Env>,
): ListExtensionService<Env> {
  const { name } = spec;
  const locals: { env?: Env; client?: ChainClient; log?: ListBuildLog; checking?: Promise<unknown>; events?: EventAppender } = {};
  const envOf = (): Env => {
    if (!locals.env) throw stillStarting(name);
    return locals.env;
  };
  const logOf = (): ListBuildLog => {
    if (!locals.log) throw stillStarting(name);
    return locals.log;
  };
  const rebuilder = (env: Env): Rebuilder => ({
    build: (body) => spec.build(env, body),
    expireInflight: () => env.issuance.registry.expire(),
    onRebuilt: (rebuilt) => locals.events?.append([extensionRebuilt(name, rebuilt, deps.now())]),
  });
  /** One check of the logged builds at a time; a block or rollback meanwhile is covered by the next one. */
  const checkBeaten = (broker: Broker, logger: Logger): void => {
    const { env, log } = locals;
    if (!env || !log || locals.checking) return;
    const ports = chainRebuildPorts(
      env.issuance.chain,
      async (id) => (await broker.call<TransactionRecord | null, { id: string }>("indexer.transaction", { id })) !== null,
    );
    locals.checking = rebuildBeaten(rebuilder(env), log, ports)
      .catch((err: unknown) =>
        logger.warn(`Rebuilding beaten ${name} builds failed`, { error: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => (locals.checking = undefined));
  };
  const onChainEvent = {
    handler(this: { broker: Broker; logger: Logger }) {
      checkBeaten(this.broker, this.logger);
    },
  };

  return {
    envOf,
    routeActions: {
      build: {
        async handler(ctx: Context<Record<string, unknown>, Meta>) {
          const env = envOf();
          await env.issuance.registry.expire();
          const body = ctx.params ?? {};
          const out = await spec.build(env, body);
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
          return spec.status(envOf(), ctx.params);
        },
      },
      pending: {
        params: { txHash: TX_HASH_PARAM },
        async handler(ctx: Context<{ txHash: TxHash }>) {
          const b = await logOf().find(ctx.params.txHash);
          if (!b?.rebuilt) throw notFound(`nothing was rebuilt for transaction ${ctx.params.txHash}`);
          return { rebuiltTransaction: b.rebuilt };
        },
      },
    },
    internalActions: {
      /** The submitter's question after refusing a transaction whose inputs are taken: can it be rebuilt? */
      rebuild: {
        params: { txHash: TX_HASH_PARAM },
        async handler(ctx: Context<{ txHash: TxHash }>) {
          return (await rebuildLogged(rebuilder(envOf()), logOf(), ctx.params.txHash)) ?? null;
        },
      },
    },
    schema: {
      name,
      events: { "chain.block": onChainEvent, "chain.rollback": onChainEvent },
      async started(this: { broker: Broker }) {
        const broker = this.broker;
        const { client, issuance } = await openIssuanceOverMesh(broker, deps, name);
        locals.client = client;
        locals.events = new EventAppender(broker);
        const store = await deps.resources.store();
        locals.log = await ListBuildLog.open(store, name, deps.now);
        locals.env = spec.env({ issuance, lists: indexerListSource(name, (action, params) => broker.call(action, params)), broker });
      },
      async stopped() {
        await locals.events?.flush(2_000);
        locals.events?.stop();
        await locals.client?.close();
      },
    },
  };
}

/**
 * A submission refused because an input is taken: when it is a list extension's build that lost its list entry to
 * another transaction, that extension's service (one of the registry's rebuilding services running on this
 * broker) builds it again on top of the winner, and the refusal (409) carries the replacement in
 * `rebuiltTransaction` (docs/decisions.md#racing-extension-inserts). Any other failure is returned unchanged.
 */
export async function withRebuiltTransaction(broker: ServiceBroker, err: unknown, transaction: string): Promise<unknown> {
  const registry = broker.registry as unknown as { hasService(name: string): boolean };
  const services = REBUILDING_SERVICES.filter((name) => registry.hasService(name));
  if (!isInputTaken(err) || services.length === 0) return err;
  let txHash: string;
  try {
    txHash = txIdOf(transaction);
  } catch {
    return err;
  }
  // Each extension knows only its own builds: the first that logged this transaction answers.
  for (const name of services) {
    const rebuilt = await broker
      .call<{ rebuiltTransaction: string } | null, { txHash: string }>(`${name}.rebuild`, { txHash })
      .catch(() => null);
    if (rebuilt) return refusalWithReplacement(err, rebuilt.rebuiltTransaction);
  }
  return err;
}
