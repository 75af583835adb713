/**
 * What the pages let a reader conclude, in a real browser (Debian's Chromium through playwright-core) against
 * certificates issued on the devnet through the deployed validators:
 * - a stranger re-anchoring someone's certificate hash gets a page that names the stranger as the one who anchored
 *   it and says it is not the issuer's — never the genuine card beside the stranger's address;
 * - a short link is shown (and resolves) only for the hash its code is bound to: a later hash sharing the code's
 *   prefix gets no short link, on its certificate page and on the home page after issuing;
 * - the short-link page carries a Content-Security-Policy naming its one inline script by hash, and still works.
 */
import { expect } from "chai";
import { createHash } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { shortCodeOf } from "../../shared/domain/short-code";
import { makeCertificate, type OnchainCertificate } from "../../shared/protocol";
import type { Wallet } from "../../shared/wallet";
import { errorBody, http, pollUntil } from "../../fixtures/mesh/helpers";
import type { ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";
import { axeViolations, launchChromium, screenshot } from "./support/browser";
import { injectTestWallet } from "./support/cip30-test-wallet";
import { DataHash } from "../../shared/domain/hex";

const SHORT_LINKS = "https://go.example.test";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("web pages: whose anchor a page shows, bound short links, the short-link page's CSP (devnet, system Chromium)", function () {
  this.timeout(120_000);
  let world: DeployedMesh;
  let f: ProtocolFixture;
  let base: string;
  let browser: Browser;

  /** Anchors certificates from `wallet`'s state (forking one first if it has none) and waits until they are indexed. */
  const issue = async (wallet: Wallet, certs: OnchainCertificate[]): Promise<string> => {
    const ids = f.findStateIdsOf(wallet);
    const tx =
      ids.length === 0
        ? (await f.mintState(wallet, certs)).utxo.transaction.id
        : (await f.update(f.findState(ids[0]!), wallet, certs)).txId;
    for (const c of certs)
      await pollUntil(
        async () => ((await http(`${base}/api/v1/verify/by-transaction-hash/${tx}/${c.hash}`)).status === 200 ? true : undefined),
        `${c.hash} indexed`,
      );
    return tx;
  };
  const certificate = (wallet: Wallet, hash: string, metadata: Record<string, unknown>) =>
    makeCertificate({ hash: DataHash(hash), algorithm: "SHA-256", issuer: wallet.paymentKeyHash, metadata: JSON.stringify(metadata) });

  async function newPage(): Promise<{ context: BrowserContext; page: Page; console: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const console: string[] = [];
    page.on("console", (m) => console.push(`${m.type()}: ${m.text()}`));
    return { context, page, console };
  }
  const verification = (page: Page) => page.locator("body").getAttribute("data-verification");

  before(async () => {
    world = await startDeployedMesh({
      // events: a recent certificate's page follows its hash (web/verify.ts), as under `npm start`
      services: ["gateway", "indexer", "verifier", "tx-builder", "submitter", "events"],
      env: { SHORT_LINK_DOMAIN: SHORT_LINKS },
    });
    f = world.f;
    base = world.mesh.api.replace(/\/api\/v1$/, "");
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
  });

  it("shows a stranger's anchor of a certificate's hash as the stranger's, not the issuer's: no verified card beside the stranger's address", async () => {
    const alice = f.actors.alice;
    const bob = f.actors.bob;
    const hash = sha256("diploma of Ada, trust test");
    const genuine = await issue(alice, [
      certificate(alice, hash, { uv_tid: "diploma", title: "Master of Science", issuer: "University of Testing" }),
    ]);
    // bob saw the hash (a shared diploma) and anchors it again in a transaction of his own
    const stranger = await issue(bob, [certificate(bob, hash, { title: "Master of Science" })]);

    const { context, page, console } = await newPage();
    const res = await page.goto(`${base}/verify/${hash}/${stranger}`);
    expect(res?.status()).to.equal(200);
    await screenshot(page, "verify-stranger-anchor");
    expect(await verification(page), "not presented as a verified certificate").to.equal("foreign-anchor");
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).to.not.contain("Certificate verified");
    expect(await page.locator('[data-field="issuer-address"]').count(), "the stranger is never shown as the issuer").to.equal(0);
    expect(await page.locator(".card").count(), "the genuine certificate's card is not on the stranger's page").to.equal(0);
    expect(await page.locator('[data-field="anchored-by"]').textContent()).to.equal(bob.enterpriseAddress);
    expect(await page.locator('[data-field="transaction"]').textContent()).to.equal(stranger);
    expect(await page.locator('[data-field="certificate-issuer"]').textContent()).to.equal(alice.enterpriseAddress);
    expect(text).to.contain("is not the certificate's issuer");
    expect(await page.locator(`a[href="/verify/${hash}"]`).count(), "a link to the certificate itself").to.be.at.least(1);
    const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious, "axe-core on the stranger's anchor page").to.deep.equal([]);

    // the issuer's own anchor, and the hash alone, still verify with the issuer's address
    for (const url of [`${base}/verify/${hash}/${genuine}`, `${base}/verify/${hash}`]) {
      await page.goto(url);
      expect(await verification(page), url).to.equal("verified");
      expect(await page.locator('[data-field="issuer-address"]').textContent(), url).to.equal(alice.enterpriseAddress);
      expect(await page.locator("h2.heading").textContent(), url).to.equal("Master of Science");
    }
    // the list of anchors says which one is not the issuer's
    expect(await page.locator(`li:has(a[href="/verify/${hash}/${stranger}"])`).textContent()).to.contain("not the issuer's");

    expect(
      console.filter((m) => m.startsWith("error")),
      "no console errors",
    ).to.deep.equal([]);

    // a transaction that does not anchor the hash: the 404 page
    const other = await issue(alice, [certificate(alice, sha256("another document, trust test"), {})]);
    expect((await page.goto(`${base}/verify/${hash}/${other}`))?.status()).to.equal(404);
    expect(await verification(page)).to.equal("not-found");
    await context.close();
  });

  const first = "4d".repeat(8) + "11".repeat(24);
  const second = "4d".repeat(8) + "22".repeat(24);
  const code = shortCodeOf(first);

  it("shows and resolves a short link only for the hash its code is bound to: a later hash sharing the prefix gets none", async () => {
    expect(shortCodeOf(second), "the two hashes share the code").to.equal(code);
    const alice = f.actors.alice;
    const bob = f.actors.bob;
    await issue(alice, [certificate(alice, first, { title: "The first hash" })]);
    await issue(bob, [certificate(bob, second, { title: "The second hash" })]);

    const { context, page } = await newPage();
    await page.goto(`${base}/verify/${first}`);
    expect(await page.locator('[data-field="short-link"] a').getAttribute("href")).to.equal(`${SHORT_LINKS}/${code}`);
    await page.goto(`${base}/verify/${second}`);
    expect(await verification(page)).to.equal("verified");
    expect(await page.locator('[data-field="short-link"]').count(), "no code that leads to another hash").to.equal(0);
    await screenshot(page, "verify-short-code-taken");

    const bound = await http(`${base}/api/v1/short-link/${first}`);
    expect(bound.status).to.equal(200);
    expect(bound.json).to.deep.equal({ hash: first, code, url: `${SHORT_LINKS}/${code}` });
    const taken = await http(`${base}/api/v1/short-link/${second}`);
    expect(taken.status).to.equal(404);
    expect(errorBody(taken).error).to.equal("NOT_FOUND");
    expect(errorBody(taken).message).to.contain(first);
    const unknown = await http(`${base}/api/v1/short-link/${"9e".repeat(32)}`);
    expect(unknown.status).to.equal(404);
    expect(errorBody(unknown).message).to.contain("no certificate anchors");
    expect((await http(`${base}/api/v1/short-link/xyz`)).status, "malformed hash").to.equal(400);

    // the code leads only to the first hash, in the browser too (FRONTEND_URL unset: the gateway's own pages)
    await page.goto(`${base}/api/v1/resolve/${code}`);
    await page.waitForURL(`${base}/verify/${first}`);
    expect(await page.locator("h2.heading").textContent()).to.equal("The first hash");
    await context.close();
  });

  it("issuing from / shows the short link of a new hash only when its code is bound to it, none when an earlier hash holds it", async () => {
    const nonce = Date.now().toString(36);
    const ownText = `a hash with a code of its own ${nonce}`;
    let takenText = `a hash whose code is taken ${nonce}`;
    for (let i = 0; sha256(takenText).slice(16, 64) === "00".repeat(24); i++) takenText += ` ${i}`;
    const own = sha256(ownText);
    const taken = sha256(takenText);
    // bob anchors a hash with the same first 8 bytes before the page issues `taken`
    const squat = taken.slice(0, 16) + "00".repeat(24);
    expect(shortCodeOf(squat)).to.equal(shortCodeOf(taken));
    await issue(f.actors.bob, [certificate(f.actors.bob, squat, { title: "Squatted code" })]);

    // the chain makes a block whenever a transaction waits (as a running node would)
    const devnet = f.chain.devnet;
    const stopBlocks = devnet.on("mempool", () => setImmediate(() => devnet.produceBlock()));
    const { context, page } = await newPage();
    try {
      await injectTestWallet(context, f.actors.issuer);
      await page.goto(`${base}/`);
      for (const text of [ownText, takenText]) {
        await page.fill("#text-input", text);
        await page.click("#add-text");
      }
      await page.locator(`#items li[data-hash="${taken}"][data-state="new"]`).waitFor();
      await page.locator(`#items li[data-hash="${own}"][data-state="new"]`).waitFor();
      await page.click('button[data-wallet="testwallet"]');
      await page.click("#issue");
      await page.locator("#results a.verify-link").first().waitFor({ timeout: 90_000 });
      expect(await page.locator("body").getAttribute("data-issue")).to.equal("done");
      await screenshot(page, "home-issued-short-code-taken");
      expect(await page.locator(`#results li[data-hash="${own}"] a.short-link`).getAttribute("href")).to.equal(
        `${SHORT_LINKS}/${shortCodeOf(own)}`,
      );
      expect(await page.locator(`#results li[data-hash="${taken}"] a.verify-link`).count()).to.equal(1);
      expect(await page.locator(`#results li[data-hash="${taken}"] a.short-link`).count(), "no link that leads to bob's hash").to.equal(0);
    } finally {
      stopBlocks();
      await context.close();
    }
  });

  it("serves the short-link page with a CSP naming its inline script's SHA-256 and frame-ancestors 'none'; the script still runs", async () => {
    const resolveUrl = `${base}/api/v1/resolve/${code}`;
    const res = await http(resolveUrl);
    expect(res.status).to.equal(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    const scripts = [...res.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).to.have.length(1);
    const digest = createHash("sha256").update(scripts[0]!, "utf8").digest("base64");
    expect(csp).to.contain(`script-src 'sha256-${digest}'`);
    expect(csp).to.match(/(^|; )default-src 'none'(;|$)/);
    expect(csp).to.match(/(^|; )frame-ancestors 'none'(;|$)/);

    // the real page: it lands on the certificate, and Chromium reports no CSP violation
    const { context, page, console } = await newPage();
    await page.goto(resolveUrl);
    await page.waitForURL(`${base}/verify/${first}`);
    // the same answer without its meta refresh: only the inline script can take the browser on
    await page.route(resolveUrl, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/<meta http-equiv="refresh"[^>]*>\n/, "");
      expect(body).to.not.contain("http-equiv");
      await route.fulfill({ response, body });
    });
    await page.goto(resolveUrl);
    await page.waitForURL(`${base}/verify/${first}`);
    expect(
      console.filter((m) => /Content Security Policy|Refused/i.test(m)),
      "no CSP violation",
    ).to.deep.equal([]);

    // the unknown-link page (no script) is under a policy too
    const unknown = await http(`${base}/api/v1/resolve/61kgLIX6vE`);
    expect(unknown.status).to.equal(404);
    expect(unknown.headers.get("content-security-policy")).to.match(/(^|; )default-src 'none'(;|$)/);
    expect(unknown.headers.get("content-security-policy")).to.match(/(^|; )frame-ancestors 'none'(;|$)/);
    await context.close();
  });
});
