/**
 * The system Chromium (Debian's `chromium`, installed by .ci/run; never a downloaded browser) driven by
 * playwright-core, plus what the page tests measure: transferred bytes, axe-core violations, screenshots under
 * test-output/screenshots/.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import axe from "axe-core";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(__dirname, "..", "..", "..", "test-output", "screenshots");

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (bash .ci/run does), or set CHROMIUM_PATH`);
  // The CI user is root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Bytes transferred (headers + encoded bodies) to load `url` in a fresh context with an empty cache. */
export async function firstLoadBytes(browser: Browser, url: string): Promise<{ bytes: number; requests: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes: Array<Promise<number>> = [];
  const requests: string[] = [];
  page.on("requestfinished", (req) => {
    requests.push(new URL(req.url()).pathname);
    sizes.push(req.sizes().then((s) => s.responseHeadersSize + s.responseBodySize));
  });
  await page.goto(url, { waitUntil: "load" });
  const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await context.close();
  return { bytes, requests };
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** axe-core's violations on the page as it is now (injected through the DevTools protocol: the page's CSP allows no inline script). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axe.source);
  return page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))`,
  );
}
