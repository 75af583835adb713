/**
 * QR codes as inline SVG, drawn on the server from the modules `qrcode` computes (no third-party service, no script
 * in the page): one path of dark runs on a white square with the 4-module quiet zone scanners need. Error correction
 * M (15 %) keeps a short link's code small (version 3 or 4) while a smudged print still scans.
 */
import { create } from "qrcode";
import { markup, type SafeHtml } from "./html";

const QUIET_ZONE = 4;

/** The QR code of `text` as an `<svg>` element labelled `label` (an image, for assistive technology). */
export function qrCodeSvg(text: string, label: string, cssClass = "qr-code"): SafeHtml {
  const { modules } = create(text, { errorCorrectionLevel: "M" });
  const size = modules.size;
  const runs: string[] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (modules.get(row, col) === 0) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && modules.get(row, col) !== 0) col++;
      runs.push(`M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${col - start}v1h-${col - start}z`);
    }
  }
  const side = size + 2 * QUIET_ZONE;
  return markup`<svg class="${cssClass}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" role="img" aria-label="${label}" shape-rendering="crispEdges"><path fill="#fff" d="M0 0h${side}v${side}H0z"/><path fill="#000" d="${runs.join("")}"/></svg>`;
}
