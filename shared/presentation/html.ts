/**
 * The one way the server builds HTML (docs/web-pages.md#security): the `markup` tag escapes every interpolated value
 * unless it is already `SafeHtml` (made by `markup` or `scriptString`), and `htmlDocument` is the document around
 * every page. Certificate metadata is untrusted; it only ever enters a page through this tag, so no value can open
 * an element, an attribute or a script.
 */

export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What may be interpolated: text (escaped), numbers, SafeHtml, lists of these; null/undefined/false render nothing. */
export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** The escaping rule: safe as element text and as a quoted attribute value alike. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join("");
  return escapeHtml(String(value));
}

/** Named `markup`, not `html`: Prettier would reformat `html`-tagged templates as HTML and change their text. */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

/**
 * A JavaScript string literal for inside a <script> element: JSON with `<`, `>`, `&` and the JS line separators
 * escaped, so no value can end the script.
 */
export function scriptString(text: string): SafeHtml {
  return new SafeHtml(
    JSON.stringify(text)
      .replace(/</g, "\\u003c")
      .replace(/>/g, "\\u003e")
      .replace(/&/g, "\\u0026")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029"),
  );
}

/** An HTML document in English and UTF-8: `head` follows the charset, `body` fills <body> (each ends with a newline). */
export function htmlDocument(parts: { head: SafeHtml; body: SafeHtml; bodyAttributes?: HtmlValue }): string {
  return markup`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
${parts.head}</head>
<body${parts.bodyAttributes}>
${parts.body}</body>
</html>
`.text;
}

/** A metadata value as display text: strings as they are, anything else as its JSON. */
export function displayText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}
