/** verifier: answers `/verify/...` from its projection of the indexer's certificate facts. */
import type { Context, ServiceSchema } from "moleculer";
import { Errors } from "moleculer";
import { projectionLifecycle } from "../shared/mesh/fact-follower";
import { networkIdOf } from "../shared/indexer/protocol-view";
import { defineRouteActions } from "../shared/mesh/route-actions";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import { CertificateProjection } from "../shared/verifier/certificate-projection";
import { isShortCode } from "../shared/domain/short-code";
import { ShortLinkResolver } from "../shared/short-links/short-link-resolver";

const HASH = { type: "string", pattern: /^([0-9a-fA-F]{2}){1,64}$/, messages: { stringPattern: "'{field}' must be even-length hex of at most 64 bytes" } } as const;
const TX_HASH = { type: "string", pattern: /^[0-9a-fA-F]{64}$/, messages: { stringPattern: "'{field}' must be 64 hex digits" } } as const;

const notFound = (what: string) => new Errors.MoleculerClientError(what, 404, "NOT_FOUND");

export default function createVerifierService(deps: ServiceDeps): ServiceSchema {
  let shortLinks: ShortLinkResolver | undefined;
  const projection = projectionLifecycle("verifier", deps, async (store) => {
    const certificates = await CertificateProjection.open(store, networkIdOf(deps.config.network));
    shortLinks = await ShortLinkResolver.open(store, certificates, { frontendUrl: deps.config.frontendUrl, shortLinkDomain: deps.config.shortLinkDomain });
    return certificates;
  });
  const ready = () => projection.ready();

  return {
    name: "verifier",
    mixins: [projection.mixin],
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
        resolve: {
          params: { code: { type: "string", min: 1, max: 64 } },
          async handler(ctx: Context<Record<string, unknown> & { code: string }, { $statusCode?: number; $responseType?: string; $responseHeaders?: Record<string, string> }>) {
            if (!isShortCode(ctx.params.code)) {
              throw new Errors.MoleculerClientError("a short-link code is 10 characters of 0-9, A-Z, a-z", 400, "INVALID_SHORT_CODE");
            }
            if (!shortLinks) throw new Errors.MoleculerRetryableError("verifier is starting", 503, "SERVICE_STARTING");
            // The gateway merges the query into the params: everything but `code` is the link's query string.
            const query = Object.entries(ctx.params)
              .filter(([k]) => k !== "code")
              .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, String(x)] as [string, string]) : [[k, String(v)] as [string, string]]));
            const page = await shortLinks.resolve(ctx.params.code, query);
            ctx.meta.$responseType = "text/html; charset=utf-8";
            if (page.status === 404) ctx.meta.$statusCode = 404;
            else ctx.meta.$responseHeaders = { "Cache-Control": "public, max-age=300" };
            return page.html;
          },
        },
      }),
    },
  };
}
