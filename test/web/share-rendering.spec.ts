/**
 * The share dialog and the print view as rendered on the server: what they link to (only the parameters the
 * certificate vouches for), the embed snippet's escaping, the QR code's target with and without a short link, the
 * print sheet's facts and verdict, and the pages that offer no sharing. The browser drives them in share.spec.ts.
 */
import { expect } from "chai";
import { createHash } from "node:crypto";
import type { CertificateRecord } from "../../shared/verifier/certificate-projection";
import { renderPrintPage } from "../../shared/web-pages/print-page";
import { embedSnippet } from "../../shared/web-pages/share-dialog";
import { renderVerifyPage } from "../../shared/web-pages/verify-page";
import { DataHash, TxHash } from "../../shared/domain/hex";
import { PAGE_CONTEXT } from "./support/page-context";

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const HASH = DataHash(sha("graduate-7"));
const ctx = PAGE_CONTEXT;
const diploma = {
  uverify_template_id: "diploma",
  uverify_update_policy: "first",
  issuer: "University of Testing",
  uv_url_name: sha("Ada Lovelace"),
  title: "Master of Science",
};
function record(metadata: Record<string, unknown>, issuer = "aa".repeat(28), n = 1): CertificateRecord {
  return {
    hash: HASH,
    address: `addr_test1_${issuer.slice(0, 8)}`,
    issuer,
    blockHash: "cd".repeat(32),
    blockNumber: 40 + n,
    transactionHash: TxHash(sha(`tx ${n}`)),
    slot: 400 + n,
    creationTime: 1_700_000_000_000 + n,
    metadata: JSON.stringify(metadata),
    bootstrapTokenName: "default",
    algorithm: "SHA-256",
  };
}
const QUERY: Array<[string, string]> = [
  ["name", "Ada Lovelace"],
  ["utm", "<b>"],
];
const field = (html: string, id: string) => new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(html)?.[1];

describe("web pages: sharing and printing (server rendering)", () => {
  it("puts the short link, the page address and the embed snippet in the share dialog, with the vouched parameters only", () => {
    const html = renderVerifyPage(ctx, { hash: HASH, records: [record(diploma)], query: QUERY, shortCode: "RXYWODQzXG" }).html;
    expect(html).to.contain(`<dialog id="share-dialog" class="share-dialog" aria-labelledby="share-title">`);
    expect(html).to.contain(`<h2 id="share-title">Share this certificate</h2>`);
    expect(field(html, "share-short-link")).to.equal("https://go.test/RXYWODQzXG?name=Ada+Lovelace");
    expect(field(html, "share-page-url")).to.equal(`https://pages.test/verify/${HASH}?name=Ada+Lovelace`);
    expect(html).to.contain(`aria-label="QR code: https://go.test/RXYWODQzXG?name=Ada+Lovelace"`);
    expect(html).to.contain("Scan to open the short link");
    expect(html).to.contain(`<a class="button" id="print-view" href="/verify/${HASH}/print?name=Ada+Lovelace">Print view</a>`);
    expect(html, "the Share button waits for its script").to.match(/<button [^>]*id="share-open"[^>]*hidden>Share<\/button>/);
    expect(/<dialog[\s\S]*<\/dialog>/.exec(html)![0], "an unvouched parameter is not shared").to.not.contain("utm");
    // the snippet is text in a textarea: its markup escaped once more
    const snippet = embedSnippet({ origin: ctx.origin, hash: HASH, query: "?name=Ada+Lovelace&x=%22" });
    expect(snippet).to.equal(
      `<a href="https://pages.test/verify/${HASH}?name=Ada+Lovelace&amp;x=%22"><img src="https://pages.test/badge/${HASH}.svg" alt="Certificate status on Cardano" height="20"></a>`,
    );
    expect(html).to.contain(
      `<textarea id="share-embed" class="mono" rows="4" readonly spellcheck="false">&lt;a href=&quot;https://pages.test/verify/${HASH}?name=Ada+Lovelace&quot;&gt;`,
    );
  });

  it("encodes the page's address in the QR code when the hash has no short link of its own", () => {
    const html = renderVerifyPage(ctx, { hash: HASH, records: [record(diploma)], query: [] }).html;
    expect(html).to.not.contain(`id="share-short-link"`);
    expect(html).to.contain(`aria-label="QR code: https://pages.test/verify/${HASH}"`);
    expect(html).to.contain("Scan to open this page");
  });

  it("offers no sharing on a stranger's anchor or a 404 page", () => {
    const first = record(diploma);
    const stranger = record({ title: "Forged" }, "bb".repeat(28), 2);
    const foreign = renderVerifyPage(ctx, { hash: HASH, txHash: stranger.transactionHash, records: [first, stranger], query: [] });
    expect(foreign.html).to.contain(`data-verification="foreign-anchor"`);
    expect(foreign.html).to.not.contain("share-dialog");
    expect(foreign.html).to.not.contain("/assets/share.js");
    const none = renderVerifyPage(ctx, { hash: HASH, records: [], query: [] });
    expect(none.html).to.not.contain("share-dialog");
  });

  it("prints the card, a QR code of the short link, hash, algorithm, transaction, network, block, time and issuer, without site chrome", () => {
    const r = record(diploma);
    const page = renderPrintPage({ ...ctx, network: "preprod" }, { hash: HASH, records: [r], query: QUERY, shortCode: "RXYWODQzXG" });
    expect(page.status).to.equal(200);
    const html = page.html;
    expect(html).to.match(/<body class="print-view" data-page="print" data-verification="verified" data-template="diploma">/);
    expect(html).to.contain("<h1>✓ Certificate verified</h1>");
    expect(html).to.contain("Anchored on the Cardano preprod blockchain · checked 2027-01-15 08:00:00 UTC");
    expect(html).to.contain(`<h2 class="heading">Master of Science</h2>`);
    expect(html).to.match(/data-revealed="match"><span class="value">Ada Lovelace<\/span>/);
    expect(html).to.contain(`<figcaption class="mono" data-field="qr-target">https://go.test/RXYWODQzXG?name=Ada+Lovelace</figcaption>`);
    for (const [name, value] of [
      ["hash", HASH],
      ["algorithm", "SHA-256"],
      ["transaction", r.transactionHash],
      ["network", "Cardano preprod"],
      ["block", "41"],
      ["time", "2023-11-14 22:13:20 UTC"],
      ["issuer-address", r.address],
    ])
      expect(html, name).to.match(new RegExp(`data-field="${name}">${value}</dd>`));
    expect(html).to.not.match(/<header|<footer|<nav/);
    expect(html).to.contain(`<a href="https://pages.test/verify/${HASH}?name=Ada+Lovelace">Back to the certificate page</a>`);
    expect(html.match(/<script[^>]*>/g)).to.deep.equal([`<script src="/assets/share.js" defer>`]);
  });

  it("prints a mismatch as a mismatch, and the page's address as the QR code without a short link", () => {
    const html = renderPrintPage({ ...ctx, network: "preprod" }, { hash: HASH, records: [record(diploma)], query: [["name", "Eve"]] }).html;
    expect(html).to.contain(`data-verification="mismatch"`);
    expect(html).to.contain("<h1>✗ A revealed value does not match</h1>");
    expect(html).to.not.contain("Eve");
    expect(html).to.contain(`data-field="qr-target">https://pages.test/verify/${HASH}</figcaption>`);
  });
});
