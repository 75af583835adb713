/**
 * `npm run build:web` (part of `npm run build`): bundles the pages' browser assets (web/) into `dist/web/` with a
 * manifest, and copies the link-preview pictures (web/og/*.png), for deployments that run the compiled `dist/` without esbuild (deploy/Dockerfile). `npm start` and the
 * tests build the same bundle in memory instead (shared/web-pages/assets.ts).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildWebBundle, manifestOf } from "../shared/web-pages/assets";
import { OG_IMAGE_DIR } from "../shared/web-pages/og-images";

async function main(): Promise<void> {
  const out = join(__dirname, "..", "dist", "web");
  const files = await buildWebBundle();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of files) writeFileSync(join(out, f.name), f.contents);
  writeFileSync(join(out, "manifest.json"), manifestOf(files));
  // The link-preview pictures are committed files (npm run build:og-images): copied as they are.
  cpSync(OG_IMAGE_DIR, join(out, "og"), { recursive: true, filter: (src) => !src.endsWith(".svg") });
  process.stdout.write(`web assets: ${files.map((f) => `${f.name} (${f.contents.length} bytes)`).join(", ")} → ${out}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
