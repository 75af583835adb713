/**
 * The document shell shared by every page: English, UTF-8, responsive viewport, the hashed stylesheet, no inline
 * script or style (the Content-Security-Policy of page-server.ts forbids both).
 */
import { markup, type HtmlValue, type SafeHtml } from "./html";

export interface PageAssets {
  /** URL of the stylesheet. */
  css: string;
  /** URL of the home page's script. */
  js: string;
}

export interface PageOptions {
  title: string;
  assets: PageAssets;
  /** `<meta>` name → content, for the page's script. */
  meta?: Readonly<Record<string, string>>;
  /** `data-*` attributes of <body> (name without `data-`). */
  data?: Readonly<Record<string, string>>;
  script?: boolean;
  main: SafeHtml;
}

export function page(opts: PageOptions): string {
  const meta: HtmlValue[] = Object.entries(opts.meta ?? {}).map(([name, content]) => markup`<meta name="${name}" content="${content}">\n`);
  const data: HtmlValue[] = Object.entries(opts.data ?? {}).map(([name, value]) => markup` data-${name}="${value}"`);
  return markup`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}</title>
<meta name="robots" content="noindex">
${meta}<link rel="icon" href="data:,">
<link rel="stylesheet" href="${opts.assets.css}">
${opts.script ? markup`<script src="${opts.assets.js}" defer></script>\n` : ""}</head>
<body${data}>
<header class="site"><a class="brand" href="/">cert-anchor</a><span class="tagline">certificates anchored on Cardano</span></header>
<main id="main">
${opts.main}</main>
<footer class="site"><a href="/">Verify a file or issue a certificate</a> · <a href="/api/v1/openapi.json">API</a></footer>
</body>
</html>
`.text;
}
