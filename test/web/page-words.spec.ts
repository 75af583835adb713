/**
 * The pages' words in a real browser (Debian's Chromium through playwright-core) against the embedded app: every
 * page names the network and links transactions to the explorer (EXPLORER_URL, set here: the devnet has none by
 * default); the issue flow speaks in the user's terms and tells an unfunded wallet once, with the faucet; Look up
 * says why a typed hash is not one; a text that differs from a certified one only in trailing whitespace is
 * flagged; metadata keys read as labels, links and dates; a browser's unknown or malformed short link gets a styled
 * page whose footer stays at the bottom; the preview picture a short link names answers as a 1200×630 PNG. Each page
 * is checked with axe-core (no violation at all) at 360 px and 1000 px, and photographed to test-output/screenshots/;
 * the unknown short link's page looks like its reference screenshot (test/web/reference-screenshots/).
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { UVerifyClient } from "@uverify/sdk";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { http } from "../../fixtures/mesh/helpers";
import { startEmbeddedApp, type EmbeddedApp } from "../../fixtures/processes/embedded-app";
import { axeViolations, launchChromium, screenshot } from "./support/browser";
import { confirmedOn, prepareCollateral } from "./support/devnet-issuer";
import { cip30SignTx, injectTestWallet } from "./support/cip30-test-wallet";
import { expectScreenshot, varyingParts } from "./support/screenshots";

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const EXPLORER = "http://explorer.invalid/tx/{tx}";
const DEVNET = "this service's private devnet";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

describe("web pages in human words (embedded app, system Chromium)", function () {
  this.timeout(240_000);
  let app: EmbeddedApp;
  let base: string;
  let browser: Browser;
  const issuer = Wallet.fromMnemonic(generateMnemonic());
  const pageIssuer = Wallet.fromMnemonic(generateMnemonic());
  /** The faucet's wallet, funded at genesis as `npm start` funds its own. */
  const faucetMnemonic = generateMnemonic();
  /** Certified with a final line break; the page is given it without one. */
  const certifiedText = `Terms of service, version ${randomBytes(4).toString("hex")}\n`;
  let certificate: { hash: string; txHash: string };

  const confirmed = (txHash: string) => confirmedOn(base, txHash);

  async function newPage(width = 1000, height = 900): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height } });
    return { context, page: await context.newPage() };
  }

  /** axe-core finds nothing on the page at a phone's and a desktop's width; a screenshot of each. */
  async function accessibleAtBothWidths(url: string, name: string, prepare?: (page: Page) => Promise<void>): Promise<void> {
    for (const width of [360, 1000]) {
      const { context, page } = await newPage(width);
      await page.goto(url);
      await prepare?.(page);
      const violations = await axeViolations(page);
      expect(
        violations.map((v) => `${v.id} (${v.impact}) ${v.help}`),
        `${name} at ${width} px`,
      ).to.deep.equal([]);
      const [scroll, client] = (await page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
      )) as number[];
      expect(scroll, `${name} at ${width} px: no horizontal scrolling`).to.be.at.most(client!);
      await screenshot(page, `words-${name}-${width}px`);
      await context.close();
    }
  }

  before(async function () {
    app = await startEmbeddedApp({
      env: { PORT: String(await freePort()), EXPLORER_URL: EXPLORER, FAUCET_MNEMONIC: faucetMnemonic },
      extraGenesis: [
        { address: Wallet.fromMnemonic(faucetMnemonic).address, lovelace: 1_000_000_000n },
        { address: issuer.address, lovelace: 500_000_000n },
        { address: pageIssuer.address, lovelace: 500_000_000n },
      ],
    });
    base = app.api.replace(/\/api\/v1$/, "");
    browser = await launchChromium();
    await prepareCollateral(base, issuer);
    const client = new UVerifyClient({ baseUrl: base, verifyBaseUrl: `${base}/verify`, signTx: cip30SignTx(issuer) });
    const hash = sha256(certifiedText);
    const txHash = await client.issueCertificates(issuer.address, [
      {
        hash,
        algorithm: "SHA-256",
        metadata: {
          title: "Terms of service",
          graduation_date: "2026-06-30",
          homepage: "https://example.org/terms",
          note: "javascript:alert(1)",
        },
      },
    ]);
    await confirmed(txHash);
    certificate = { hash, txHash };
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("names the network on the certificate page, links its transaction to the explorer, and shows metadata as labels, links and dates", async () => {
    const { context, page } = await newPage();
    await page.goto(`${base}/verify/${certificate.hash}`);
    expect(await page.locator("header.site .network").textContent()).to.equal(DEVNET);
    expect(await page.locator('[data-field="network"]').textContent()).to.equal(DEVNET);
    expect(await page.locator(".status-verified p").textContent()).to.contain(`anchored on ${DEVNET}`);
    expect(await page.locator('a[data-field="explorer"]').getAttribute("href")).to.equal(
      `http://explorer.invalid/tx/${certificate.txHash}`,
    );
    expect(await page.locator('span[data-field="transaction"]').textContent()).to.equal(certificate.txHash);
    expect(await page.locator('dt:text-is("Graduation date") + dd').textContent()).to.equal("30 June 2026");
    expect(await page.locator('dt:text-is("Graduation date") + dd time').getAttribute("datetime")).to.equal("2026-06-30");
    expect(await page.locator('dt:text-is("Homepage") + dd a').getAttribute("href")).to.equal("https://example.org/terms");
    expect(await page.locator('dt:text-is("Note") + dd a').count(), "a javascript: value is no link").to.equal(0);
    expect(await page.locator('dt:text-is("Note") + dd').textContent()).to.equal("javascript:alert(1)");
    const unknown = `${base}/verify/${"cd".repeat(32)}`;
    await page.goto(unknown);
    expect(await page.locator(".status p").first().textContent()).to.contain(`Nothing on ${DEVNET} anchors the hash`);
    await context.close();
    await accessibleAtBothWidths(`${base}/verify/${certificate.hash}`, "certificate");
    await accessibleAtBothWidths(unknown, "certificate-404");
  });

  it("says why a typed hash cannot be looked up, and clears the message for a good one", async () => {
    const { context, page } = await newPage();
    await page.goto(`${base}/`);
    const error = page.locator("#hash-error");
    expect(await error.isVisible()).to.equal(false);
    await page.fill("#hash-input", "not a hash");
    await page.click("#lookup-hash");
    await error.waitFor({ state: "visible" });
    expect(await error.textContent()).to.equal("A hash is written in hex: only the digits 0-9 and the letters a-f.");
    expect(await page.locator("#hash-input").getAttribute("aria-invalid")).to.equal("true");
    await page.fill("#hash-input", "abc");
    await page.click("#lookup-hash");
    expect(await error.textContent()).to.contain("this one has 3");
    await screenshot(page, "words-lookup-invalid-hash");
    await page.fill("#hash-input", certificate.hash);
    await page.click("#lookup-hash");
    await page.locator(`li[data-hash="${certificate.hash}"][data-state="certified"]`).waitFor();
    expect(await error.isVisible()).to.equal(false);
    expect(await page.locator("#hash-input").getAttribute("aria-invalid")).to.equal(null);
    await context.close();
    await accessibleAtBothWidths(`${base}/`, "lookup-invalid-hash", async (p) => {
      await p.fill("#hash-input", "xyz");
      await p.click("#lookup-hash");
      await p.locator("#hash-error").waitFor({ state: "visible" });
    });
  });

  it("flags a pasted text that differs from a certified one only in trailing whitespace", async () => {
    const { context, page } = await newPage();
    await page.goto(`${base}/`);
    const bare = certifiedText.trimEnd();
    await page.fill("#text-input", bare);
    await page.click("#add-text");
    const item = page.locator(`li[data-hash="${sha256(bare)}"][data-state="new"]`);
    await item.locator('[data-near="trailing-whitespace"]').waitFor();
    expect(await item.locator("a.near-link").getAttribute("href")).to.equal(`/verify/${certificate.hash}`);
    expect(await item.textContent()).to.contain("differs from it only in trailing whitespace");
    // the exact text is certified as such, with no flag
    await page.fill("#text-input", certifiedText);
    await page.click("#add-text");
    await page.locator(`li[data-hash="${certificate.hash}"][data-state="certified"]`).waitFor();
    expect(await page.locator("[data-near]").count()).to.equal(1);
    // a text with no certified neighbour is simply new
    const other = `nothing like it ${randomBytes(4).toString("hex")}  `;
    await page.fill("#text-input", other);
    await page.click("#add-text");
    await page.locator(`li[data-hash="${sha256(other)}"][data-state="new"]`).waitFor();
    expect(await page.locator(`li[data-hash="${sha256(other)}"] [data-near]`).count()).to.equal(0);
    await screenshot(page, "words-trailing-whitespace");
    await context.close();
  });

  it("tells an unfunded wallet once that it needs ADA, gets test ADA from the devnet's faucet with it, then issues", async () => {
    const unfunded = Wallet.fromMnemonic(generateMnemonic());
    const { context, page } = await newPage(360);
    await injectTestWallet(context, unfunded);
    await page.goto(`${base}/`);
    const text = `unfunded ${randomBytes(6).toString("hex")}`;
    await page.fill("#text-input", text);
    await page.click("#add-text");
    await page.locator(`li[data-hash="${sha256(text)}"][data-state="new"]`).waitFor();
    await page.click('button[data-wallet="testwallet"]');
    await page.click("#issue");
    await page.locator('body[data-issue="failed"]').waitFor();
    const progress = (await page.locator("#progress").textContent()) ?? "";
    expect(progress.match(/does not hold enough ADA/g), "said once").to.have.length(1);
    expect(progress).to.not.contain("Not issued");
    expect(progress).to.not.match(/sign and submit|UTxO|fund it with ADA first/);
    const step = page.locator('#progress li[data-code="INSUFFICIENT_FUNDS"]');
    expect(await step.getAttribute("data-state")).to.equal("failed");
    expect(await step.textContent()).to.contain(`on ${DEVNET}`);
    expect(await step.textContent()).to.contain("Get test ADA from this devnet's faucet with the button below");
    const faucet = page.locator("#faucet");
    await faucet.waitFor({ state: "visible" });
    expect(await axeViolations(page)).to.deep.equal([]);
    await screenshot(page, "words-unfunded-360px");

    await faucet.click();
    const status = page.locator('#faucet-status:is([data-state="done"], [data-state="failed"])');
    await status.waitFor({ timeout: 60_000 });
    expect(await status.textContent()).to.equal("30 ADA arrived in your wallet: you can issue now.");
    await screenshot(page, "words-faucet-paid-360px");
    await page.click("#issue");
    await page.locator("a.verify-link").waitFor({ timeout: 120_000 });
    expect(await page.locator("#faucet-box").isHidden(), "the faucet is offered only while it is needed").to.equal(true);
    await context.close();
  });

  it("issues in the user's words: the network named, the transaction linked to the explorer, no API jargon", async () => {
    const { context, page } = await newPage();
    await injectTestWallet(context, pageIssuer);
    await page.goto(`${base}/`);
    expect(await page.locator('#issue-heading + p [data-field="network"]').textContent()).to.equal(DEVNET);
    const text = `issued in words ${randomBytes(6).toString("hex")}`;
    await page.fill("#text-input", text);
    await page.click("#add-text");
    await page.locator(`li[data-hash="${sha256(text)}"][data-state="new"]`).waitFor();
    await page.click('button[data-wallet="testwallet"]');
    await page.click("#issue");
    await page.locator("a.verify-link").waitFor({ timeout: 120_000 });
    const steps = await page.locator("#progress li").allTextContents();
    const all = steps.join("\n");
    expect(all).to.not.match(/forked|sign and submit|POST \/api|UTxO|state [0-9a-f]{8,}/i);
    expect(steps).to.include(`Prepared the certificate transaction: it anchors 1 hash on ${DEVNET}`);
    const sent = page.locator('#progress li[data-step="certificates-submit"]');
    const txHash = await sent.getAttribute("data-transaction");
    expect(txHash).to.match(/^[0-9a-f]{64}$/);
    expect(await sent.textContent()).to.equal(`Sent the certificate transaction to ${DEVNET}: ${txHash} (view it on the explorer)`);
    expect(await sent.locator("a").getAttribute("href")).to.equal(`http://explorer.invalid/tx/${txHash}`);
    expect(await page.locator('[data-field="issued-on"]').textContent()).to.equal(
      `On ${DEVNET}, in transaction ${txHash} (view it on the explorer)`,
    );
    expect(await axeViolations(page)).to.deep.equal([]);
    await screenshot(page, "words-issued");
    await context.close();
  });

  it("answers a browser's unknown and malformed short links with styled pages whose footer sits at the bottom", async () => {
    const { context, page } = await newPage(1000, 900);
    const unknown = await page.goto(`${base}/api/v1/resolve/AAAAAAAAAA`);
    expect(unknown?.status()).to.equal(404);
    expect(await page.locator("h1").textContent()).to.equal("Unknown link");
    expect(await page.locator("header.site .network").textContent()).to.equal(DEVNET);
    const styled = await page.evaluate("getComputedStyle(document.body).display");
    expect(styled, "the site's stylesheet applies").to.equal("flex");
    const footerBottom = (await page.evaluate("document.querySelector('footer.site').getBoundingClientRect().bottom")) as number;
    expect(Math.round(footerBottom), "the footer at the bottom of a short page").to.equal(900);
    await expectScreenshot(page, "short-link-unknown", { mask: varyingParts(page) });
    const malformed = await page.goto(`${base}/api/v1/resolve/nope`);
    expect(malformed?.status()).to.equal(400);
    expect(await page.locator("h1").textContent()).to.equal("Not a short link");
    await context.close();
    const json = await http(`${base}/api/v1/resolve/nope`, { headers: { Accept: "application/json" } });
    expect(json.status).to.equal(400);
    expect((json.json as { error: string }).error, "an API client keeps its JSON").to.equal("INVALID_SHORT_CODE");
    await accessibleAtBothWidths(`${base}/api/v1/resolve/AAAAAAAAAA`, "short-link-unknown");
    await accessibleAtBothWidths(`${base}/api/v1/resolve/nope`, "short-link-malformed");
  });

  it("answers the preview picture a short link names (og:image) as a 1200×630 PNG", async () => {
    const link = (await http(`${base}/api/v1/short-link/${certificate.hash}`)).json as { url: string };
    const preview = await fetch(link.url, { headers: { Accept: "*/*" } });
    expect(preview.status).to.equal(200);
    const image = /<meta property="og:image" content="([^"]+)">/.exec(await preview.text())?.[1];
    expect(new URL(image!).pathname, "no template id: the default picture").to.equal("/og/default.png");
    const png = await fetch(`${base}/og/default.png`);
    expect(png.status).to.equal(200);
    expect(png.headers.get("content-type")).to.equal("image/png");
    const bytes = Buffer.from(await png.arrayBuffer());
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).to.deep.equal([1200, 630]);
  });
});
