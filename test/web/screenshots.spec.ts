/**
 * The screenshot comparison itself, in the system Chromium on a page of its own (no app): a reference is written
 * when missing (but never under CI) and on UPDATE_SCREENSHOTS=1, the same page passes, a changed rule fails with
 * the differing share and leaves the actual and diff pictures, another size fails, and a masked part may change.
 */
import { expect } from "chai";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium, SCREENSHOTS } from "./support/browser";
import { expectScreenshot } from "./support/screenshots";

const card = (colour: string, code = "A1B2C3") =>
  `<body style="margin:0;font:16px sans-serif"><div style="margin:20px;padding:20px;background:${colour}">` +
  `<h1>A certificate</h1><p>Short code <span id="code">${code}</span></p></div></body>`;

describe("screenshots compared with their references (system Chromium)", function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let references: string;
  const env = { CI: process.env["CI"], UPDATE_SCREENSHOTS: process.env["UPDATE_SCREENSHOTS"] };
  const setEnv = (name: keyof typeof env, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  const failure = (run: Promise<void>) =>
    run.then(
      () => expect.fail("the comparison passed"),
      (e: Error) => e.message,
    );

  before(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 400, height: 300 } });
  });
  beforeEach(() => {
    references = mkdtempSync(join(tmpdir(), "reference-screenshots-"));
    setEnv("CI", undefined);
    setEnv("UPDATE_SCREENSHOTS", undefined);
  });
  afterEach(() => rmSync(references, { recursive: true, force: true }));
  after(async () => {
    setEnv("CI", env.CI);
    setEnv("UPDATE_SCREENSHOTS", env.UPDATE_SCREENSHOTS);
    await browser?.close();
  });

  it("fails on a missing reference under CI, and writes it otherwise", async () => {
    await page.setContent(card("#e5f4ea"));
    setEnv("CI", "true");
    expect(await failure(expectScreenshot(page, "self-test", { references }))).to.match(
      /no reference screenshot .*self-test\.png: write it with UPDATE_SCREENSHOTS=1/,
    );
    expect(existsSync(join(references, "self-test.png"))).to.equal(false);
    setEnv("CI", undefined);
    await expectScreenshot(page, "self-test", { references });
    expect(existsSync(join(references, "self-test.png"))).to.equal(true);
    await expectScreenshot(page, "self-test", { references });
  });

  it("fails on a changed colour naming the differing share and the actual and diff pictures; UPDATE_SCREENSHOTS=1 takes the change", async () => {
    await page.setContent(card("#e5f4ea"));
    await expectScreenshot(page, "self-test", { references });
    await page.setContent(card("#a4161a"));
    const message = await failure(expectScreenshot(page, "self-test", { references }));
    const share = Number(/differs in ([\d.]+) % of its pixels/.exec(message)?.[1]);
    expect(share, message).to.be.above(10);
    expect(message).to.contain("test-output/screenshots/self-test.actual.png");
    expect(message).to.contain("test-output/screenshots/self-test.diff.png");
    expect(existsSync(join(SCREENSHOTS, "self-test.actual.png"))).to.equal(true);
    expect(existsSync(join(SCREENSHOTS, "self-test.diff.png"))).to.equal(true);
    setEnv("UPDATE_SCREENSHOTS", "1");
    await expectScreenshot(page, "self-test", { references });
    setEnv("UPDATE_SCREENSHOTS", undefined);
    await expectScreenshot(page, "self-test", { references });
    expect(existsSync(join(SCREENSHOTS, "self-test.actual.png")), "a match clears the last failure's pictures").to.equal(false);
  });

  it("fails on another size", async () => {
    await page.setContent(card("#e5f4ea"));
    await expectScreenshot(page, "self-test", { references });
    await page.setViewportSize({ width: 360, height: 300 });
    expect(await failure(expectScreenshot(page, "self-test", { references }))).to.contain("is 360×300, the reference is 400×300");
    await page.setViewportSize({ width: 400, height: 300 });
  });

  it("ignores what a mask covers", async () => {
    await page.setContent(card("#e5f4ea", "A1B2C3"));
    await expectScreenshot(page, "self-test", { references, mask: [page.locator("#code")] });
    await page.setContent(card("#e5f4ea", "Z9Y8X7"));
    await expectScreenshot(page, "self-test", { references, mask: [page.locator("#code")] });
  });
});
