/**
 * The link-preview pictures (`og:image`, docs/web-pages.md#preview-images): one 1200×630 drawing per certificate
 * template, the size link previews expect. Drawn as SVG here; `npm run build:og-images` (scripts/build-og-images.ts)
 * renders each to `web/og/<template>.png` once, offline, and the PNGs are committed beside their SVG — the service
 * only serves files. The pictures name the kind of certificate, never a certificate's data: one picture per
 * template serves every certificate of it.
 */
import { markup } from "./html";
import { TEMPLATES } from "./certificate-card";

export const OG_IMAGE_WIDTH = 1200;
export const OG_IMAGE_HEIGHT = 630;

/** Colours per template, background and footer band (dark enough for white text at 4.5:1); others use the default's. */
const PALETTE: Readonly<Record<string, { from: string; to: string }>> = {
  default: { from: "#0b3d75", to: "#0b5cad" },
  diploma: { from: "#4a1f6b", to: "#6d2f9c" },
  digitalProductPassport: { from: "#0d4d3a", to: "#0f6b4f" },
  laboratoryReport: { from: "#0c4a5c", to: "#0f6a82" },
  certificateOfInsurance: { from: "#5a2b0c", to: "#8a4210" },
};

/** The names of the pictures: every template's, `default` first. */
export const OG_IMAGE_NAMES: readonly string[] = Object.keys(TEMPLATES);

/** The SVG of a template's preview picture. */
export function ogImageSvg(template: string): string {
  const spec = TEMPLATES[template] ?? TEMPLATES["default"]!;
  const colours = PALETTE[template] ?? PALETTE["default"]!;
  const kicker = template === "default" ? "Certificate" : spec.kicker;
  return markup`<svg xmlns="http://www.w3.org/2000/svg" width="${OG_IMAGE_WIDTH}" height="${OG_IMAGE_HEIGHT}" viewBox="0 0 ${OG_IMAGE_WIDTH} ${OG_IMAGE_HEIGHT}">
<rect width="1200" height="630" fill="${colours.from}"/>
<rect x="0" y="560" width="1200" height="70" fill="${colours.to}"/>
<rect x="48" y="48" width="1104" height="464" rx="28" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="3"/>
<g transform="translate(1020 160)">
<circle r="84" fill="#ffffff" fill-opacity="0.12"/>
<circle r="62" fill="none" stroke="#ffffff" stroke-width="8"/>
<path d="M-28 2 L-8 24 L32 -22" fill="none" stroke="#ffffff" stroke-width="13" stroke-linecap="round" stroke-linejoin="round"/>
</g>
<g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" fill="#ffffff">
<text x="110" y="170" font-size="34" font-weight="700" letter-spacing="4">${kicker.toUpperCase()}</text>
<text x="110" y="300" font-size="60" font-weight="700">Verified on</text>
<text x="110" y="375" font-size="60" font-weight="700">the Cardano blockchain</text>
<text x="110" y="450" font-size="30">Open the link to check the original document.</text>
<text x="110" y="606" font-size="28" font-weight="700">cert-anchor</text>
</g>
</svg>
`.text;
}
