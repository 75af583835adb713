/** credential: `/credential/...`, answered from its projection of the AUTH/REVOKE certificates on chain. */
import type { Context, ServiceSchema } from "moleculer";
import { Errors } from "moleculer";
import { CredentialProjection, type CredentialResponse } from "../shared/credentials/credential-projection";
import { paymentCredentialFromInput } from "../shared/credentials/credential-key";
import { projectionLifecycle } from "../shared/mesh/fact-follower";
import { defineRouteActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";

const HASH = { type: "string", pattern: /^([0-9a-fA-F]{2}){1,64}$/, messages: { stringPattern: "'{field}' must be even-length hex of at most 64 bytes" } } as const;

const notFound = (what: string) => new Errors.MoleculerClientError(what, 404, "NOT_FOUND");

export default function createCredentialService(deps: ServiceDeps): ServiceSchema {
  const projection = projectionLifecycle("credential", deps, (store) => CredentialProjection.open(store));
  const ready = () => projection.ready();

  return {
    name: "credential",
    mixins: [projection.mixin],
    actions: {
      ...defineRouteActions("credential", {
        byPaymentCredential: {
          params: { paymentCredential: { type: "string", min: 1, max: 200 }, type: { type: "string", max: 100, optional: true } },
          async handler(ctx: Context<{ paymentCredential: string; type?: string }>): Promise<CredentialResponse | CredentialResponse[]> {
            const credential = paymentCredentialFromInput(ctx.params.paymentCredential);
            if (credential === undefined) {
              throw new Errors.MoleculerClientError("paymentCredential must be a 56-hex payment credential or a bech32 address", 400, "INVALID_PAYMENT_CREDENTIAL");
            }
            // A blank `?type=` means no type filter (as in the reference).
            const type = ctx.params.type?.trim() === "" ? undefined : ctx.params.type;
            const active = await ready().activeOf(credential, type);
            if (active.length === 0) throw notFound(`no active credential${type !== undefined ? ` of type ${type}` : ""} for ${credential}`);
            // With a type: one object, the most recent when several are active (the reference fails with 500 there).
            return type !== undefined ? active[active.length - 1]! : active;
          },
        },
        byAuthHash: {
          params: { authHash: HASH },
          async handler(ctx: Context<{ authHash: string }>) {
            const credential = await ready().byAuthHash(ctx.params.authHash);
            if (!credential) throw notFound(`no credential was registered by an AUTH certificate of hash ${ctx.params.authHash.toLowerCase()}`);
            return credential;
          },
        },
      }),
    },
  };
}
