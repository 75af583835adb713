/**
 * The home page checks a transparency-log proof in the browser (Debian's Chromium through playwright-core) against
 * the real mesh: a document's hash submitted through the API, its `.tlog-proof` downloaded; the document and the
 * proof dropped together on the page → verified, with the log's origin, the entry's index and the checkpoint's size;
 * another document's proof → does not match; a proof chosen after entering the hash, and a proof whose checkpoint
 * signature was altered (not the log's). The page asks nothing but its own origin (GET /api/v1/log for the key, the
 * documents' lookups), the result is in an aria-live list, and the page fits 360 px.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { IssuanceWorld } from "../../fixtures/issuance/issuance-world";
import type { SubmitAnswer } from "../../shared/merkle";
import { fromBase64, toBase64 } from "../../shared/tlog/encoding";
import { axeViolations, firstLoadBytes, launchChromium, screenshot } from "./support/browser";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

interface Submitted {
  bytes: Buffer;
  hash: string;
  receipt: string;
  proof: string;
  index: number;
}

describe("web pages: a .tlog-proof checked in the browser on / (real mesh, system Chromium)", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  let base: string;
  let origin: string;
  let browser: Browser;
  let doc: Submitted;
  let other: Submitted;

  /** Submits documents' hashes and waits for their proofs. */
  async function submit(count: number): Promise<Submitted[]> {
    const docs = Array.from({ length: count }, () => Buffer.from(`a contract, version ${randomBytes(8).toString("hex")}\n`));
    const res = await postJson(`${base}/api/v1/batch/submit`, { hashes: docs.map(sha256) });
    expect(res.status, res.text).to.equal(202);
    const receipts = (res.json as SubmitAnswer).receipts.map((r) => r.receiptId);
    return Promise.all(
      receipts.map(async (receipt, i) => {
        const log = await pollUntil(
          async () => {
            const r = (await http(`${base}/api/v1/batch/receipt/${receipt}`)).json as { log: { status: string; index?: number } };
            return r.log.status === "checkpointed" ? r.log : undefined;
          },
          `document ${i} checkpointed`,
          10_000,
        );
        const proof = await http(`${base}/api/v1/batch/receipt/${receipt}/proof`);
        expect(proof.status).to.equal(200);
        return { bytes: docs[i]!, hash: sha256(docs[i]!), receipt, proof: proof.text, index: log.index! };
      }),
    );
  }

  async function newPage(width = 1000): Promise<{ context: BrowserContext; page: Page; requests: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
    return { context, page, requests };
  }

  /** Drops files on the drop zone (a DataTransfer built in the page). */
  const drop = (page: Page, files: Array<{ name: string; text: string }>) =>
    page.evaluate(
      `(() => { const dt = new DataTransfer(); for (const f of ${JSON.stringify(files)}) dt.items.add(new File([f.text], f.name)); document.getElementById("drop-zone").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true })); })()`,
    );
  const proofItem = (page: Page, n: number) => page.locator("#proofs li").nth(n);

  /** Every request went to the page's own origin, and the API calls were the log's key and the documents' lookups. */
  const onlyOwnOrigin = (requests: string[]) => {
    for (const r of requests) {
      const [method, url] = r.split(" ") as [string, string];
      expect(new URL(url).origin, r).to.equal(base);
      expect(method, r).to.equal("GET");
      const path = new URL(url).pathname;
      if (path.startsWith("/api/")) expect(path, r).to.match(/^\/api\/v1\/(log|verify\/[0-9a-f]{64})$/);
    }
    expect(requests.filter((r) => r.endsWith("/api/v1/log"))).to.have.length(1);
  };

  before(async () => {
    // the anchoring rounds are not what this spec looks at: long interval, no funded wallet needed
    w = await IssuanceWorld.create(["gateway", "indexer", "verifier", "tx-builder", "submitter", "calendar"], {
      BATCH_INTERVAL_MS: "600000",
      LOG_INTEGRATE_MS: "200",
    });
    base = w.mesh.api.replace(/\/api\/v1$/, "");
    origin = ((await http(`${base}/api/v1/log`)).json as { origin: string }).origin;
    [doc, other] = (await submit(3)) as [Submitted, Submitted];
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await w?.close();
  });

  it("verifies a document and its .tlog-proof dropped together, and says another document's proof does not match", async () => {
    const { context, page, requests } = await newPage(360);
    await page.goto(`${base}/`);
    expect(await page.locator("#proofs").getAttribute("aria-live")).to.equal("polite");
    await drop(page, [
      { name: "contract.txt", text: doc.bytes.toString() },
      { name: `${doc.receipt}.tlog-proof`, text: doc.proof },
    ]);
    const verified = proofItem(page, 0);
    await verified.and(page.locator('[data-proof-state="verified"]')).waitFor();
    const text = (await verified.textContent()) ?? "";
    expect(text).to.contain("✓ Proof verified");
    expect(text).to.contain(`“contract.txt” is in the transparency log ${origin}: entry ${doc.index}, included in the checkpoint of size`);
    expect(text).to.contain("No witness has cosigned this checkpoint");
    // the document is listed as a document, the proof is not hashed as one
    expect(await page.locator("#items li").count()).to.equal(1);

    await drop(page, [{ name: `${other.receipt}.tlog-proof`, text: other.proof }]);
    const mismatch = proofItem(page, 1);
    await mismatch.and(page.locator('[data-proof-state="mismatch"]')).waitFor();
    expect(await mismatch.textContent()).to.contain("✗ Does not match This proof is not for “contract.txt”");
    const box = await page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]");
    expect((box as number[])[0], "no horizontal scrolling at 360 px").to.be.at.most((box as number[])[1]!);
    await screenshot(page, "home-tlog-proof-360");
    const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious, "axe-core on / with proofs checked").to.deep.equal([]);
    onlyOwnOrigin(requests);
    await context.close();
  });

  it("checks a proof chosen after the hash was entered, waits for a document, and refuses a checkpoint the log did not sign", async () => {
    const { context, page, requests } = await newPage();
    await page.goto(`${base}/`);
    // a proof alone waits for its document
    await page.setInputFiles("#proof-input", { name: "alone.tlog-proof", mimeType: "text/plain", buffer: Buffer.from(other.proof) });
    await proofItem(page, 0).and(page.locator('[data-proof-state="waiting"]')).waitFor();
    // entering the other document's hash checks it
    await page.fill("#hash-input", other.hash);
    await page.click("#lookup-hash");
    await proofItem(page, 0).and(page.locator('[data-proof-state="verified"]')).waitFor();
    expect(await proofItem(page, 0).textContent()).to.contain(`entry ${other.index}`);

    // the same proof with one bit of the log's signature flipped
    const lines = other.proof.split("\n");
    const at = lines.findIndex((l) => l.startsWith(`— ${origin} `));
    const sig = fromBase64(lines[at]!.slice(`— ${origin} `.length))!;
    sig[10]! ^= 1;
    lines[at] = `— ${origin} ${toBase64(sig)}`;
    await page.setInputFiles("#proof-input", { name: "forged.tlog-proof", mimeType: "text/plain", buffer: Buffer.from(lines.join("\n")) });
    const forged = proofItem(page, 1);
    await forged.and(page.locator('[data-proof-state="invalid"]')).waitFor();
    expect(await forged.textContent()).to.contain(`The proof's checkpoint is not signed by this service's log (${origin})`);
    await screenshot(page, "home-tlog-proof-forged");
    onlyOwnOrigin(requests);
    await context.close();
  });

  it("loads / in well under 100 KB with the proof checker bundled", async () => {
    const home = await firstLoadBytes(browser, `${base}/`);
    process.stdout.write(`      first load: / ${home.bytes} bytes (${home.requests.join(", ")})\n`);
    expect(home.bytes).to.be.below(100_000);
  });
});
