/**
 * verifier: answers `/verify/...` from the indexer's certificate facts (shared/verifier/certificate-projection.ts),
 * and finds hashes anchored inside Merkle batches (stored trees whose root a certificate anchors) for
 * `/verify/{hash}` and `/proof/{hash}`.
 */
import { DATA_HASH_PARAM, LEAF_HASH_PARAM, TX_HASH_PARAM } from "../shared/mesh/action-params";
import type { DataHash, TxHash } from "../shared/domain/hex";
import { DomainError, notFound, stillStarting } from "../shared/domain/errors";
import type { Context, Service, ServiceSchema } from "moleculer";
import { projectionService } from "../shared/mesh/fact-follower";
import { networkIdOfNetwork } from "../shared/config/network";
import type { ServiceDeps } from "../shared/mesh/service-deps";
import {
  CertificateProjection,
  certificateFactsSourceFor,
  whyNoShortCode,
  type AnchorTransaction,
} from "../shared/verifier/certificate-projection";
import { isShortCode } from "../shared/domain/short-code";
import { ShortLinkResolver } from "../shared/short-links/short-link-resolver";
import { MerkleTreeStore } from "../shared/merkle/tree-store";
import { findInBatches, proofOfRecord } from "../shared/verifier/batch-lookup";
import { CalendarLogReader, proofOfLogRecord } from "../shared/verifier/calendar-log-lookup";
import { batchedAnswerEtag, certificateEtag, type CertificateAnswerMeta } from "../shared/gateway/read-caching";
import { deploymentScripts } from "../shared/protocol";

/** Expired pending batch trees are looked for at most once per this much chain time. */
const TREE_SWEEP_EVERY_MS = 60_000;

