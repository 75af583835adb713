/**
 * The certificate page `/verify/{hash}[/{txHash}]` (docs/web-pages.md#the-certificate-page), rendered on the server
 * from the records `GET /api/v1/verify/{hash}` answers. The update policy picks the anchors shown and the metadata
 * that speaks for the certificate — the same `resolveDisplay` the short links use, and the metadata it authorises
 * for previews, so a stranger anchoring the same hash later cannot rewrite the card or its revealed values. The
 * link's query reveals `uv_url_*` values (shown only when their SHA-256 matches).
 *
 * A link naming an anchor the policy does not authorise (a stranger re-anchoring the hash) gets a page of its own
 * saying who anchored it and that it is not the issuer's, never the certificate's card beside the stranger's address.
 *
 * `<body data-verification>`: `verified` (the hash is anchored and every revealed value matches), `mismatch` (a
 * revealed value does not match), `foreign-anchor` (the linked transaction anchored the hash, but its issuer does
 * not speak for the certificate), `not-found` (nothing anchors it, or the address is malformed: HTTP 404 / 400).
 *
 * A page still waiting for its hash (404), and a certificate anchored recently enough to be rolled back, run the
 * certificate page's script (web/verify.ts): it follows the hash through the service's event stream and says in the
 * page's live region when the certificate lands, is rolled back, or is anchored again. The page is whole without it.
 * A certificate page also offers sharing and a print view (share-dialog.ts, whose script is web/share.ts).
 */
import { templateIdOf } from "../domain/certificate-metadata";
import type { DataHash, TxHash } from "../domain/hex";
import { renderCertificateCard } from "../presentation/certificate-card";
import { explorerTxUrl, networkLabel, type ChainPlace } from "../presentation/chain-place";
import { markup, type SafeHtml } from "../presentation/html";
import { revealedFields } from "../presentation/revealed-values";
import { POLICY_SENTENCES, resolveDisplay, type DisplayResult, type UpdatePolicy } from "../presentation/update-policy";
import type { CertificateRecord } from "../verifier/certificate-projection";
import { page, statusPage, type PageAssets, type RenderedPage } from "./layout";
import { shareControls } from "./share-dialog";

export interface VerifyPageContext {
  assets: PageAssets;
  /** Base of short links (`<base>/<code>`). */
  shortLinkBase: string;
  /** Unix ms, now: whether a certificate is recent enough to be followed. */
  now: number;
  // ── sharing (share-dialog.ts) ──
  /** `<scheme>://<host>` the page was reached on: the share dialog's absolute links. */
  origin: string;
  /** The network the service runs on and its explorer: every page says where the chain is. */
  chain: ChainPlace;
}

/**
 * How long after its newest anchor a certificate page follows the hash: until a rollback can no longer take the anchor
 * — 2,160 blocks (Cardano's security parameter k) of 20 s on mainnet, the bound the HTTP caching of reads uses too
 * (docs/decisions.md#http-caching-of-reads). Older pages run no script: nothing on them can change but a new anchor.
 */
export const FOLLOW_WITHIN_MS = 2_160 * 20_000;

/** What the certificate page's script follows (web/verify.ts reads it from the page's <meta> tags). */
interface Following {
  hash: string;
  /** `hash:` subjects: the page's hash and, for a Merkle-batch leaf, the roots its anchors anchor */
  hashes: readonly string[];
  /** transactions of the anchors the page was rendered from */
  anchors: readonly string[];
  /** on a 404 for `/verify/{hash}/{txHash}`: the transaction awaited */
  awaits?: string;
}

/** The page options that make a page follow its hash: the script, what it follows, and the region it speaks in. */
function follow(ctx: VerifyPageContext, f: Following): { script: string; meta: Record<string, string> } {
  return {
    script: ctx.assets.verifyJs,
    meta: {
      "cert-anchor-hash": f.hash,
      "cert-anchor-subjects": [...new Set(f.hashes)].map((h) => `hash:${h}`).join(" "),
      "cert-anchor-anchors": f.anchors.join(" "),
      "cert-anchor-awaits": f.awaits ?? "",
    },
  };
}

/** The region the script speaks in (polite: it reports what changed; a rollback is a `role="alert"` inside it). */
const LIVE_REGION = markup`<div id="live" class="live" aria-live="polite"></div>\n`;

const utc = (ms: number) =>
  `${new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "")} UTC`;
const iso = (ms: number) => new Date(ms).toISOString();

/** The 404 page of a hash nothing anchors (in the link's transaction): it waits for the certificate to land. */
function notFoundPage(ctx: VerifyPageContext, sentence: SafeHtml, waitFor: Following): RenderedPage {
  return statusPage({
    status: 404,
    title: "No certificate found",
    assets: ctx.assets,
    role: "status",
    network: ctx.chain.network,
    data: { verification: "not-found", reason: "unknown" },
    ...follow(ctx, waitFor),
    body: markup`<p>${sentence}</p>
${LIVE_REGION}<p><a class="button" href="/">Check a file or a text</a></p>
`,
  });
}

