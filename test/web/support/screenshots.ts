/**
 * Screenshots compared with committed references (test/web/reference-screenshots/<name>.png) by pixelmatch.
 * A mismatch leaves `<name>.actual.png` and `<name>.diff.png` under test-output/screenshots/ and fails naming them.
 * `UPDATE_SCREENSHOTS=1` writes the references instead; a missing reference fails under `CI` (a fresh clone never
 * passes silently) and is written otherwise.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import type { Locator, Page } from "playwright-core";
import { SCREENSHOTS } from "./browser";

export const REFERENCES = join(__dirname, "..", "reference-screenshots");
const REPO = join(__dirname, "..", "..", "..");

/** pixelmatch's colour distance (0–1) above which a pixel differs; anti-aliased pixels never count. */
const PIXEL_THRESHOLD = 0.1;
/** The share of differing pixels a screenshot may have: text rendering wobbles by a few pixels, a changed rule does not. */
const MAX_DIFFERING_SHARE = 0.001;

export interface ScreenshotOptions {
  /** What differs from run to run (hashes, addresses, times, QR codes, short codes): painted over in one colour. */
  mask?: Locator[];
  /** The whole page rather than the viewport (references stay small: prefer the viewport). */
  fullPage?: boolean;
  /** The folder of references (the helper's own test uses a temporary one). */
  references?: string;
}

export interface ScreenshotComparison {
  /** Share of the reference's pixels that differ, 0–1. */
  differingShare: number;
  width: number;
  height: number;
}

/** Compares two PNGs; `diff` (when given) receives pixelmatch's picture of the differences. */
export function comparePngs(reference: PNG, actual: PNG, diff?: PNG): ScreenshotComparison | { sizeMismatch: string } {
  if (reference.width !== actual.width || reference.height !== actual.height)
    return { sizeMismatch: `${actual.width}×${actual.height}, the reference is ${reference.width}×${reference.height}` };
  const { width, height } = reference;
  const differing = pixelmatch(reference.data, actual.data, diff?.data, width, height, { threshold: PIXEL_THRESHOLD, includeAA: false });
  return { differingShare: differing / (width * height), width, height };
}

/**
 * What the pages show that differs from run to run: transaction ids, addresses, block numbers, times (of the anchor,
 * of the print view's check), the anchors' history, the live status line, QR codes, and the links carrying the
 * short code or the test server's port. The tests fix the rest (a diploma's student id, hence its hash).
 */
const VARYING = [
  '[data-field="transaction"]',
  '[data-field="issuer-address"]',
  '[data-field="block"]',
  '[data-field="time"]',
  '[data-field="short-link"]',
  '[data-field="qr-target"]',
  ".anchors li",
  "#live",
  ".print-verdict p",
  ".share-qr svg",
  ".print-qr svg",
  "#share-short-link",
  "#share-page-url",
  "#share-embed",
].join(", ");

/** The masks for `expectScreenshot` that cover what differs from run to run on any of the pages. */
export const varyingParts = (page: Page): Locator[] => [page.locator(VARYING)];

/** Takes the page's screenshot and expects it to look like its reference (see the module comment). */
export async function expectScreenshot(page: Page, name: string, options: ScreenshotOptions = {}): Promise<void> {
  const png = await page.screenshot({
    fullPage: options.fullPage ?? false,
    mask: options.mask ?? [],
    animations: "disabled",
    caret: "hide",
  });
  const references = options.references ?? REFERENCES;
  const reference = join(references, `${name}.png`);
  const actualPath = join(SCREENSHOTS, `${name}.actual.png`);
  const diffPath = join(SCREENSHOTS, `${name}.diff.png`);
  rmSync(actualPath, { force: true });
  rmSync(diffPath, { force: true });

  const update = process.env["UPDATE_SCREENSHOTS"] === "1";
  if (!update && !existsSync(reference)) {
    if (process.env["CI"])
      throw new Error(`no reference screenshot ${relative(REPO, reference)}: write it with UPDATE_SCREENSHOTS=1 and commit it`);
    process.stdout.write(`      no reference screenshot ${relative(REPO, reference)} yet: this run's is written there, commit it\n`);
  }
  if (update || !existsSync(reference)) {
    mkdirSync(references, { recursive: true });
    writeFileSync(reference, png);
    if (update) process.stdout.write(`      wrote the reference screenshot ${relative(REPO, reference)}\n`);
    return;
  }

  const expected = PNG.sync.read(readFileSync(reference));
  const actual = PNG.sync.read(png);
  const diff = new PNG({ width: expected.width, height: expected.height });
  const result = comparePngs(expected, actual, diff);
  if ("differingShare" in result && result.differingShare <= MAX_DIFFERING_SHARE) return;

  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(actualPath, png);
  const why =
    "sizeMismatch" in result
      ? `is ${result.sizeMismatch}`
      : `differs in ${(result.differingShare * 100).toFixed(2)} % of its pixels (at most ${MAX_DIFFERING_SHARE * 100} % may)`;
  if ("differingShare" in result) writeFileSync(diffPath, PNG.sync.write(diff));
  throw new Error(
    `screenshot ${name} ${why}: see ${relative(REPO, actualPath)}${"differingShare" in result ? ` and ${relative(REPO, diffPath)}` : ""}` +
      ` against ${relative(REPO, reference)}; if the change is meant, update it with UPDATE_SCREENSHOTS=1`,
  );
}
