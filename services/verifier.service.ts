/** verifier: answers `/verify/...` from its projection of the indexer's certificate facts. */
import type { Context, ServiceSchema } from "moleculer";
import { Errors } from "moleculer";
import { chainNotificationHandlers, followFacts, type FactFollower } from "../shared/mesh/fact-follower";
import { networkIdOf } from "../shared/indexer/protocol-view";
import { defineRouteActions, internalActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { CertificateProjection } from "../shared/verifier/certificate-projection";

const HASH = { type: "string", pattern: /^([0-9a-fA-F]{2}){1,64}$/, messages: { stringPattern: "'{field}' must be even-length hex of at most 64 bytes" } } as const;
const TX_HASH = { type: "string", pattern: /^[0-9a-fA-F]{64}$/, messages: { stringPattern: "'{field}' must be 64 hex digits" } } as const;

const notFound = (what: string) => new Errors.MoleculerClientError(what, 404, "NOT_FOUND");

export default function createVerifierService(deps: ServiceDeps): ServiceSchema {
  let projection: CertificateProjection | undefined;
  let follower: FactFollower | undefined;
  const ready = (): CertificateProjection => {
    if (!projection) throw new Errors.MoleculerRetryableError("verifier is starting", 503, "SERVICE_STARTING");
    return projection;
  };

  return {
    name: "verifier",
    actions: {
      ...defineRouteActions("verifier", {
        byHash: {
          params: { hash: HASH },
          async handler(ctx: Context<{ hash: string }>) {
            const records = await ready().byHash(ctx.params.hash);
            if (records.length === 0) throw notFound(`no certificate anchors the hash ${ctx.params.hash.toLowerCase()}`);
            return records;
          },
        },
        byTransactionHash: {
          params: { transactionHash: TX_HASH, dataHash: HASH },
          async handler(ctx: Context<{ transactionHash: string; dataHash: string }>) {
            const record = await ready().byTransaction(ctx.params.transactionHash, ctx.params.dataHash);
            if (!record) throw notFound(`transaction ${ctx.params.transactionHash.toLowerCase()} anchors no certificate of hash ${ctx.params.dataHash.toLowerCase()}`);
            return record;
          },
        },
      }),
      ...internalActions({
        /** Catch up with the indexer now; resolves with the consumer cursor (tests and tools). */
        sync: { handler: () => follower?.catchUp() ?? 0 },
      }),
    },
    events: chainNotificationHandlers(() => follower),
    async started() {
      const store = await deps.resources.store();
      projection = await CertificateProjection.open(store, networkIdOf(deps.config.network));
      follower = followFacts(this.broker, store, projection);
      follower.poke();
    },
    stopped() {
      follower?.stop();
    },
  };
}