export function malformedPage(ctx: Pick<VerifyPageContext, "assets" | "chain">, what: string): RenderedPage {
  return statusPage({
    status: 400,
    title: "Not a certificate address",
    assets: ctx.assets,
    network: ctx.chain.network,
    role: "status",
    data: { verification: "not-found", reason: "malformed" },
    body: markup`<p>${what}</p>
<p><a class="button" href="/">Check a file or a text</a></p>
`,
  });
}

/** The following of a page rendered from `records`, when the newest of them is recent enough to be rolled back. */
function followingOf(ctx: VerifyPageContext, hash: string, records: readonly CertificateRecord[]): ReturnType<typeof follow> | undefined {
  const newest = Math.max(...records.map((r) => r.creationTime));
  if (ctx.now - newest > FOLLOW_WITHIN_MS) return undefined;
  return follow(ctx, { hash, hashes: [hash, ...records.map((r) => r.hash)], anchors: records.map((r) => r.transactionHash) });
}

/**
 * What `/verify/{hash}` adds to a record when the hash is a leaf of an anchored Merkle batch, or an entry of an
 * anchored checkpoint of the service's transparency log (`origin` set); the record's `hash` is the root.
 */
type BatchFields = { merkleRoot?: string; leafIndex?: number; treeSize?: number; origin?: string };

const batchOf = (r: CertificateRecord): (Required<Omit<BatchFields, "origin">> & { origin?: string }) | undefined => {
  const b = r as CertificateRecord & BatchFields;
  return typeof b.merkleRoot === "string" && typeof b.leafIndex === "number" && typeof b.treeSize === "number"
    ? {
        merkleRoot: b.merkleRoot,
        leafIndex: b.leafIndex,
        treeSize: b.treeSize,
        ...(typeof b.origin === "string" ? { origin: b.origin } : {}),
      }
    : undefined;
};

/** How a hash inside a batch or the log is anchored, for the verdict's sentence. */
function anchoredAs(r: CertificateRecord): string {
  const batch = batchOf(r);
  if (batch === undefined) return "";
  return batch.origin !== undefined
    ? " as an entry of the service's transparency log, whose signed checkpoint a transaction anchors"
    : " as a leaf of a Merkle batch whose root a transaction anchors";
}

// ── where the chain is: the network's row and the transaction's explorer link ──────────────────────────────────

/** The network row of an anchor's chain facts. */
const networkRow = (chain: ChainPlace) =>
  markup`<dt>Network</dt><dd data-field="network" data-network="${chain.network}">${networkLabel(chain.network)}</dd>\n`;

/** A transaction id, linked to its page on the public explorer when the network has one. */
function transactionValue(chain: ChainPlace, txHash: string): SafeHtml {
  const href = explorerTxUrl(chain, txHash);
  const link =
    href === undefined
      ? ""
      : markup` <a class="explorer" data-field="explorer" href="${href}" rel="noopener noreferrer">view on the explorer<span class="visually-hidden"> (transaction ${txHash.slice(0, 8)}…)</span></a>`;
  return markup`<span class="mono" data-field="transaction">${txHash}</span>${link}`;
}
// ── end of where the chain is ──────────────────────────────────────────────────────────────────────────────────

/** The chain facts of one anchor, with `who` (the issuer's, or who anchored it) after the algorithm. */
function factRows(chain: ChainPlace, hash: string, r: CertificateRecord, who: SafeHtml): SafeHtml {
  const batch = batchOf(r);
  const batchRows =
    batch === undefined
      ? ""
      : batch.origin !== undefined
        ? markup`<dt>Transparency log</dt><dd data-field="log-entry">entry <span data-field="leaf-index">${batch.leafIndex}</span> of <span class="mono">${batch.origin}</span>, in its checkpoint of ${batch.treeSize} entries · <a href="/api/v1/proof/${hash}" data-field="proof">inclusion proof</a> (checks offline with SHA-256 and the log's key)</dd>
<dt>Checkpoint root</dt><dd class="mono" data-field="merkle-root">${batch.merkleRoot}</dd>
`
        : markup`<dt>Merkle batch</dt><dd data-field="merkle-batch">leaf <span data-field="leaf-index">${batch.leafIndex}</span> of ${batch.treeSize} · <a href="/api/v1/proof/${hash}" data-field="proof">inclusion proof</a> (checks offline with SHA-256)</dd>
<dt>Batch root</dt><dd class="mono" data-field="merkle-root">${batch.merkleRoot}</dd>
`;
  return markup`<dt>Hash</dt><dd class="mono" data-field="hash">${batch !== undefined ? hash : r.hash}</dd>
${batchRows}<dt>Algorithm</dt><dd data-field="algorithm">${r.algorithm}</dd>
${who}
${networkRow(chain)}<dt>Transaction</dt><dd>${transactionValue(chain, r.transactionHash)}</dd>
<dt>Block</dt><dd data-field="block">${r.blockNumber} <span class="muted mono">${r.blockHash}</span></dd>
<dt>Time</dt><dd data-field="time"><time datetime="${iso(r.creationTime)}">${utc(r.creationTime)}</time></dd>
`;
}

