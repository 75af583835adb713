/**
 * The print view of a certificate, `/verify/{hash}/print` (docs/web-pages.md#print-view): one sheet that fits A4 and
 * US Letter alike — the certificate card, a QR code of the short link (or of the page when the hash has no short
 * link), and the chain facts someone holding the paper can check: hash, algorithm, transaction, network, block,
 * time, issuer address. No site header, footer or navigation; a *Print* button (web/share.ts) and a link back to
 * the page, both hidden on paper. The card and its revealed values come from the same update policy and the same
 * rule for revealed values as the certificate page; the query keeps only the parameters the certificate vouches for.
 */
import { templateIdOf } from "../domain/certificate-metadata";
import type { DataHash } from "../domain/hex";
import { renderCertificateCard } from "../presentation/certificate-card";
import { htmlDocument, markup } from "../presentation/html";
import { qrCodeSvg } from "../presentation/qr-code";
import { revealedFields } from "../presentation/revealed-values";
import { resolveDisplay } from "../presentation/update-policy";
import type { CertificateRecord } from "../verifier/certificate-projection";
import type { PageAssets, RenderedPage } from "./layout";
import { pageUrlOf, qrTargetOf, type ShareTarget } from "./share-dialog";
import { queryOf } from "./verify-page";

export interface PrintPageContext {
  assets: PageAssets;
  /** Base of short links (`<base>/<code>`). */
  shortLinkBase: string;
  /** `<scheme>://<host>` the page was reached on. */
  origin: string;
  /** The Cardano network the service anchors on (devnet, preprod, preview, mainnet). */
  network: string;
  /** Unix ms, now: the sheet says when it was checked. */
  now: number;
}

const utc = (ms: number) =>
  `${new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, "")} UTC`;

/** The print view of an anchored hash (`records` not empty, oldest first). */
export function renderPrintPage(
  ctx: PrintPageContext,
  input: { hash: DataHash; records: readonly CertificateRecord[]; query: ReadonlyArray<[string, string]>; shortCode?: string },
): RenderedPage {
  const { hash } = input;
  const display = resolveDisplay(input.records);
  const anchor = display.source;
  const revealed = revealedFields(display.preview, input.query);
  const mismatch = revealed.some((f) => f.state === "mismatch");
  const templateId = templateIdOf(JSON.stringify(display.preview));
  const query = queryOf(input.query, revealed);
  const target: ShareTarget = {
    origin: ctx.origin,
    hash,
    query,
    ...(input.shortCode !== undefined ? { shortLink: `${ctx.shortLinkBase}/${input.shortCode}${query}` } : {}),
  };
  const qrTarget = qrTargetOf(target);
  const verdict = mismatch
    ? markup`<section class="print-verdict status-mismatch" role="alert"><h1>✗ A revealed value does not match</h1><p>Do not trust the values marked below.</p></section>`
    : markup`<section class="print-verdict status-verified"><h1>✓ Certificate verified</h1><p>Anchored on the Cardano ${ctx.network} blockchain · checked ${utc(ctx.now)}</p></section>`;
  const html = htmlDocument({
    head: markup`<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Certificate — print view</title>
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ctx.assets.css}">
<script src="${ctx.assets.shareJs}" defer></script>
`,
    bodyAttributes: markup` class="print-view" data-page="print" data-verification="${mismatch ? "mismatch" : "verified"}" data-template="${templateId ?? ""}"`,
    body: markup`<main id="main" class="print-sheet">
<p class="print-actions"><button type="button" class="primary" id="print-button" hidden>Print</button> <a href="${pageUrlOf(target)}">Back to the certificate page</a></p>
${verdict}
${renderCertificateCard(templateId, display.preview, revealed)}<section class="print-proof" aria-labelledby="print-proof-title">
<h2 id="print-proof-title">Verify this certificate</h2>
<figure class="print-qr">${qrCodeSvg(qrTarget, `QR code: ${qrTarget}`)}<figcaption class="mono" data-field="qr-target">${qrTarget}</figcaption></figure>
<dl class="fields print-facts">
<dt>Hash</dt><dd class="mono" data-field="hash">${hash}</dd>
<dt>Algorithm</dt><dd data-field="algorithm">${anchor.algorithm}</dd>
<dt>Transaction</dt><dd class="mono" data-field="transaction">${anchor.transactionHash}</dd>
<dt>Network</dt><dd data-field="network">Cardano ${ctx.network}</dd>
<dt>Block</dt><dd data-field="block">${anchor.blockNumber}</dd>
<dt>Time</dt><dd data-field="time">${utc(anchor.creationTime)}</dd>
<dt>Issuer address</dt><dd class="mono" data-field="issuer-address">${anchor.address}</dd>
</dl>
</section>
</main>
`,
  });
  return { status: 200, html };
}