export default function createVerifierService(deps: ServiceDeps): ServiceSchema {
  let shortLinks: ShortLinkResolver | undefined;
  let trees: MerkleTreeStore | undefined;
  let calendarLog: CalendarLogReader | undefined;
  let sweptAt = 0;
  // The deployment proofs name: its proxy policy id, whose state outputs anchor the roots this verifier reads.
  const proxyPolicyId = deps.config.protocol
    ? deploymentScripts(deps.config.protocol, networkIdOfNetwork(deps.config.network)).proxy.policyId
    : undefined;
  const treesOf = (): MerkleTreeStore => {
    if (!trees) throw stillStarting("verifier");
    return trees;
  };
  const calendarLogOf = (): CalendarLogReader => {
    if (!calendarLog) throw stillStarting("verifier");
    return calendarLog;
  };
  const service = projectionService("verifier", deps, {
    open: async (store) => {
      const source = certificateFactsSourceFor(deps.config);
      trees = await MerkleTreeStore.open(store, deps.now);
      calendarLog = await CalendarLogReader.open(store);
      const certificates = await CertificateProjection.open(store, networkIdOfNetwork(deps.config.network), source, trees);
      shortLinks = new ShortLinkResolver(certificates, {
        frontendUrl: deps.config.frontendUrl,
        shortLinkDomain: deps.config.shortLinkDomain,
      });
      return certificates;
    },
    // Answers carry their ETag, and the fact sequence read before the projection, so the gateway can remember the
    // validator (shared/gateway/validator-cache.ts).
    routes: (ready, appliedSeq) => ({
      byHash: {
        params: { hash: DATA_HASH_PARAM },
        async handler(ctx: Context<{ hash: DataHash }, CertificateAnswerMeta>) {
          const seq = appliedSeq();
          const { records: direct, newest } = await ready().findByHash(ctx.params.hash);
          const inBatches =
            ctx.params.hash.length === 64
              ? [...(await findInBatches(ready(), treesOf(), ctx.params.hash)), ...(await calendarLogOf().find(ready(), ctx.params.hash))]
              : [];
          const records = [...direct, ...inBatches];
          if (records.length === 0) throw notFound(`no certificate anchors the hash ${ctx.params.hash}`);
          ctx.meta.$responseHeaders = { ETag: inBatches.length === 0 && newest ? certificateEtag(newest) : batchedAnswerEtag(records) };
          if (seq !== undefined) ctx.meta.$factSeq = seq;
          return records;
        },
      },
      proof: {
        params: { hash: LEAF_HASH_PARAM },
        async handler(ctx: Context<{ hash: DataHash }>) {
          const records = await findInBatches(ready(), treesOf(), ctx.params.hash);
          const inLog = await calendarLogOf().find(ready(), ctx.params.hash);
          if (records.length + inLog.length === 0)
            throw notFound(`no anchored batch, nor an anchored checkpoint of the calendar's log, holds the hash ${ctx.params.hash}`);
          const anchors = new Map<TxHash, AnchorTransaction | undefined>();
          for (const r of [...records, ...inLog])
            if (!anchors.has(r.transactionHash)) anchors.set(r.transactionHash, await ready().anchorTransaction(r.transactionHash));
          return [
            ...records.map((r) => proofOfRecord(ctx.params.hash, r, anchors.get(r.transactionHash), proxyPolicyId)),
            ...inLog.map((r) => proofOfLogRecord(ctx.params.hash, r, anchors.get(r.transactionHash), proxyPolicyId)),
          ];
        },
      },
      byTransactionHash: {
        params: { transactionHash: TX_HASH_PARAM, dataHash: DATA_HASH_PARAM },
        async handler(ctx: Context<{ transactionHash: TxHash; dataHash: DataHash }, CertificateAnswerMeta>) {
          const seq = appliedSeq();
          const found = await ready().findByTransaction(ctx.params.transactionHash, ctx.params.dataHash);
          if (!found) throw notFound(`transaction ${ctx.params.transactionHash} anchors no certificate of hash ${ctx.params.dataHash}`);
          ctx.meta.$responseHeaders = { ETag: certificateEtag(found.position) };
          if (seq !== undefined) ctx.meta.$factSeq = seq;
          return found.record;
        },
      },
      resolve: {
        params: { code: { type: "string", min: 1, max: 64 } },
        async handler(
          ctx: Context<
            Record<string, unknown> & { code: string },
            { $statusCode?: number; $responseType?: string; $responseHeaders?: Record<string, string> }
          >,
        ) {
          if (!isShortCode(ctx.params.code)) {
            throw new DomainError("INVALID_SHORT_CODE", "a short-link code is 10 characters of 0-9, A-Z, a-z");
          }
          if (!shortLinks) throw stillStarting("verifier");
          // The gateway merges the query into the params: everything but `code` is the link's query string.
          const query = Object.entries(ctx.params)
            .filter(([k]) => k !== "code")
            .flatMap(([k, v]) =>
              Array.isArray(v) ? v.map((x) => [k, String(x)] as [string, string]) : [[k, String(v)] as [string, string]],
            );
          const page = await shortLinks.resolve(ctx.params.code, query);
          ctx.meta.$responseType = "text/html; charset=utf-8";
          ctx.meta.$responseHeaders = {
            "Content-Security-Policy": page.contentSecurityPolicy,
            "X-Content-Type-Options": "nosniff",
            ...(page.status === 200 ? { "Cache-Control": "public, max-age=300" } : {}),
          };
          if (page.status === 404) ctx.meta.$statusCode = 404;
          return page.html;
        },
      },
      shortLink: {
        params: { hash: DATA_HASH_PARAM },
        async handler(ctx: Context<{ hash: DataHash }>) {
          const { hash } = ctx.params;
          const found = await ready().shortCodeOfHash(hash);
          if (found.kind !== "bound") throw notFound(whyNoShortCode(hash, found));
          return { hash, code: found.code, url: `${deps.config.shortLinkDomain}/${found.code}` };
        },
      },
    }),
  });
  return {
    ...service,
    events: {
      /**
       * Pending batch trees whose transaction can no longer be in a block are dropped, by the chain's clock: once
       * the projection holds every fact through this block (so an anchoring certificate would have joined its
       * tree to the index already), trees that expired before the block's time go.
       */
      "chain.block": {
        async handler(this: Service, ctx: Context<{ time: number; lastSeq: number }>) {
          if (!trees || ctx.params.time - sweptAt < TREE_SWEEP_EVERY_MS) return;
          const applied = await this.actions["sync"]!({});
          if (typeof applied !== "number" || applied < ctx.params.lastSeq) return;
          sweptAt = ctx.params.time;
          await trees.dropExpired(ctx.params.time);
        },
      },
    },
  };
}