function anchorDetails(
  chain: ChainPlace,
  hash: string,
  r: CertificateRecord,
  count: number,
  policy: UpdatePolicy,
  shortLink: string | undefined,
): SafeHtml {
  const short =
    shortLink !== undefined
      ? markup`<dt>Short link</dt><dd class="mono" data-field="short-link"><a href="${shortLink}">${shortLink}</a></dd>\n`
      : "";
  return markup`<dl class="fields anchor">
${factRows(chain, hash, r, markup`<dt>Issuer address</dt><dd class="mono" data-field="issuer-address">${r.address}</dd>`)}<dt>Anchored</dt><dd data-field="anchor-count">${count === 1 ? "once" : `${count} times`}</dd>
<dt>Update policy</dt><dd data-field="update-policy">${POLICY_SENTENCES[policy]}</dd>
${short}</dl>
`;
}

function history(hash: string, records: CertificateRecord[], display: DisplayResult<CertificateRecord>): SafeHtml {
  const shown = new Set(display.displayed);
  const authorised = new Set(display.authorised);
  const items = records
    .filter((r) => shown.has(r))
    .map((r) => {
      const isSource = r === display.source;
      const whose = isSource
        ? markup` (speaks for this certificate)`
        : authorised.has(r)
          ? ""
          : markup` (not the issuer's: does not speak for this certificate)`;
      return markup`<li${isSource ? markup` class="source"` : ""}><a href="/verify/${hash}/${r.transactionHash}"><time datetime="${iso(r.creationTime)}">${utc(r.creationTime)}</time></a> · block ${r.blockNumber} · by <span class="mono">${r.address}</span>${batchOf(r) !== undefined ? " · in a Merkle batch" : ""}${whose}</li>\n`;
    });
  const hiddenCount = records.length - items.length;
  const hidden =
    hiddenCount > 0
      ? markup`<p class="muted">${hiddenCount === 1 ? "One other anchor is" : `${hiddenCount} other anchors are`} not part of this certificate under its update policy.</p>\n`
      : "";
  return markup`<section class="history">
<h2>Anchors</h2>
<ol class="anchors">
${items}</ol>
${hidden}</section>
`;
}

/**
 * The page of a link naming an anchor whose issuer the update policy does not let speak for the certificate (a
 * stranger re-anchoring a known hash): it says who anchored it and that this is not the issuer's, shows that
 * anchor's chain facts only — neither the certificate's card nor its metadata — and links to the certificate.
 */
function foreignAnchorPage(
  ctx: VerifyPageContext,
  hash: string,
  anchor: CertificateRecord,
  records: CertificateRecord[],
  display: DisplayResult<CertificateRecord>,
): RenderedPage {
  const following = followingOf(ctx, hash, records);
  return {
    status: 200,
    html: page({
      title: "Not the issuer's anchor",
      assets: ctx.assets,
      network: ctx.chain.network,
      data: { verification: "foreign-anchor", template: "" },
      ...following,
      main: markup`<section class="status status-mismatch" role="alert">
<h1>⚠ Not the issuer's anchor</h1>
<p>Transaction <span class="mono">${anchor.transactionHash}</span> anchored this hash on ${networkLabel(ctx.chain.network)} from the address <span class="mono">${anchor.address}</span>, which is not the certificate's issuer: under the certificate's update policy (${display.policy}) this anchor does not speak for the certificate, whatever its metadata says.</p>
<p>The certificate of this hash is the one anchored by <span class="mono" data-field="certificate-issuer">${display.source.address}</span>: <a href="/verify/${hash}">see the certificate</a>.</p>
</section>
${following !== undefined ? LIVE_REGION : ""}<section class="details">
<h2>This anchor</h2>
<dl class="fields anchor">
${factRows(ctx.chain, hash, anchor, markup`<dt>Anchored by</dt><dd class="mono" data-field="anchored-by">${anchor.address}</dd>`)}</dl>
</section>
${history(hash, records, display)}`,
    }),
  };
}

/**
 * The page for a hash, its records oldest first, the optional
 * transaction of the link, the link's query parameters in order, and the short-link code bound to this hash (none
 * when the hash has no code of its own: too short, or its code belongs to an earlier hash).
 */
