/**
 * `npm run build:web` (part of `npm run build`): bundles the pages' browser assets (web/) into `dist/web/` with a
 * manifest, for deployments that run the compiled `dist/` without esbuild (deploy/Dockerfile). `npm start` and the
 * tests build the same bundle in memory instead (shared/web-pages/assets.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildWebBundle, manifestOf } from "../shared/web-pages/assets";

async function main(): Promise<void> {
  const out = join(__dirname, "..", "dist", "web");
  const files = await buildWebBundle();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of files) writeFileSync(join(out, f.name), f.contents);
  writeFileSync(join(out, "manifest.json"), manifestOf(files));
  process.stdout.write(`web assets: ${files.map((f) => `${f.name} (${f.contents.length} bytes)`).join(", ")} → ${out}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
