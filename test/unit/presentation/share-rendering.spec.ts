/**
 * What sharing draws on the server: QR codes (the SVG's own path read back into pixels and decoded with jsqr, so a
 * run drawn one module off would fail), the badge's states, and the origin the absolute links are built from.
 */
import { expect } from "chai";
import type { IncomingMessage } from "node:http";
import jsQR from "jsqr";
import { requestOrigin } from "../../../shared/gateway/request-origin";
import { badgeSvg } from "../../../shared/presentation/badge";
import { qrCodeSvg } from "../../../shared/presentation/qr-code";

/** Paints the SVG's dark runs (`M<x> <y>h<n>v1h-<n>z`) at `scale` pixels per module and decodes the result. */
function decodeSvg(svg: string, scale = 4): string | undefined {
  const side = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
  const px = side * scale;
  const rgba = new Uint8ClampedArray(px * px * 4).fill(255);
  const dark = /<path fill="#000" d="([^"]*)"/.exec(svg)![1]!;
  for (const [, x, y, n] of dark.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g))
    for (let dy = 0; dy < scale; dy++)
      for (let dx = 0; dx < Number(n) * scale; dx++) {
        const i = ((Number(y) * scale + dy) * px + Number(x) * scale + dx) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
  return jsQR(rgba, px, px)?.data;
}

const request = (headers: Record<string, string>, encrypted = false) =>
  ({ headers, socket: encrypted ? { encrypted: true } : {} }) as unknown as IncomingMessage;

describe("sharing: QR codes, the badge, the request's origin", () => {
  it("draws a QR code that decodes to its text, with a quiet zone, labelled as an image", () => {
    for (const text of [
      "https://go.example/RXYWODQzXG?name=Ada+Lovelace",
      `web+cardano://browse/v1?uri=${encodeURIComponent("https://certs.example/")}`,
    ]) {
      const svg = qrCodeSvg(text, `QR code: ${text}`).text;
      expect(decodeSvg(svg)).to.equal(text);
      expect(svg).to.match(/^<svg class="qr-code" [^>]*role="img" aria-label="QR code: /);
      expect(svg, "the first dark module sits inside the 4-module quiet zone").to.match(/d="M4 4h7/);
    }
  });

  it("escapes a QR code's label, never its encoded text's meaning", () => {
    const text = `https://x.example/?q="><script>`;
    const svg = qrCodeSvg(text, `QR code: ${text}`).text;
    expect(svg).to.not.contain("<script>");
    expect(decodeSvg(svg)).to.equal(text);
  });

  it("says verified, not found or unavailable on the badge, with a title and no style or script", () => {
    for (const [state, words] of [
      ["verified", "verified on Cardano"],
      ["not-found", "not found"],
      ["unavailable", "unavailable"],
    ] as const) {
      const svg = badgeSvg(state);
      expect(svg).to.match(
        new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="\\d+" height="20" [^>]*data-verification="${state}">`),
      );
      expect(svg).to.contain(`<title>certificate: ${words}</title>`);
      expect(svg).to.not.match(/style|<script|href/);
    }
    expect(badgeSvg("verified")).to.contain(`fill="#0f6b2f"`);
  });

  it("builds the origin from Host, the scheme from X-Forwarded-Proto only behind trusted proxies, and refuses odd Hosts", () => {
    expect(requestOrigin(request({ host: "certs.example:8443" }), 0)).to.equal("http://certs.example:8443");
    expect(requestOrigin(request({ host: "certs.example" }, true), 0)).to.equal("https://certs.example");
    expect(requestOrigin(request({ host: "certs.example", "x-forwarded-proto": "https" }), 0), "no trusted proxy").to.equal(
      "http://certs.example",
    );
    expect(requestOrigin(request({ host: "certs.example", "x-forwarded-proto": "https, http" }), 1)).to.equal("https://certs.example");
    expect(requestOrigin(request({ host: `evil"><script>` }), 0)).to.equal("http://localhost");
  });
});
