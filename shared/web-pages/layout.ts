/**
 * The layout of the gateway's pages inside the one document shell (shared/presentation/html.ts): responsive
 * viewport, the hashed stylesheet, the site's header and footer; no inline script or style (the
 * Content-Security-Policy of page-server.ts forbids both).
 */
import { networkLabel } from "../presentation/chain-place";
import { htmlDocument, markup, type HtmlValue, type SafeHtml } from "../presentation/html";

export interface PageAssets {
  /** URL of the stylesheet. */
  css: string;
  /** URL of the home page's script. */
  js: string;
  /** URL of the certificate page's script (following the hash while the page is open). */
  verifyJs: string;
  /** URL of the share dialog's and print view's script (web/share.ts). */
  shareJs: string;
}

/** A page and the HTTP status it is served with. */
export interface RenderedPage {
  status: number;
  html: string;
}

export interface PageOptions {
  title: string;
  assets: PageAssets;
  /** `<meta>` name → content, for the page's script. */
  meta?: Readonly<Record<string, string>>;
  /** `data-*` attributes of <body> (name without `data-`). */
  data?: Readonly<Record<string, string>>;
  /** URL of the page's script, if it runs one (or the URLs of its scripts, in order). */
  script?: string | readonly string[];
  /** The network the service runs on (NETWORK), named in the header of every page. */
  network?: string;
  main: SafeHtml;
}

const scriptsOf = (script: PageOptions["script"]): readonly string[] =>
  script === undefined ? [] : typeof script === "string" ? [script] : script;

// ── where the chain is: the header names the network ───────────────────────────────────────────────────────────
const networkBadge = (network: string | undefined) =>
  network === undefined ? "" : markup`<span class="network" data-network="${network}">${networkLabel(network)}</span>`;
// ── end of where the chain is ──────────────────────────────────────────────────────────────────────────────────

export function page(opts: PageOptions): string {
  const meta: HtmlValue[] = Object.entries(opts.meta ?? {}).map(([name, content]) => markup`<meta name="${name}" content="${content}">\n`);
  const data: HtmlValue[] = Object.entries(opts.data ?? {}).map(([name, value]) => markup` data-${name}="${value}"`);
  return htmlDocument({
    head: markup`<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}</title>
<meta name="robots" content="noindex">
${meta}<link rel="icon" href="data:,">
<link rel="stylesheet" href="${opts.assets.css}">
${scriptsOf(opts.script).map((src) => markup`<script src="${src}" defer></script>\n`)}`,
    bodyAttributes: data,
    body: markup`<header class="site"><a class="brand" href="/">cert-anchor</a><span class="tagline">certificates anchored on Cardano</span>${networkBadge(opts.network)}</header>
<main id="main">
${opts.main}</main>
<footer class="site"><a href="/">Verify a file or issue a certificate</a> · <a href="/api/v1/openapi.json">API</a></footer>
`,
  });
}

/** A page that only says how a request ended (not found, malformed, unavailable): a heading, then `body`. */
export function statusPage(opts: {
  status: number;
  title: string;
  assets: PageAssets;
  role?: "status" | "alert";
  data?: PageOptions["data"];
  meta?: PageOptions["meta"];
  script?: string;
  network?: string;
  body: SafeHtml;
}): RenderedPage {
  return {
    status: opts.status,
    html: page({
      title: opts.title,
      assets: opts.assets,
      ...(opts.data !== undefined ? { data: opts.data } : {}),
      ...(opts.meta !== undefined ? { meta: opts.meta } : {}),
      ...(opts.script !== undefined ? { script: opts.script } : {}),
      ...(opts.network !== undefined ? { network: opts.network } : {}),
      main: markup`<section class="status status-not-found"${opts.role !== undefined ? markup` role="${opts.role}"` : ""}>
<h1>${opts.title}</h1>
${opts.body}</section>
`,
    }),
  };
}
