/**
 * Issue 26: the pages follow the chain through the service's event stream (`GET /api/v1/events`) instead of polling,
 * in a real browser (Debian's Chromium through playwright-core) against the real mesh and a devnet whose blocks the
 * test makes. The home page issuing with an injected CIP-30 wallet learns its transaction's confirmation from an
 * EventSource — it reads `/transaction/confirm` once when the stream opens and once when the stream announces the
 * confirmation, however long the block takes — then shows its depth at each block, a rollback, its confirmation
 * again and the final depth; without EventSource it polls `/transaction/confirm` as before. A certificate page
 * waiting for a hash (404) says when the certificate lands, for the hash or for the link's transaction; a certificate
 * page says when its anchor is rolled back and on chain again. Screenshots go to test-output/screenshots/.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { ISSUANCE_SERVICES, IssuanceWorld } from "../../fixtures/issuance/issuance-world";
import { pollUntil } from "../../fixtures/mesh/helpers";
import { txIdOf } from "../../shared/csl";
import { axeViolations, launchChromium, screenshot } from "./support/browser";
import { injectTestWallet } from "./support/cip30-test-wallet";

const FINALITY = 4;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A page and what it asked the service (and got answered), with the frames its EventSources received (DevTools protocol). */
interface Watched {
  context: BrowserContext;
  page: Page;
  requests: Request[];
  answered: string[];
  frames: Array<{ eventName: string; data: string }>;
}

