/**
 * Safe HTML building for the web pages: the `markup` tag escapes every interpolated value unless it is already
 * `SafeHtml` (made by `markup` itself). Certificate metadata is untrusted; it only ever enters a page through this
 * tag, so no value can open an element, an attribute or a script (docs/web-pages.md#security).
 */
import { escapeHtml } from "../short-links/html-page";

export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What may be interpolated: text (escaped), numbers, SafeHtml, lists of these; null/undefined/false render nothing. */
export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

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

/** A metadata value as display text: strings as they are, anything else as its JSON. */
export function displayText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}
