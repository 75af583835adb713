/**
 * Sharing a certificate (docs/web-pages.md#sharing): the certificate page's *Share* and *Print view* controls and
 * its share dialog — the short link and its QR code, the page's address, and an HTML snippet embedding the badge
 * `GET /badge/{hash}.svg` that links back to the page — each with a copy button. Rendered on the server (the QR code
 * is inline SVG, made here); the share script (web/share.ts) only opens the dialog and copies. Without a script the
 * *Share* button stays hidden and the print view is a plain link.
 */
import { markup, type SafeHtml } from "../presentation/html";
import { qrCodeSvg } from "../presentation/qr-code";

export interface ShareTarget {
  /** `<scheme>://<host>` the page was reached on. */
  origin: string;
  hash: string;
  /** `""`, or `?…` with the link parameters the certificate vouches for (revealed values that match). */
  query: string;
  /** The short link (with the same parameters), when the hash holds a code of its own. */
  shortLink?: string;
}

/** The certificate page's address, with the vouched parameters only. */
export const pageUrlOf = (t: ShareTarget): string => `${t.origin}/verify/${t.hash}${t.query}`;

/** The print view of a certificate. */
export const printPathOf = (t: Pick<ShareTarget, "hash" | "query">): string => `/verify/${t.hash}/print${t.query}`;

/** The badge of a hash. */
export const badgePathOf = (hash: string): string => `/badge/${hash}.svg`;

/** What a QR code of the certificate opens: the short link, or the page's address when the hash has none. */
export const qrTargetOf = (t: ShareTarget): string => t.shortLink ?? pageUrlOf(t);

/** The HTML a site pastes to show the badge, linking to the certificate page (plain text, attributes escaped). */
export function embedSnippet(t: ShareTarget): string {
  return markup`<a href="${pageUrlOf(t)}"><img src="${t.origin}${badgePathOf(t.hash)}" alt="Certificate status on Cardano" height="20"></a>`
    .text;
}

/** One labelled, read-only value and the button that copies it (web/share.ts). */
function copyField(id: string, label: string, value: string, multiline = false): SafeHtml {
  const field = multiline
    ? markup`<textarea id="${id}" class="mono" rows="4" readonly spellcheck="false">${value}</textarea>`
    : markup`<input id="${id}" class="mono" value="${value}" readonly spellcheck="false">`;
  return markup`<label for="${id}">${label}</label>
<div class="copy-row">${field}<button type="button" data-copy="${id}"><span class="copy-word">Copy</span><span class="visually-hidden"> ${label.toLowerCase()}</span></button></div>
`;
}

/** The *Share* and *Print view* buttons, and the share dialog they open. */
export function shareControls(t: ShareTarget): SafeHtml {
  const qrCaption = t.shortLink !== undefined ? "Scan to open the short link" : "Scan to open this page";
  return markup`<div class="share-actions">
<button type="button" class="button" id="share-open" aria-haspopup="dialog" aria-controls="share-dialog" hidden>Share</button>
<a class="button" id="print-view" href="${printPathOf(t)}">Print view</a>
</div>
<dialog id="share-dialog" class="share-dialog" aria-labelledby="share-title">
<div class="share-head"><h2 id="share-title">Share this certificate</h2><button type="button" class="share-close" id="share-close">Close</button></div>
<figure class="share-qr">${qrCodeSvg(qrTargetOf(t), `QR code: ${qrTargetOf(t)}`)}<figcaption>${qrCaption}</figcaption></figure>
${t.shortLink !== undefined ? copyField("share-short-link", "Short link", t.shortLink) : ""}${copyField("share-page-url", "Page address", pageUrlOf(t))}${copyField("share-embed", "Badge embed code (HTML)", embedSnippet(t), true)}<p class="share-badge-preview"><span class="muted">The badge:</span> <img src="${badgePathOf(t.hash)}" alt="Certificate status on Cardano" height="20" loading="lazy"></p>
<p id="share-copied" class="share-copied" role="status"></p>
</dialog>
`;
}
