/**
 * Sharing and printing a certificate, in a real browser (Debian's Chromium through playwright-core) against the
 * embedded app as `npm start` runs it, with a diploma issued through the published client: the share dialog (focus
 * moves in, Escape closes, focus returns), its copy buttons (the clipboard holds the value, the button says
 * "Copied"), its QR code decoded from a screenshot (jsqr) back to the short link, the badge for an anchored, an
 * unknown and a malformed hash, the embed snippet rendering the badge on another page, the print view on A4 and
 * Letter (print media, one sheet, no navigation), the home page's CIP-158 wallet-app link, and axe-core with the
 * dialog open at 360 px and on a desktop. The dialog open at 360 px and the print view on A4 look like their
 * reference screenshots (test/web/reference-screenshots/); the other screenshots go to test-output/screenshots/.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { UVerifyClient } from "@uverify/sdk";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { http } from "../../fixtures/mesh/helpers";
import { startEmbeddedApp, type EmbeddedApp } from "../../fixtures/processes/embedded-app";
import { axeViolations, launchChromium, screenshot, SCREENSHOTS } from "./support/browser";
import { confirmedOn, prepareCollateral } from "./support/devnet-issuer";
import { cip30SignTx } from "./support/cip30-test-wallet";
import { decodeQrCode } from "./support/qr";
import { expectScreenshot, varyingParts } from "./support/screenshots";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Paper sizes at the CSS resolution (96 px per inch). */
const PAPER = {
  A4: { width: 794, height: 1123 },
  Letter: { width: 816, height: 1056 },
} as const;

