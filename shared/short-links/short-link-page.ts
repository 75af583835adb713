/**
 * The HTML of `/resolve/{code}`: Open Graph and Twitter tags for link previews, then an immediate redirect to the
 * certificate page (meta refresh and `location.replace`), built with the pages' one HTML builder
 * (shared/presentation/html.ts). Each page comes with its Content-Security-Policy: nothing loads, and the one inline
 * script runs only because the policy names its SHA-256 (computed from the exact text served, which holds the
 * redirect of this request).
 */
import { createHash } from "node:crypto";
import { htmlDocument, markup, scriptString } from "../presentation/html";
import type { OpenGraphData } from "../presentation/open-graph";

/** A short-link page and the Content-Security-Policy it is served with. */
export interface LinkPage {
  html: string;
  contentSecurityPolicy: string;
}

/** `'sha256-<base64>'`: the CSP source expression allowing exactly this inline script text. */
function scriptHashSource(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

/** Nothing may load or submit, the page may not be framed, and only the given inline scripts (by hash) run. */
function linkPagePolicy(inlineScripts: readonly string[]): string {
  return [
    "default-src 'none'",
    ...(inlineScripts.length > 0 ? [`script-src ${inlineScripts.map(scriptHashSource).join(" ")}`] : []),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function shortLinkPage(og: OpenGraphData, redirectUrl: string): LinkPage {
  const script = markup`location.replace(${scriptString(redirectUrl)});`;
  const html = htmlDocument({
    head: markup`<title>${og.title}</title>
<meta name="description" content="${og.description}">
<meta property="og:type" content="website">
<meta property="og:title" content="${og.title}">
<meta property="og:description" content="${og.description}">
<meta property="og:image" content="${og.image}">
<meta property="og:url" content="${og.url}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${og.title}">
<meta name="twitter:description" content="${og.description}">
<meta name="twitter:image" content="${og.image}">
<meta http-equiv="refresh" content="0; url=${redirectUrl}">
`,
    body: markup`<p>Opening the certificate… <a href="${redirectUrl}">continue</a></p>
<script>${script}</script>
`,
  });
  return { html, contentSecurityPolicy: linkPagePolicy([script.text]) };
}

export function unknownLinkPage(code: string, frontendUrl: string): LinkPage {
  const html = htmlDocument({
    head: markup`<title>Unknown link</title>
<meta name="robots" content="noindex">
`,
    body: markup`<h1>Unknown link</h1>
<p>The link <code>${code}</code> does not point to a certificate.</p>
<p><a href="${frontendUrl}">Go to the certificate verifier</a></p>
`,
  });
  return { html, contentSecurityPolicy: linkPagePolicy([]) };
}
