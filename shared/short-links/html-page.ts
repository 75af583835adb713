/**
 * The HTML of `/resolve/{code}`: Open Graph and Twitter tags for link previews, then an immediate redirect to the
 * certificate page (meta refresh and `location.replace`). Every value is HTML-escaped; the redirect inside the
 * script is a JSON string with `<`, `>`, `&` and the JS line separators escaped, so no value can end the script.
 */
import type { OpenGraphData } from "./open-graph";

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

export function shortLinkPage(og: OpenGraphData, redirectUrl: string): string {
  const e = escapeHtml;
  return htmlDocument(
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
<script>location.replace(${jsStringLiteral(redirectUrl)});</script>
`,
  );
}

export function unknownLinkPage(code: string, frontendUrl: string): string {
  const e = escapeHtml;
  return htmlDocument(
    `<title>Unknown link</title>
<meta name="robots" content="noindex">
`,
    `<h1>Unknown link</h1>
<p>The link <code>${e(code)}</code> does not point to a certificate.</p>
<p><a href="${e(frontendUrl)}">Go to the certificate verifier</a></p>
`,
  );
}
