/**
 * The HTML of `/resolve/{code}`: Open Graph and Twitter tags for link previews, then an immediate redirect to the
 * certificate page (meta refresh and `location.replace`). Every value is HTML-escaped; the redirect inside the
 * script is a JSON string with `<`, `>`, `&` and the JS line separators escaped, so no value can end the script.
 * Each page comes with its Content-Security-Policy: nothing loads, and the one inline script runs only because
 * the policy names its SHA-256 (computed from the exact text served, which holds the redirect of this request).
 */
import { createHash } from "node:crypto";
import type { OpenGraphData } from "../presentation/open-graph";

/** A short-link page and the Content-Security-Policy it is served with. */
export interface LinkPage {
  html: string;
  contentSecurityPolicy: string;
}

/** `'sha256-<base64>'`: the CSP source expression allowing exactly this inline script text. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

/** Nothing may load or submit, the page may not be framed, and only the given inline scripts (by hash) run. */
export function linkPagePolicy(inlineScripts: readonly string[]): string {
  return [
    "default-src 'none'",
    ...(inlineScripts.length > 0 ? [`script-src ${inlineScripts.map(scriptHashSource).join(" ")}`] : []),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A JavaScript string literal safe inside an HTML <script> element. */
export function jsStringLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** An HTML document in English and UTF-8: `head` follows the charset, `body` fills <body> (each ends with a newline). */
function htmlDocument(head: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
${head}</head>
<body>
${body}</body>
</html>
`;
}

export function shortLinkPage(og: OpenGraphData, redirectUrl: string): LinkPage {
  const e = escapeHtml;
  const script = `location.replace(${jsStringLiteral(redirectUrl)});`;
  const html = htmlDocument(
    `<title>${e(og.title)}</title>
<meta name="description" content="${e(og.description)}">
<meta property="og:type" content="website">
<meta property="og:title" content="${e(og.title)}">
<meta property="og:description" content="${e(og.description)}">
<meta property="og:image" content="${e(og.image)}">
<meta property="og:url" content="${e(og.url)}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${e(og.title)}">
<meta name="twitter:description" content="${e(og.description)}">
<meta name="twitter:image" content="${e(og.image)}">
<meta http-equiv="refresh" content="0; url=${e(redirectUrl)}">
`,
    `<p>Opening the certificate… <a href="${e(redirectUrl)}">continue</a></p>
<script>${script}</script>
`,
  );
  return { html, contentSecurityPolicy: linkPagePolicy([script]) };
}

export function unknownLinkPage(code: string, frontendUrl: string): LinkPage {
  const e = escapeHtml;
  const html = htmlDocument(
    `<title>Unknown link</title>
<meta name="robots" content="noindex">
`,
    `<h1>Unknown link</h1>
<p>The link <code>${e(code)}</code> does not point to a certificate.</p>
<p><a href="${e(frontendUrl)}">Go to the certificate verifier</a></p>
`,
  );
  return { html, contentSecurityPolicy: linkPagePolicy([]) };
}