describe("web pages follow the chain through Server-Sent Events (real mesh, system Chromium)", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  let base: string;
  let browser: Browser;
  const devnet = () => w.f.chain.devnet;

  before(async () => {
    w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "events"], { EVENTS_FINALITY_DEPTH: String(FINALITY) });
    await w.mintDefaultBootstrap();
    await w.ensureCollateral(w.f.actors.alice);
    await w.ensureCollateral(w.f.actors.bob);
    base = w.mesh.api.replace(/\/api\/v1$/, "");
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await w?.close();
  });

  async function watchedPage(): Promise<Watched> {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const requests: Request[] = [];
    const answered: string[] = [];
    page.on("request", (r) => requests.push(r));
    page.on("requestfinished", (r) => answered.push(r.url()));
    const frames: Watched["frames"] = [];
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    cdp.on("Network.eventSourceMessageReceived", (m) => frames.push({ eventName: m.eventName, data: m.data }));
    return { context, page, requests, answered, frames };
  }

  const paths = (requests: readonly Request[], prefix: string) =>
    requests.map((r) => new URL(r.url())).filter((u) => u.pathname.startsWith(prefix));
  const confirmReads = (requests: readonly Request[], txHash: string) => paths(requests, `/api/v1/transaction/confirm/${txHash}`).length;
  const streams = (requests: readonly Request[]) => requests.filter((r) => r.resourceType() === "eventsource");
  const framesOf = (frames: Watched["frames"], type: string, txHash: string) =>
    frames.filter(
      (f) => f.eventName === type && (JSON.parse(f.data) as { data: { transactionHash: string } }).data.transactionHash === txHash,
    );

  /** Fills the home page's form with a new text and starts issuing it with the injected wallet; answers its hash. */
  async function startIssuing(page: Page): Promise<string> {
    await page.goto(`${base}/`);
    const text = `followed from the browser ${randomBytes(6).toString("hex")}`;
    await page.fill("#text-input", text);
    await page.click("#add-text");
    await page.locator(`li[data-hash="${sha256(text)}"][data-state="new"]`).waitFor();
    await page.click('button[data-wallet="testwallet"]');
    await page.click("#issue");
    return sha256(text);
  }

  /** The transaction the page submitted, once it is in the mempool. */
  const submitted = () =>
    pollUntil(async () => devnet().mempoolTransactions()[0]?.id, "the page's transaction in the mempool", 30_000) as Promise<string>;

  /** Opens a certificate page; answers its HTTP status once its stream is open and it has read what the service holds. */
  async function openFollowing(watched: Watched, url: string, hash: string): Promise<number | undefined> {
    const reads = watched.answered.filter((u) => u === `${base}/api/v1/verify/${hash}`).length;
    const res = await watched.page.goto(url);
    await pollUntil(
      async () => (watched.answered.filter((u) => u === `${base}/api/v1/verify/${hash}`).length > reads ? true : undefined),
      "the page's read when its stream opened",
    );
    return res?.status();
  }

  const step = (page: Page) => page.locator('#progress li[data-step="certificates-confirm"]');
  const stepIs = (page: Page, attrs: string) => page.locator(`#progress li[data-step="certificates-confirm"]${attrs}`).waitFor();

  it("issues from / and learns the confirmation from GET /api/v1/events, not by polling; then the depth, a rollback and finality", async () => {
    const home = await watchedPage();
    const { page } = home;
    await injectTestWallet(home.context, w.f.actors.alice);
    const hash = await startIssuing(page);
    const txHash = await submitted();

    // one stream, on the transaction, for its confirmations and rollbacks
    await pollUntil(async () => (streams(home.requests).length > 0 ? true : undefined), "the page's event stream");
    const [stream] = streams(home.requests);
    const query = new URL(stream!.url()).searchParams;
    expect(new URL(stream!.url()).pathname).to.equal("/api/v1/events");
    expect(query.getAll("subject")).to.deep.equal([`transaction:${txHash}`]);
    expect(query.getAll("type")).to.deep.equal(["transaction.confirmed", "transaction.rolled_back"]);

    // no block for 3 s: the page counts the seconds, and asked /transaction/confirm once, when its stream opened
    await page.locator('#progress li[data-step="certificates-confirm"][data-state="active"]', { hasText: "confirmed… 3 s" }).waitFor();
    expect(confirmReads(home.requests, txHash), "one read when the stream opened, no polling").to.equal(1);

    const started = Date.now();
    devnet().produceBlock();
    await page.locator("a.verify-link").waitFor();
    const shownAfterMs = Date.now() - started;
    expect(await page.locator("body").getAttribute("data-issue")).to.equal("done");
    expect(framesOf(home.frames, "transaction.confirmed", txHash).map((f) => JSON.parse(f.data).data.depth)).to.deep.equal([1]);
    expect(confirmReads(home.requests, txHash), "and one when the stream announced it (read-your-writes)").to.equal(2);
    expect(await step(page).getAttribute("data-depth")).to.equal("1");
    expect(await step(page).textContent()).to.match(/^Confirmed the certificate transaction in \d+\.\d s · in the newest block$/);
    // read-your-writes: the lookups after it find the new certificate
    await page.locator(`li[data-hash="${hash}"][data-state="certified"]`).waitFor();
    process.stdout.write(`      shown ${shownAfterMs} ms after the block\n`);

    // each block deepens it
    devnet().produceEmptyBlocks(2);
    await stepIs(page, '[data-depth="3"][data-chain="confirmed"]');
    expect(await step(page).textContent()).to.match(/ · 3 blocks deep$/);

    // its certificate's page, open in another tab, follows the hash too
    const certificate = await watchedPage();
    await openFollowing(certificate, `${base}/verify/${hash}/${txHash}`, hash);
    expect(await certificate.page.locator("body").getAttribute("data-verification")).to.equal("verified");

    // a rollback of the three blocks takes the transaction out: both pages say so
    devnet().rollback(3);
    await stepIs(page, '[data-state="active"][data-chain="rolled-back"]');
    expect(await step(page).textContent()).to.equal(
      "The certificate transaction was rolled back (it was 3 blocks deep): waiting for a block to take it again",
    );
    await screenshot(page, "home-issued-rolled-back");
    await certificate.page.locator('body[data-live="rolled-back"]').waitFor();
    const alert = certificate.page.locator('#live p[role="alert"]');
    expect(await alert.textContent()).to.contain(
      `Rolled back: transaction ${txHash}, which anchored this hash, is not on chain at the moment.`,
    );
    expect(await certificate.page.locator("#live").getAttribute("aria-live")).to.equal("polite");
    await screenshot(certificate.page, "verify-rolled-back");

    // the next block takes it again
    devnet().produceBlock();
    await stepIs(page, '[data-state="done"][data-depth="1"][data-chain="confirmed"]');
    expect(await step(page).textContent()).to.equal("Confirmed the certificate transaction again · in the newest block");
    await certificate.page.locator('body[data-live="on-chain-again"]').waitFor();
    expect(await certificate.page.locator("#live").textContent()).to.equal(`Transaction ${txHash} is on chain again.`);

    // up to the finality depth, where the page stops following it
    devnet().produceEmptyBlocks(FINALITY - 1);
    await stepIs(page, `[data-depth="${FINALITY}"][data-chain="final"]`);
    expect(await step(page).textContent()).to.match(new RegExp(` · ${FINALITY} blocks deep \\(final\\)$`));
    expect(framesOf(home.frames, "transaction.rolled_back", txHash)).to.have.length(1);
    expect(streams(home.requests), "one stream for the whole wait").to.have.length(1);
    expect(confirmReads(home.requests, txHash), "never polled").to.equal(2);
    expect(paths(home.requests, "/api/v1/transaction/confirm/"), "no other confirmation read").to.have.length(2);
    await certificate.context.close();
    await home.context.close();
  });

  it("says on a certificate page waiting for its hash (404) that the certificate landed, and links to it", async () => {
    const { alice } = w.f.actors;
    const watched = await watchedPage();
    const { page } = watched;
    const hash = sha256(`landing ${randomBytes(6).toString("hex")}`);
    expect(await openFollowing(watched, `${base}/verify/${hash}`, hash)).to.equal(404);
    const [stream] = streams(watched.requests);
    expect(new URL(stream!.url()).searchParams.getAll("subject")).to.deep.equal([`hash:${hash}`]);
    expect(await page.locator("#live").textContent()).to.equal("");

    const { txId } = await w.issue(
      { type: "default", address: alice.address, certificates: [{ hash, metadata: JSON.stringify({ title: "Landed while you looked" }) }] },
      [alice],
    );
    await page.locator('body[data-live="anchored"]').waitFor();
    expect(await page.locator("#live p").textContent()).to.equal(`Anchored just now, in transaction ${txId}. Show the certificate`);
    expect(paths(watched.requests, `/api/v1/verify/${hash}`), "one read, when the stream opened: no polling").to.have.length(1);
    const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious, "axe-core on the 404 page with its notice").to.deep.equal([]);
    await screenshot(page, "verify-404-anchored-just-now");
    await page.click("#live a.live-reload");
    await page.waitForURL(`${base}/verify/${hash}`);
    expect(await page.locator("body").getAttribute("data-verification")).to.equal("verified");
    expect(await page.locator("h2.heading").textContent()).to.equal("Landed while you looked");
    await watched.context.close();
  });

  it("says on the 404 page of a link handed out before its transaction was in a block when it lands, even while hidden then", async () => {
    const { bob } = w.f.actors;
    const hash = sha256(`handed out ${randomBytes(6).toString("hex")}`);
    const built = await w.build({ type: "default", address: bob.address, certificates: [{ hash }] });
    expect(built.body.status.code).to.equal("SUCCESS");
    const txHash = txIdOf(built.body.unsignedTransaction!);
    const watched = await watchedPage();
    expect(await openFollowing(watched, `${base}/verify/${hash}/${txHash}`, hash)).to.equal(404);
    expect(await watched.page.locator('meta[name="cert-anchor-awaits"]').getAttribute("content")).to.equal(txHash);

    // the tab is hidden (its stream closes) while the transaction lands; shown again, the page reads what it missed
    const visibility = (hidden: boolean) =>
      watched.page.evaluate(
        `(() => { Object.defineProperty(document, "hidden", { configurable: true, get: () => ${hidden} }); document.dispatchEvent(new Event("visibilitychange")); })()`,
      );
    await visibility(true);
    await w.confirm(await w.signAndSubmit(built.body.unsignedTransaction!, [bob]));
    expect(await watched.page.locator("body").getAttribute("data-live")).to.equal(null);
    await visibility(false);
    await watched.page.locator('body[data-live="anchored"]').waitFor();
    expect(streams(watched.requests), "a new stream once shown again").to.have.length(2);
    expect(paths(watched.requests, `/api/v1/verify/${hash}`), "and its one read").to.have.length(2);
    await watched.page.click("#live a.live-reload");
    await watched.page.waitForURL(`${base}/verify/${hash}/${txHash}`);
    expect(await watched.page.locator("body").getAttribute("data-verification")).to.equal("verified");
    expect(await watched.page.locator('[data-field="transaction"]').textContent()).to.equal(txHash);
    await watched.context.close();
  });

  it("falls back to polling /transaction/confirm when the browser has no EventSource", async () => {
    const home = await watchedPage();
    await home.context.addInitScript({ content: "delete window.EventSource;" });
    await injectTestWallet(home.context, w.f.actors.alice);
    await startIssuing(home.page);
    const txHash = await submitted();
    await pollUntil(async () => (confirmReads(home.requests, txHash) >= 3 ? true : undefined), "the page polling", 10_000);
    devnet().produceBlock();
    await home.page.locator("a.verify-link").waitFor();
    expect(await step(home.page).textContent()).to.match(/^Confirmed the certificate transaction in \d+\.\d s$/);
    expect(streams(home.requests)).to.deep.equal([]);
    await home.context.close();
  });
});
