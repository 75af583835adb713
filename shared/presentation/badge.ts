/**
 * The embeddable verification badge `GET /badge/{hash}.svg` (docs/web-pages.md#sharing): a small SVG in the style of
 * README badges saying whether the hash is anchored. Its words are fixed by the state (never taken from metadata) and
 * still go through the `markup` tag; no style element or attribute, no script, no external reference, so it renders
 * the same as an `<img>` anywhere.
 */
import { markup } from "./html";

export type BadgeState = "verified" | "not-found" | "unavailable";

const MESSAGES: Readonly<Record<BadgeState, { text: string; color: string }>> = {
  verified: { text: "verified on Cardano", color: "#0f6b2f" },
  "not-found": { text: "not found", color: "#4d5763" },
  unavailable: { text: "unavailable", color: "#4d5763" },
};
const LABEL = "certificate";

/** Width of a text in 11 px Verdana, near enough for a badge (its text is then fitted to it with `textLength`). */
const textWidth = (text: string) =>
  [...text].reduce((w, c) => w + (c === " " ? 3.9 : /[mw]/.test(c) ? 10.5 : /[ilj.]/.test(c) ? 3.5 : 6.9), 0);

/** The badge of a certificate's state, a standalone SVG document. */
export function badgeSvg(state: BadgeState): string {
  const message = MESSAGES[state];
  const labelWidth = Math.round(textWidth(LABEL)) + 12;
  const messageWidth = Math.round(textWidth(message.text)) + 12;
  const width = labelWidth + messageWidth;
  const title = `${LABEL}: ${message.text}`;
  return markup`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-label="${title}" data-verification="${state}">
<title>${title}</title>
<rect width="${width}" height="20" rx="3" fill="#1b1f24"/>
<rect x="${labelWidth}" width="${messageWidth}" height="20" rx="3" fill="${message.color}"/>
<rect x="${labelWidth}" width="4" height="20" fill="${message.color}"/>
<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
<text x="${labelWidth / 2}" y="14" textLength="${labelWidth - 12}">${LABEL}</text>
<text x="${labelWidth + messageWidth / 2}" y="14" textLength="${messageWidth - 12}">${message.text}</text>
</g>
</svg>
`.text;
}