describe("sharing and printing a certificate in a real browser (embedded app, system Chromium)", function () {
  this.timeout(180_000);
  let app: EmbeddedApp;
  let base: string;
  let browser: Browser;
  const issuer = Wallet.fromMnemonic(generateMnemonic());
  let diploma: { hash: string; verifyUrl: string; txHash: string; shortLink: string };

  const confirmed = (txHash: string) => confirmedOn(base, txHash);

  async function newPage(width = 1000, height = 900): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    return { context, page: await context.newPage() };
  }
  const fitsWidth = async (page: Page, what: string) => {
    const [scroll, client] = (await page.evaluate(
      "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
    )) as number[];
    expect(scroll, `${what}: no horizontal scrolling`).to.be.at.most(client!);
  };
  const focusedId = (page: Page) => page.evaluate("document.activeElement && document.activeElement.id");

  before(async function () {
    const port = await freePort();
    app = await startEmbeddedApp({
      env: { PORT: String(port) },
      extraGenesis: [{ address: issuer.address, lovelace: 500_000_000n }],
    });
    base = app.api.replace(/\/api\/v1$/, "");
    browser = await launchChromium();

    // The published client never prepares collateral: the issuer does it first.
    await prepareCollateral(base, issuer);

    const client = new UVerifyClient({ baseUrl: base, verifyBaseUrl: `${base}/verify`, signTx: cip30SignTx(issuer) });
    const issued = await client.apps.issueDiploma(issuer.address, [
      {
        // fixed, as the diploma's hash is (a fresh devnet each run): the reference screenshots show them
        studentId: "student-1934-1209",
        name: "Grace Hopper",
        degree: "Doctor of Philosophy",
        institution: "University of Testing",
        graduationDate: "2026-06-30",
      },
    ]);
    await confirmed(issued.txHash);
    const cert = issued.certificates[0]!;
    const short = (await http(`${base}/api/v1/short-link/${cert.hash}`)).json as { url: string };
    diploma = { hash: cert.hash, verifyUrl: cert.verifyUrl, txHash: issued.txHash, shortLink: `${short.url}?name=Grace+Hopper` };
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("opens a labelled modal share dialog from the certificate page; Escape, Close and the backdrop close it and focus returns to Share", async () => {
    const { context, page } = await newPage();
    await page.goto(diploma.verifyUrl);
    const open = page.locator("#share-open");
    const dialog = page.getByRole("dialog", { name: "Share this certificate" });
    expect(await dialog.isVisible()).to.equal(false);
    await open.click();
    await dialog.waitFor();
    expect(await page.evaluate("document.getElementById('share-dialog').matches(':modal')")).to.equal(true);
    expect(await page.evaluate("document.getElementById('share-dialog').contains(document.activeElement)"), "focus is inside").to.equal(
      true,
    );
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await focusedId(page)).to.equal("share-open");
    await open.click();
    await page.locator("#share-close").click();
    await dialog.waitFor({ state: "hidden" });
    expect(await focusedId(page)).to.equal("share-open");
    // a click on the backdrop, beside the dialog
    await open.click();
    await dialog.waitFor();
    await page.mouse.click(5, 5);
    await dialog.waitFor({ state: "hidden" });
    expect(await focusedId(page)).to.equal("share-open");
    await context.close();
  });

  it("copies the short link, the page address and the embed snippet, and says Copied", async () => {
    const { context, page } = await newPage();
    await page.goto(diploma.verifyUrl);
    await page.locator("#share-open").click();
    const pageUrl = `${base}/verify/${diploma.hash}?name=Grace+Hopper`;
    const embed = `<a href="${pageUrl}"><img src="${base}/badge/${diploma.hash}.svg" alt="Certificate status on Cardano" height="20"></a>`;
    for (const [field, label, expected] of [
      ["share-short-link", "Short link", diploma.shortLink],
      ["share-page-url", "Page address", pageUrl],
      ["share-embed", "Badge embed code (HTML)", embed],
    ] as const) {
      const button = page.locator(`button[data-copy="${field}"]`);
      expect(await button.getAttribute("aria-label"), "named by its text").to.equal(null);
      expect((await button.textContent())?.trim()).to.equal(`Copy ${label.toLowerCase()}`);
      await button.click();
      await button.locator(".copy-word", { hasText: "Copied" }).waitFor();
      expect(await page.locator("#share-copied").textContent()).to.equal(`${label} copied.`);
      expect(await page.evaluate("navigator.clipboard.readText()"), field).to.equal(expected);
    }
    await screenshot(page, "share-dialog-copied");
    await context.close();
  });

  it("shows a QR code that decodes, from a screenshot, to the short link, which opens the certificate", async () => {
    const { context, page } = await newPage();
    await page.goto(diploma.verifyUrl);
    await page.locator("#share-open").click();
    const qr = await page.locator(".share-qr svg").screenshot();
    writeFileSync(join(SCREENSHOTS, "share-qr-code.png"), qr);
    expect(decodeQrCode(qr)).to.equal(diploma.shortLink);
    await page.goto(diploma.shortLink);
    await page.waitForURL(/\/verify\/[0-9a-f]{64}\?name=Grace\+Hopper$/);
    expect(await page.locator("body").getAttribute("data-verification")).to.equal("verified");
    expect(await page.locator('[data-revealed="match"] .value').textContent()).to.equal("Grace Hopper");
    await context.close();
  });

  it("serves the badge: verified for an anchored hash, not found for an unknown one, 400 JSON for a malformed one; cached briefly", async () => {
    const known = await fetch(`${base}/badge/${diploma.hash}.svg`);
    expect(known.status).to.equal(200);
    expect(known.headers.get("content-type")).to.equal("image/svg+xml; charset=utf-8");
    expect(known.headers.get("cache-control")).to.equal("public, max-age=60");
    expect(known.headers.get("content-security-policy")).to.equal("default-src 'none'");
    expect(known.headers.get("cross-origin-resource-policy")).to.equal("cross-origin");
    const knownSvg = await known.text();
    expect(knownSvg).to.match(/^<svg [^>]*data-verification="verified"/);
    expect(knownSvg).to.contain("<title>certificate: verified on Cardano</title>");

    const unknown = await fetch(`${base}/badge/${createHash("sha256").update(randomBytes(16)).digest("hex")}.svg`);
    expect(unknown.status).to.equal(200);
    const unknownSvg = await unknown.text();
    expect(unknownSvg).to.match(/^<svg [^>]*data-verification="not-found"/);
    expect(unknownSvg).to.contain("<title>certificate: not found</title>");

    const malformed = await fetch(`${base}/badge/not-a-hash.svg`);
    expect(malformed.status).to.equal(400);
    expect(await malformed.json()).to.deep.include({ error: "INVALID_HASH" });
  });

  it("renders the embed snippet on another page as the badge, linking back to the certificate page", async () => {
    const { context, page } = await newPage();
    await page.goto(diploma.verifyUrl);
    const snippet = await page.locator("#share-embed").inputValue();
    // another site, on an origin of its own (another port), holding only the snippet
    const elsewhere = createHttpServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(`<!DOCTYPE html><html lang="en"><title>Elsewhere</title><p>My diploma: ${snippet}</p></html>`);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    await page.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
    await page.waitForFunction("document.querySelector('img').complete");
    expect(await page.evaluate("document.querySelector('img').naturalWidth"), "the badge loaded").to.be.above(100);
    expect(await page.locator("a").getAttribute("href")).to.equal(`${base}/verify/${diploma.hash}?name=Grace+Hopper`);
    await screenshot(page, "share-badge-embedded");
    await context.close();
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  });

  it("prints on one A4 and one Letter sheet: the card, the QR code of the short link, hash, transaction and network, no navigation", async () => {
    const { context, page } = await newPage();
    await page.goto(diploma.verifyUrl);
    await page.locator("#print-view").click();
    await page.waitForURL(`${base}/verify/${diploma.hash}/print?name=Grace+Hopper`);
    expect(await page.locator("h2.heading").textContent()).to.equal("Doctor of Philosophy");
    expect(await page.locator('[data-revealed="match"] .value').textContent()).to.equal("Grace Hopper");
    expect(await page.locator('[data-field="hash"]').textContent()).to.equal(diploma.hash);
    expect(await page.locator('[data-field="transaction"]').textContent()).to.equal(diploma.txHash);
    expect(await page.locator('[data-field="network"]').textContent()).to.equal("Cardano devnet");
    expect(await page.locator("header, footer, nav").count(), "no site chrome").to.equal(0);

    // the Print button prints (window.print recorded instead of opening the system dialog)
    await page.evaluate("window.print = () => { window.__printed = (window.__printed || 0) + 1; }");
    await page.locator("#print-button").click();
    expect(await page.evaluate("window.__printed")).to.equal(1);

    await page.emulateMedia({ media: "print" });
    for (const [paper, size] of Object.entries(PAPER)) {
      await page.setViewportSize(size);
      expect(await page.locator("#print-button").isVisible(), `${paper}: no Print button on paper`).to.equal(false);
      expect(await page.locator(".print-actions a").isVisible(), `${paper}: no navigation on paper`).to.equal(false);
      expect(await page.locator(".print-qr svg").isVisible()).to.equal(true);
      expect(decodeQrCode(await page.locator(".print-qr svg").screenshot()), `${paper}: the printed QR code`).to.equal(diploma.shortLink);
      if (paper === "A4") await expectScreenshot(page, "print-a4", { mask: varyingParts(page) });
      else await screenshot(page, `print-${paper.toLowerCase()}`);
      const pdf = await page.pdf({ format: paper as "A4" | "Letter", printBackground: true });
      const pages = pdf.toString("latin1").match(/\/Type\s*\/Page\b/g) ?? [];
      expect(pages.length, `${paper}: one sheet`).to.equal(1);
    }
    await context.close();
  });

  it("has no axe-core violation with the dialog open, at 360 px and on a desktop, and fits 360 px", async () => {
    for (const width of [360, 1280]) {
      const { context, page } = await newPage(width, 800);
      await page.goto(diploma.verifyUrl);
      await page.locator("#share-open").click();
      await page.locator("#share-dialog").waitFor();
      await fitsWidth(page, `share dialog at ${width} px`);
      const box = await page.locator("#share-dialog").boundingBox();
      expect(box!.x, "the dialog fits the screen").to.be.at.least(0);
      expect(box!.x + box!.width).to.be.at.most(width);
      expect(await axeViolations(page), `dialog open at ${width} px`).to.deep.equal([]);
      if (width === 360) await expectScreenshot(page, "share-dialog-360px", { mask: varyingParts(page) });
      else await screenshot(page, `share-dialog-${width}px`);
      await page.goto(`${base}/verify/${diploma.hash}/print`);
      expect(await axeViolations(page), `print view at ${width} px`).to.deep.equal([]);
      await fitsWidth(page, `print view at ${width} px`);
      await context.close();
    }
  });

  it("offers on / a CIP-158 link that opens the page in a wallet app, and its QR code", async () => {
    const { context, page } = await newPage(360);
    await page.goto(`${base}/`);
    const expected = `web+cardano://browse/v1?uri=${encodeURIComponent(`${base}/`)}`;
    expect(await page.locator("#wallet-app-link").getAttribute("href")).to.equal(expected);
    await page.locator("#wallet-app summary").click();
    const qr = await page.locator(".wallet-app-qr svg").screenshot();
    expect(decodeQrCode(qr)).to.equal(expected);
    await fitsWidth(page, "home with the wallet-app link open");
    expect(await axeViolations(page), "home with the wallet-app link open").to.deep.equal([]);
    await screenshot(page, "home-wallet-app-link-360px");
    await context.close();
  });
});
