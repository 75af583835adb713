/**
 * The web pages in a real browser (Debian's Chromium through playwright-core) against the embedded app as
 * `npm start` runs it: a diploma issued with the published client (`@uverify/sdk`) opens on its `verifyUrl` with the
 * name matching, a tampered name shows the mismatch, a file dropped on `/` finds its certificate, issuing from `/`
 * with an injected CIP-30 wallet ends on a verification link (and a short link) that resolve, hostile metadata
 * renders inert, axe-core finds no serious violation, the pages fit 360 px, and their first-load weight. The home
 * page, the diploma page (at 360 and 1280 px) and a 404 page look like their reference screenshots
 * (test/web/reference-screenshots/); screenshots of the other pages go to test-output/screenshots/.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { UVerifyClient } from "@uverify/sdk";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { startEmbeddedApp, type EmbeddedApp } from "../../fixtures/processes/embedded-app";
import { axeViolations, firstLoadBytes, launchChromium, screenshot } from "./support/browser";
import { confirmedOn, prepareCollateral } from "./support/devnet-issuer";
import { cip30SignTx, injectTestWallet } from "./support/cip30-test-wallet";
import { expectScreenshot, varyingParts } from "./support/screenshots";

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

describe("web pages in a real browser (embedded app, system Chromium)", function () {
  this.timeout(180_000);
  let app: EmbeddedApp;
  let base: string;
  let browser: Browser;
  const sdkIssuer = Wallet.fromMnemonic(generateMnemonic());
  const pageIssuer = Wallet.fromMnemonic(generateMnemonic());
  let client: UVerifyClient;
  let diploma: { hash: string; verifyUrl: string; txHash: string };
  const fileBytes = Buffer.from(`a contract, version ${randomBytes(8).toString("hex")}\n`);
  const evil = `<script>window.__pwned = 1</script>"'><img src=x onerror="window.__pwned = 2">`;
  const evilHash = sha256(`evil ${randomBytes(8).toString("hex")}`);

  const confirmed = (txHash: string) => confirmedOn(base, txHash);

  async function newPage(width = 1000): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    return { context, page: await context.newPage() };
  }
  const verification = (page: Page) => page.locator("body").getAttribute("data-verification");
  const fitsWidth = async (page: Page, what: string) => {
    const [scroll, client] = (await page.evaluate(
      "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
    )) as number[];
    expect(scroll, `${what}: no horizontal scrolling`).to.be.at.most(client!);
  };

  before(async function () {
    const port = await freePort();
    app = await startEmbeddedApp({
      env: { PORT: String(port) },
      extraGenesis: [
        { address: sdkIssuer.address, lovelace: 500_000_000n },
        { address: pageIssuer.address, lovelace: 500_000_000n },
      ],
    });
    base = app.api.replace(/\/api\/v1$/, "");
    browser = await launchChromium();

    // The published client's issuer already has its collateral (the client itself never prepares one).
    await prepareCollateral(base, sdkIssuer);

    client = new UVerifyClient({ baseUrl: base, verifyBaseUrl: `${base}/verify`, signTx: cip30SignTx(sdkIssuer) });
    const issued = await client.apps.issueDiploma(sdkIssuer.address, [
      {
        // fixed, as the diploma's hash is (a fresh devnet each run): the reference screenshots show them
        studentId: "student-2026-0042",
        name: "Ada Lovelace",
        degree: "Master of Science",
        institution: "University of Testing",
        graduationDate: "2026-06-30",
        honors: "distinction",
      },
    ]);
    const cert = issued.certificates[0]!;
    diploma = { hash: cert.hash, verifyUrl: cert.verifyUrl, txHash: issued.txHash };
    // the file for the drop test and the hostile metadata, through the same client
    const other = await client.issueCertificates(sdkIssuer.address, [
      { hash: sha256(fileBytes), algorithm: "SHA-256", metadata: { title: "A dropped contract" } },
      { hash: evilHash, algorithm: "SHA-256", metadata: { title: evil, description: evil, [evil]: evil } },
    ]);
    await confirmed(issued.txHash);
    await confirmed(other);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("opens the published client's verifyUrl on the diploma page with the name shown as matching", async () => {
    expect(diploma.verifyUrl).to.equal(`${base}/verify/${diploma.hash}/${diploma.txHash}?name=Ada+Lovelace`);
    const { context, page } = await newPage();
    const res = await page.goto(diploma.verifyUrl);
    expect(res?.status()).to.equal(200);
    expect(await verification(page)).to.equal("verified");
    expect(await page.locator("body").getAttribute("data-template")).to.equal("diploma");
    const name = page.locator('[data-revealed="match"]');
    expect(await name.count()).to.equal(1);
    expect(await name.locator(".value").textContent()).to.equal("Ada Lovelace");
    expect(await page.locator("h2.heading").textContent()).to.equal("Master of Science");
    expect(await page.locator('[data-field="transaction"]').textContent()).to.equal(diploma.txHash);
    expect(await page.locator('[data-field="issuer-address"]').textContent()).to.equal(sdkIssuer.enterpriseAddress);
    expect(await page.locator('[data-field="algorithm"]').textContent()).to.equal("SHA-256");
    await screenshot(page, "verify-diploma");
    await context.close();
  });

  it("shows a tampered ?name= as a mismatch", async () => {
    const { context, page } = await newPage();
    await page.goto(diploma.verifyUrl.replace("name=Ada+Lovelace", "name=Eve+Forger"));
    expect(await verification(page)).to.equal("mismatch");
    expect(await page.locator('[data-revealed="mismatch"]').count()).to.equal(1);
    expect(await page.locator('[data-revealed="match"]').count()).to.equal(0);
    expect(await page.locator("body").textContent()).to.not.contain("Eve Forger");
    await screenshot(page, "verify-diploma-mismatch");
    await context.close();
  });

  it("answers an unknown hash with a 404 page and a malformed one with a 400 page", async () => {
    const { context, page } = await newPage();
    const unknown = await page.goto(`${base}/verify/${"ab".repeat(32)}`);
    expect(unknown?.status()).to.equal(404);
    expect(await verification(page)).to.equal("not-found");
    await expectScreenshot(page, "verify-404", { mask: varyingParts(page) });
    const malformed = await page.goto(`${base}/verify/not-a-hash`);
    expect(malformed?.status()).to.equal(400);
    expect(await verification(page)).to.equal("not-found");
    await context.close();
  });

  it("finds the certificate of a file set on / (DevTools protocol) and of a file dropped on it, hashed in the page", async () => {
    const { context, page } = await newPage();
    const uploads: string[] = [];
    page.on("request", (r) => {
      if (r.method() !== "GET") uploads.push(`${r.method()} ${r.url()}`);
    });
    await page.goto(`${base}/`);
    await page.setInputFiles("#file-input", { name: "contract.txt", mimeType: "text/plain", buffer: fileBytes });
    const item = page.locator(`li[data-hash="${sha256(fileBytes)}"]`);
    await item.and(page.locator('[data-state="certified"]')).waitFor();
    // the same bytes dropped on the drop zone (a DataTransfer built in the page)
    await page.evaluate(
      `(() => { const dt = new DataTransfer(); dt.items.add(new File([${JSON.stringify(fileBytes.toString())}], "dropped.txt")); document.getElementById("drop-zone").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true })); })()`,
    );
    await page
      .locator(`li[data-hash="${sha256(fileBytes)}"][data-state="certified"]`)
      .nth(1)
      .waitFor();
    // SHA-512 re-hashes the files: not certified under that hash
    await page.selectOption("#algorithm", "SHA-512");
    const sha512 = createHash("sha512").update(fileBytes).digest("hex");
    await page.locator(`li[data-hash="${sha512}"][data-state="new"]`).nth(1).waitFor();
    await page.selectOption("#algorithm", "SHA-256");
    await item.first().and(page.locator('[data-state="certified"]')).waitFor();
    expect(uploads, "nothing is uploaded").to.deep.equal([]);
    await screenshot(page, "home-file-found");
    const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious, "axe-core on / with hashes listed").to.deep.equal([]);
    await item.first().locator("a.certificate-link").click();
    await page.waitForURL(`${base}/verify/${sha256(fileBytes)}`);
    expect(await verification(page)).to.equal("verified");
    expect(await page.locator("h2.heading").textContent()).to.equal("A dropped contract");
    await context.close();
  });

  it("issues from / with an injected CIP-30 wallet (collateral first) and ends on a verification link and a short link that resolve", async () => {
    const { context, page } = await newPage();
    const wallet = await injectTestWallet(context, pageIssuer);
    await page.goto(`${base}/`);
    const text = `issued from the browser ${randomBytes(6).toString("hex")}`;
    await page.fill("#text-input", text);
    await page.click("#add-text");
    await page.locator(`li[data-hash="${sha256(text)}"][data-state="new"]`).waitFor();
    await page.fill("#metadata", JSON.stringify({ title: "Issued from the browser" }));
    await page.click('button[data-wallet="testwallet"]');
    expect(await page.locator("#wallet-status").getAttribute("data-address")).to.equal(pageIssuer.address);
    await page.click("#issue");
    const link = page.locator("a.verify-link");
    await link.waitFor({ timeout: 90_000 });
    expect(await page.locator("body").getAttribute("data-issue")).to.equal("done");
    const steps = await page
      .locator("#progress li")
      .evaluateAll((lis) => lis.map((li) => `${li.getAttribute("data-step")}:${li.getAttribute("data-state")}`));
    expect(steps).to.include.members(["collateral-confirm:done", "certificates-sign:done", "certificates-confirm:done"]);
    expect(wallet.signatures(), "collateral and certificate transactions").to.equal(2);
    await fitsWidth(page, "home after issuing");
    await screenshot(page, "home-issued");
    const verifyUrl = await link.getAttribute("href");
    expect(verifyUrl).to.match(new RegExp(`^${base}/verify/${sha256(text)}/[0-9a-f]{64}$`));
    const shortLink = await page.locator("a.short-link").getAttribute("href");
    await page.locator(`li[data-hash="${sha256(text)}"][data-state="certified"]`).waitFor();

    await page.goto(verifyUrl!);
    expect(await verification(page)).to.equal("verified");
    expect(await page.locator("h2.heading").textContent()).to.equal("Issued from the browser");
    expect(await page.locator('[data-field="issuer-address"]').textContent()).to.equal(pageIssuer.enterpriseAddress);
    // FRONTEND_URL unset: the short link's page redirects to these pages on its own origin
    await page.goto(shortLink!);
    await page.waitForURL(/\/verify\/[0-9a-f]{64}$/);
    expect(new URL(page.url()).pathname).to.equal(`/verify/${sha256(text)}`);
    expect(await verification(page)).to.equal("verified");
    await context.close();
  });

  it("renders metadata holding <script> and quotes inert", async () => {
    const { context, page } = await newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${base}/verify/${evilHash}`);
    expect(await verification(page)).to.equal("verified");
    expect(await page.locator("h2.heading").textContent()).to.equal(evil);
    expect(await page.locator("p.description").textContent()).to.equal(evil);
    expect(await page.locator(`dt:text-is(${JSON.stringify(evil)})`).count()).to.equal(1);
    expect(await page.evaluate("typeof window.__pwned")).to.equal("undefined");
    expect(await page.locator("main script, main img").count(), "no script or image but the share dialog's badge").to.equal(1);
    expect(await page.locator("main img").getAttribute("src")).to.equal(`/badge/${evilHash}.svg`);
    const scripts = await page.locator("script").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("src")));
    expect(scripts, "the certificate page runs its own scripts only").to.have.length(2);
    expect(scripts[0]).to.match(/^\/assets\/verify-[A-Z0-9]+\.js$/);
    expect(scripts[1]).to.match(/^\/assets\/share-[A-Z0-9]+\.js$/);
    expect(errors).to.deep.equal([]);
    await fitsWidth(page, "long metadata keys");
    await screenshot(page, "verify-hostile-metadata");
    await context.close();
  });

  it("has no serious or critical axe-core violation on /, a verified, a mismatch and a 404 page", async () => {
    const { context, page } = await newPage();
    const found: string[] = [];
    for (const url of [`${base}/`, diploma.verifyUrl, diploma.verifyUrl.replace("Ada", "Eve"), `${base}/verify/${"cd".repeat(32)}`]) {
      await page.goto(url);
      const violations = await axeViolations(page);
      for (const v of violations)
        if (v.impact === "serious" || v.impact === "critical") found.push(`${url}: ${v.id} (${v.impact}) ${v.help}`);
    }
    expect(found).to.deep.equal([]);
    await context.close();
  });

  it("fits a 360 px wide screen, looks like its reference screenshots at 360 and 1280 px, and loads / and /verify/… in well under 100 KB", async () => {
    for (const [name, url] of [
      ["home", `${base}/`],
      ["verify-diploma", diploma.verifyUrl],
    ] as const)
      for (const width of [360, 1280]) {
        const { context, page } = await newPage(width);
        await page.goto(url);
        await fitsWidth(page, `${name} at ${width} px`);
        await expectScreenshot(page, `${name}-${width}px`, { mask: varyingParts(page) });
        await context.close();
      }
    const home = await firstLoadBytes(browser, `${base}/`);
    const verify = await firstLoadBytes(browser, diploma.verifyUrl);
    process.stdout.write(
      `      first load: / ${home.bytes} bytes (${home.requests.join(", ")}); /verify/… ${verify.bytes} bytes (${verify.requests.join(", ")})\n`,
    );
    expect(verify.bytes).to.be.below(100_000);
    expect(home.bytes).to.be.below(100_000);
  });
});
