/**
 * The HTTP caching policy of the read routes (docs/api.md#caching), in one place: which routes carry validators,
 * how their `ETag` is made, and which `Cache-Control` each answer gets.
 *
 * Certificate answers (`/verify/{hash}`, `/verify/by-transaction-hash/…`): the ETag names the newest record of the
 * answer by its chain position (block hash, transaction hash, position in the transaction). The answer is every
 * certificate of one data hash on the current chain up to that record, and a block hash fixes the whole chain
 * below it, so two answers with the same newest record are the same bytes — on every replica, after restarts,
 * and it changes with any rollback that removes or replaces that record. No digest of the body is computed.
 *
 * Freshness depends on depth: an answer whose newest record is less than ROLLBACK_HORIZON_BLOCKS deep may still be
 * rolled back, so it is cacheable for a few seconds only; deeper, it can no longer change except by a later anchor
 * of the same hash (an hour) — and never at all for a transaction's own certificate (a day). Not-found answers
 * are never stored: the hash may be anchored in the next block.
 *
 * Lookup answers (`/scripts/…`, `/txs/…`) carry a digest of their body as ETag and the short freshness only (the
 * lookups do not say how deep their transaction is).
 */
import { createHash } from "node:crypto";
import { DataHash, TxHash } from "../domain/hex";
import type { ChainPosition } from "../verifier/certificate-projection";

/** Blocks after which an anchor can no longer be rolled back: the security parameter k of mainnet and preprod. */
export const ROLLBACK_HORIZON_BLOCKS = 2160;
/** Freshness of answers that a rollback may still change, in seconds. */
export const RECENT_MAX_AGE_S = 5;
/** Freshness of `/verify/{hash}` once its newest anchor is final: a later anchor of the same hash shows within it. */
export const FINAL_LIST_MAX_AGE_S = 3600;
/** Freshness of one transaction's certificate once final: it cannot change any more. */
export const FINAL_RECORD_MAX_AGE_S = 86_400;

export const NOT_FOUND_CACHE_CONTROL = "no-store";

/** How a route is cached: `certificates` (verifier answers, judged by the gateway) or `lookup` (body digest). */
export type CacheKind = "certificate-list" | "certificate-record" | "lookup";

/** Strong ETag of a certificate answer whose newest record is `newest` (see the module comment). */
export function certificateEtag(newest: Pick<ChainPosition, "blockHash" | "transactionHash" | "position">): string {
  return `"c1.${newest.blockHash.slice(0, 24)}.${newest.transactionHash.slice(0, 24)}.${newest.position}"`;
}

/**
 * Strong ETag of a verify answer that holds certificates anchored inside Merkle batches: a digest of the whole
 * answer (the batch records carry their tree and inclusion path, which the chain position alone does not name).
 */
export function batchedAnswerEtag(records: readonly unknown[]): string {
  return `"c1b.${createHash("sha256").update(JSON.stringify(records)).digest("base64url").slice(0, 27)}"`;
}

/** Strong ETag of a lookup answer: a digest of its JSON text. */
export function lookupEtag(body: unknown): string {
  return `"l1.${createHash("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 27)}"`;
}

/** `Cache-Control` of a 200 certificate answer whose newest record is in block `newestHeight`. */
export function certificateCacheControl(
  kind: "certificate-list" | "certificate-record",
  newestHeight: number,
  tipHeight: number | undefined,
): string {
  const final = tipHeight !== undefined && tipHeight - newestHeight >= ROLLBACK_HORIZON_BLOCKS;
  if (!final) return `public, max-age=${RECENT_MAX_AGE_S}`;
  return `public, max-age=${kind === "certificate-list" ? FINAL_LIST_MAX_AGE_S : FINAL_RECORD_MAX_AGE_S}`;
}

/** What a certificate action leaves in `ctx.meta` for the gateway. */
export interface CertificateAnswerMeta {
  $responseHeaders?: Record<string, string>;
  /** The fact sequence the verifier's projection held everything through before it read (validator-cache.ts). */
  $factSeq?: number;
}

/**
 * Where the gateway remembers a certificate answer's validator (validator-cache.ts): the data hash it is about,
 * and which answer of that hash. Undefined for routes whose validators it does not remember.
 */
export function validatorKeyOf(
  kind: CacheKind | undefined,
  params: Record<string, unknown>,
): { dataHash: DataHash; routeKey: string } | undefined {
  // A malformed hash has no remembered answer: the verifier refuses it.
  if (kind === "certificate-list") {
    const dataHash = DataHash.parse(params["hash"]);
    return dataHash === undefined ? undefined : { dataHash, routeKey: "list" };
  }
  if (kind === "certificate-record") {
    const dataHash = DataHash.parse(params["dataHash"]);
    const txHash = TxHash.parse(params["transactionHash"]);
    return dataHash === undefined || txHash === undefined ? undefined : { dataHash, routeKey: `tx:${txHash}` };
  }
  return undefined;
}

/** Block height of the newest record of a certificate answer (one record, or a list of them). */
export function newestHeightOf(data: unknown): number | undefined {
  const heights = (Array.isArray(data) ? data : [data])
    .map((r) => (r as { blockNumber?: unknown } | null | undefined)?.blockNumber)
    .filter((h): h is number => typeof h === "number");
  return heights.length === 0 ? undefined : Math.max(...heights);
}

/** `Cache-Control` of a 200 lookup answer. */
export const LOOKUP_CACHE_CONTROL = `public, max-age=${RECENT_MAX_AGE_S}`;

/**
 * Whether `If-None-Match` names `etag` (RFC 9110 §13.1.2: weak comparison, `*` matches any current answer).
 * Only called with the ETag of an answer that exists.
 */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (header === undefined || header === "") return false;
  if (header.trim() === "*") return true;
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const part of header.split(",")) {
    const t = part.trim();
    if ((t.startsWith("W/") ? t.slice(2) : t) === opaque) return true;
  }
  return false;
}