export function renderVerifyPage(
  ctx: VerifyPageContext,
  input: {
    hash: DataHash;
    txHash?: TxHash;
    records: CertificateRecord[];
    query: ReadonlyArray<[string, string]>;
    shortCode?: string;
  },
): RenderedPage {
  const { hash, txHash } = input;
  const anchors = input.records.map((r) => r.transactionHash);
  if (input.records.length === 0)
    return notFoundPage(ctx, markup`Nothing on ${networkLabel(ctx.chain.network)} anchors the hash <span class="mono">${hash}</span>.`, {
      hash,
      hashes: [hash],
      anchors,
      ...(txHash !== undefined ? { awaits: txHash } : {}),
    });
  const linked = txHash === undefined ? undefined : input.records.find((r) => r.transactionHash === txHash);
  if (txHash !== undefined && linked === undefined)
    return notFoundPage(
      ctx,
      markup`Transaction <span class="mono">${txHash}</span> anchors no certificate of the hash <span class="mono">${hash}</span> on ${networkLabel(ctx.chain.network)}.`,
      { hash, hashes: [hash], anchors, awaits: txHash },
    );

  const display = resolveDisplay(input.records);
  // A stranger's anchor never gets the certificate's card beside its own address.
  if (linked !== undefined && !display.authorised.includes(linked)) return foreignAnchorPage(ctx, hash, linked, input.records, display);
  const shown = new Set(display.displayed);
  const revealed = revealedFields(display.preview, input.query);
  const mismatch = revealed.some((f) => f.state === "mismatch");
  const templateId = templateIdOf(JSON.stringify(display.preview));
  const anchor = linked !== undefined && shown.has(linked) ? linked : display.source;
  const unvouched = input.query.map(([k]) => k).filter((k, i, all) => all.indexOf(k) === i && !revealed.some((f) => f.name === k));
  const shortLink = input.shortCode !== undefined ? `${ctx.shortLinkBase}/${input.shortCode}${queryOf(input.query, revealed)}` : undefined;
  // ── sharing: the share dialog and the print view carry the vouched parameters only ──
  const share = shareControls({
    origin: ctx.origin,
    hash,
    query: queryOf(input.query, revealed),
    ...(shortLink !== undefined ? { shortLink } : {}),
  });

  const status = mismatch
    ? markup`<section class="status status-mismatch" role="alert">
<h1>✗ A revealed value does not match</h1>
<p>The hash is anchored on chain, but this link carries a value the certificate was not issued for. Do not trust the values marked below.</p>
</section>
`
    : markup`<section class="status status-verified" role="status">
<h1>✓ Certificate verified</h1>
<p>This hash is anchored on ${networkLabel(ctx.chain.network)}${anchoredAs(anchor)}${revealed.some((f) => f.state === "match") ? " and every value this link reveals matches it" : ""}.</p>
</section>
`;
  const linkedNote =
    linked !== undefined && !shown.has(linked)
      ? markup`<p class="note" role="note">The linked transaction <span class="mono">${linked.transactionHash}</span>, by <span class="mono">${linked.address}</span>, anchored this hash again, but under the certificate's update policy (${display.policy}) it does not change the certificate: the certificate is shown as it stands.</p>\n`
      : "";
  const ignored =
    unvouched.length > 0
      ? markup`<p class="note">Ignored link parameters (the certificate does not vouch for them): ${unvouched.join(", ")}.</p>\n`
      : "";

  const following = followingOf(ctx, hash, input.records);
  return {
    status: 200,
    html: page({
      title: mismatch ? "Certificate: value mismatch" : "Certificate verified",
      assets: ctx.assets,
      network: ctx.chain.network,
      data: { verification: mismatch ? "mismatch" : "verified", template: templateId ?? "" },
      ...following,
      script: [...(following !== undefined ? [following.script] : []), ctx.assets.shareJs],
      main: markup`${status}${following !== undefined ? LIVE_REGION : ""}${share}${linkedNote}${renderCertificateCard(templateId, display.preview, revealed)}${ignored}<section class="details">
<h2>On chain</h2>
${anchorDetails(ctx.chain, hash, anchor, input.records.length, display.policy, shortLink)}</section>
${history(hash, input.records, display)}`,
    }),
  };
}

/** The query part of a share link: only the parameters the certificate vouches for. */
export function queryOf(query: ReadonlyArray<[string, string]>, revealed: ReturnType<typeof revealedFields>): string {
  const ok = new Set(revealed.filter((f) => f.state === "match").map((f) => f.name));
  const kept = query.filter(([k]) => ok.has(k));
  return kept.length > 0 ? `?${new URLSearchParams([...kept]).toString()}` : "";
}
