/**
 * `npm run build:og-images`: renders each template's link-preview picture (shared/presentation/og-image-svg.ts) to
 * `web/og/<template>.png`, 1200×630, in the system Chromium (playwright-core, no network), and writes the SVG it drew
 * beside it. Run it after changing a drawing and commit both: the service serves the files, and a test fails when a
 * committed SVG is not what the code draws now.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { OG_IMAGE_HEIGHT, OG_IMAGE_NAMES, OG_IMAGE_WIDTH, ogImageSvg } from "../shared/presentation/og-image-svg";
import { OG_IMAGE_DIR } from "../shared/web-pages/og-images";

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
    headless: true,
    chromiumSandbox: false,
  });
  try {
    const page = await browser.newPage({ viewport: { width: OG_IMAGE_WIDTH, height: OG_IMAGE_HEIGHT } });
    mkdirSync(OG_IMAGE_DIR, { recursive: true });
    for (const name of OG_IMAGE_NAMES) {
      const svg = ogImageSvg(name);
      await page.setContent(`<!DOCTYPE html><html><body style="margin:0">${svg}</body></html>`);
      const png = await page.screenshot({ clip: { x: 0, y: 0, width: OG_IMAGE_WIDTH, height: OG_IMAGE_HEIGHT } });
      writeFileSync(join(OG_IMAGE_DIR, `${name}.svg`), svg);
      writeFileSync(join(OG_IMAGE_DIR, `${name}.png`), png);
      process.stdout.write(`${name}.png (${png.length} bytes)\n`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
