/** credential: `/credential/...`, answered from its projection of the AUTH/REVOKE certificates on chain. */
import { DATA_HASH_PARAM } from "../shared/mesh/action-params";
import type { DataHash } from "../shared/domain/hex";
import { DomainError, notFound } from "../shared/domain/errors";
import type { Context, ServiceSchema } from "moleculer";
import { CredentialProjection, type CredentialResponse } from "../shared/credentials/credential-projection";
import { paymentCredentialFromInput } from "../shared/credentials/credential-key";
import { projectionService } from "../shared/mesh/fact-follower";
import type { ServiceDeps } from "../shared/mesh/service-deps";

export default function createCredentialService(deps: ServiceDeps): ServiceSchema {
  return projectionService("credential", deps, {
    open: (store) => CredentialProjection.open(store),
    routes: (ready) => ({
      byPaymentCredential: {
        params: { paymentCredential: { type: "string", min: 1, max: 200 }, type: { type: "string", max: 100, optional: true } },
        async handler(ctx: Context<{ paymentCredential: string; type?: string }>): Promise<CredentialResponse | CredentialResponse[]> {
          const credential = paymentCredentialFromInput(ctx.params.paymentCredential);
          if (credential === undefined) {
            throw new DomainError(
              "INVALID_PAYMENT_CREDENTIAL",
              "paymentCredential must be a 56-hex payment credential or a bech32 address",
            );
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
        params: { authHash: DATA_HASH_PARAM, issuer: { type: "string", min: 1, max: 200, optional: true } },
        async handler(ctx: Context<{ authHash: DataHash; issuer?: string }>) {
          const issuer = ctx.params.issuer === undefined ? undefined : paymentCredentialFromInput(ctx.params.issuer);
          if (ctx.params.issuer !== undefined && issuer === undefined) {
            throw new DomainError("INVALID_PAYMENT_CREDENTIAL", "issuer must be a 56-hex payment credential or a bech32 address");
          }
          const credential = await ready().byAuthHash(ctx.params.authHash, issuer);
          if (!credential)
            throw notFound(
              `no credential was registered by an AUTH certificate of hash ${ctx.params.authHash}${issuer ? ` issued by ${issuer}` : ""}`,
            );
          return credential;
        },
      },
    }),
  });
}
