/**
 * The browser assets of the pages (docs/web-pages.md#assets): the home page's script `web/app.ts`, the certificate
 * page's `web/verify.ts`, its share dialog's and print view's `web/share.ts` (each bundled with esbuild) and `web/app.css`, minified, named by content hash, kept in memory
 * with their gzip form. From a source checkout (`npm start`, tests) they are built from `web/` when first asked for
 * (once per process); a compiled deployment serves what `npm run build` wrote to `dist/web/` (esbuild is a build-time
 * tool, absent from the production image).
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { PageAssets } from "./layout";

export interface AssetFile {
  body: Buffer;
  gzip: Buffer;
  contentType: string;
}

export interface WebAssets {
  /** File name (under `/assets/`) → file. */
  files: ReadonlyMap<string, AssetFile>;
  urls: PageAssets;
}

/** `web/` beside `shared/` — the sources in a checkout, the built files in `dist/`. */
const WEB_DIR = join(__dirname, "..", "..", "web");
export const ASSET_PREFIX = "/assets/";
const MANIFEST = "manifest.json";

const contentTypeOf = (name: string) => (name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8");

/** Bundles `web/app.ts`, `web/verify.ts`, `web/share.ts` and `web/app.css` (minified, content-hashed names). */
export async function buildWebBundle(webDir = WEB_DIR): Promise<Array<{ name: string; contents: Uint8Array }>> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [join(webDir, "app.ts"), join(webDir, "verify.ts"), join(webDir, "share.ts"), join(webDir, "app.css")],
    bundle: true,
    minify: true,
    write: false,
    outdir: join(webDir, "out"),
    entryNames: "[name]-[hash]",
    format: "iife",
    target: ["es2020"],
    legalComments: "none",
    charset: "utf8",
    logLevel: "silent",
    tsconfig: join(webDir, "tsconfig.json"),
  });
  return result.outputFiles.map((f) => ({ name: basename(f.path), contents: f.contents }));
}

function assetsOf(files: Array<{ name: string; contents: Uint8Array }>): WebAssets {
  const map = new Map<string, AssetFile>();
  for (const f of files) {
    const body = Buffer.from(f.contents);
    map.set(f.name, { body, gzip: gzipSync(body, { level: 9 }), contentType: contentTypeOf(f.name) });
  }
  const named = (entry: string, ext: string) => files.find((f) => f.name.startsWith(`${entry}-`) && f.name.endsWith(ext))?.name;
  const js = named("app", ".js");
  const verifyJs = named("verify", ".js");
  const shareJs = named("share", ".js");
  const css = named("app", ".css");
  if (js === undefined || verifyJs === undefined || shareJs === undefined || css === undefined)
    throw new Error("web assets: the bundle needs app-*.js, verify-*.js, share-*.js and app-*.css");
  return {
    files: map,
    urls: { js: ASSET_PREFIX + js, verifyJs: ASSET_PREFIX + verifyJs, shareJs: ASSET_PREFIX + shareJs, css: ASSET_PREFIX + css },
  };
}

/** Writes a built bundle for `loadWebAssets` to find without esbuild. */
export function manifestOf(files: Array<{ name: string }>): string {
  return `${JSON.stringify({ files: files.map((f) => f.name) }, null, 2)}\n`;
}

let cached: Promise<WebAssets> | undefined;

/** The assets, built or read once per process. @throws when neither sources nor a built bundle exist */
export function loadWebAssets(): Promise<WebAssets> {
  cached ??= (async () => {
    if (existsSync(join(WEB_DIR, "app.ts"))) return assetsOf(await buildWebBundle());
    const manifestPath = join(WEB_DIR, MANIFEST);
    if (!existsSync(manifestPath)) throw new Error(`web assets: neither ${join(WEB_DIR, "app.ts")} nor ${manifestPath} exists`);
    const names = (JSON.parse(readFileSync(manifestPath, "utf8")) as { files: string[] }).files;
    return assetsOf(names.map((name) => ({ name, contents: readFileSync(join(WEB_DIR, name)) })));
  })();
  return cached;
}
