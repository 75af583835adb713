/**
 * The page handler over real HTTP, in front of a stand-in for the API: which requests it takes, the security
 * headers, gzip, HEAD, immutable hashed assets, the 503 page when the verifier does not answer, and that the
 * browser code turns CIP-30 hex addresses into the bech32 the API takes.
 */
import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { addressToBech32 } from "../../web/bech32";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import type { CertificateRecord } from "../../shared/verifier/certificate-projection";
import { loadWebAssets } from "../../shared/web-pages/assets";
import { attachPageHandler, createPageHandler, PAGE_CSP, type ShortLinkAnswer } from "../../shared/web-pages/page-server";
import { OG_IMAGE_DIR } from "../../shared/web-pages/og-images";
import { OG_IMAGE_HEIGHT, OG_IMAGE_NAMES, OG_IMAGE_WIDTH, ogImageSvg } from "../../shared/presentation/og-image-svg";
import { TEMPLATES } from "../../shared/presentation/certificate-card";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { addressHex } from "./support/cip30-test-wallet";
import { TxHash } from "../../shared/domain/hex";

const HASH = "ab".repeat(32);
const KNOWN_CODE = "RXYWODQzXG";
/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (png: Buffer) => ({
  signature: png.subarray(0, 8).toString("hex"),
  width: png.readUInt32BE(16),
  height: png.readUInt32BE(20),
});
const record: CertificateRecord = {
  hash: HASH,
  address: "addr_test1vqexample",
  issuer: "aa".repeat(28),
  blockHash: "cd".repeat(32),
  blockNumber: 7,
  transactionHash: TxHash("ef".repeat(32)),
  slot: 70,
  creationTime: 1_800_000_000_000,
  metadata: JSON.stringify({ title: "Hello" }),
  bootstrapTokenName: null,
  algorithm: "SHA-256",
};

describe("web pages: the page handler over HTTP", () => {
  let server: Server;
  let base: string;
  let verifierDown = false;
  let shortCodeDown = false;
  const lookedUp: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      // The API's own answer to a malformed short-link code, which an API client keeps getting.
      if (req.url?.startsWith("/api/v1/resolve/")) {
        res.writeHead(400, { "Content-Type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ error: "INVALID_SHORT_CODE", message: "a short-link code is 10 characters of 0-9, A-Z, a-z" }));
        return;
      }
      res.writeHead(299, { "Content-Type": "text/plain" });
      res.end("api");
    });
    attachPageHandler(
      server,
      createPageHandler({
        lookup: async (hash) => {
          lookedUp.push(hash);
          if (verifierDown) throw new Error("SERVICE_NOT_AVAILABLE");
          return hash === HASH ? [record] : [];
        },
        shortCode: async () => {
          if (shortCodeDown) throw new Error("SERVICE_NOT_AVAILABLE");
          return undefined;
        },
        assets: loadWebAssets,
        network: "devnet",
        networkId: 0,
        explorerUrl: null,
        faucetEnabled: true,
        shortLinkBase: "https://go.test",
        resolveShortLink: async (code): Promise<ShortLinkAnswer> =>
          code === KNOWN_CODE
            ? {
                status: 200,
                html: "<!DOCTYPE html><title>preview</title>",
                contentSecurityPolicy: "default-src 'none'",
                headers: { "Cache-Control": "public, max-age=300" },
              }
            : { status: 404, html: "unstyled", contentSecurityPolicy: "default-src 'none'", headers: {} },
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("serves / and /verify/… with a CSP without inline script, no referrer, no caching", async () => {
    for (const path of ["/", `/verify/${HASH.toUpperCase()}`, `/verify/${HASH}/${"ef".repeat(32)}`]) {
      const res = await fetch(base + path);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get("content-type")).to.equal("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).to.equal(PAGE_CSP);
      expect(PAGE_CSP)
        .to.match(/script-src 'self';/)
        .and.not.match(/unsafe-inline|unsafe-eval/);
      expect(res.headers.get("referrer-policy")).to.equal("no-referrer");
      expect(res.headers.get("x-content-type-options")).to.equal("nosniff");
      expect(res.headers.get("cache-control")).to.equal("no-store");
      const html = await res.text();
      expect(html).to.not.match(/<script>|<script [^>]*>[^<]/); // scripts only by src
      expect(html).to.not.match(/ style=|<style/);
    }
    expect(lookedUp).to.include(HASH, "hashes are looked up in lowercase");
  });

  it("leaves /api/… and other methods to the API, and answers other paths with an HTML 404", async () => {
    expect((await fetch(`${base}/api/v1/whatever/${HASH}`)).status).to.equal(299); // a stand-in API, not a route of the document
    expect((await fetch(`${base}/api`)).status).to.equal(299);
    expect((await fetch(`${base}/`, { method: "POST" })).status).to.equal(299);
    const other = await fetch(`${base}/nothing/here`);
    expect(other.status).to.equal(404);
    expect(other.headers.get("content-type")).to.match(/^text\/html/);
  });

  it("gzips for clients that accept it, and answers HEAD without a body", async () => {
    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      import("node:http")
        .then(({ get }) =>
          get(`${base}/`, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
          }).on("error", reject),
        )
        .catch(reject);
    });
    expect(raw.encoding).to.equal("gzip");
    expect(gunzipSync(raw.body).toString()).to.contain("<!DOCTYPE html>");
    const head = await fetch(`${base}/verify/${HASH}`, { method: "HEAD" });
    expect(head.status).to.equal(200);
    expect(await head.text()).to.equal("");
  });

  it("serves the bundled scripts and stylesheet under content-hashed names, cached for good", async () => {
    const assets = await loadWebAssets();
    for (const url of [assets.urls.js, assets.urls.verifyJs, assets.urls.shareJs, assets.urls.css]) {
      expect(url).to.match(/^\/assets\/(app|verify|share)-[A-Z0-9]+\.(js|css)$/);
      const res = await fetch(base + url);
      expect(res.status).to.equal(200);
      expect(res.headers.get("cache-control")).to.equal("public, max-age=31536000, immutable");
      expect((await res.text()).length).to.be.above(1000);
    }
    for (const url of [assets.urls.js, assets.urls.verifyJs, assets.urls.shareJs]) {
      const js = await (await fetch(base + url)).text();
      expect(js, "no HTML parsing of data in the browser code").to.not.match(/innerHTML|outerHTML|insertAdjacentHTML/);
    }
    const verifyJs = assets.files.get(assets.urls.verifyJs.slice("/assets/".length));
    expect(verifyJs?.gzip.length, "the certificate page's script stays small (gzipped)").to.be.below(4000);
    const shareJs = assets.files.get(assets.urls.shareJs.slice("/assets/".length));
    expect(shareJs?.gzip.length, "the share dialog's script stays small (gzipped)").to.be.below(1500);
    expect((await fetch(`${base}/assets/app-NOPE.js`)).status).to.equal(404);
  });

  it("answers 400 for malformed addresses, 404 for unknown hashes, and 503 with Retry-After when the verifier does not answer", async () => {
    expect((await fetch(`${base}/verify/abc`)).status).to.equal(400);
    expect((await fetch(`${base}/verify/${HASH}/123`)).status).to.equal(400);
    expect((await fetch(`${base}/verify/${"00".repeat(65)}`)).status, "more than 64 bytes").to.equal(400);
    expect((await fetch(`${base}/verify/${"12".repeat(32)}`)).status).to.equal(404);
    verifierDown = true;
    try {
      const res = await fetch(`${base}/verify/${HASH}`);
      expect(res.status).to.equal(503);
      expect(res.headers.get("retry-after")).to.equal("5");
    } finally {
      verifierDown = false;
    }
    shortCodeDown = true;
    try {
      const res = await fetch(`${base}/verify/${HASH}`);
      expect(res.status, "a page without its short link when only the short code cannot be asked").to.equal(200);
      expect(await res.text()).to.not.contain("short-link");
    } finally {
      shortCodeDown = false;
    }
  });

  it("serves the badge (200 for a known and an unknown hash, cached a minute; 400 JSON when malformed; 503 when the verifier is down)", async () => {
    const known = await fetch(`${base}/badge/${HASH}.svg`);
    expect(known.status).to.equal(200);
    expect(known.headers.get("content-type")).to.equal("image/svg+xml; charset=utf-8");
    expect(known.headers.get("cache-control")).to.equal("public, max-age=60");
    expect(await known.text()).to.contain(`data-verification="verified"`);
    const unknown = await fetch(`${base}/badge/${"12".repeat(32)}.svg`);
    expect(unknown.status).to.equal(200);
    expect(await unknown.text()).to.contain(`data-verification="not-found"`);
    const head = await fetch(`${base}/badge/${HASH}.svg`, { method: "HEAD" });
    expect(head.status).to.equal(200);
    expect(await head.text()).to.equal("");
    const malformed = await fetch(`${base}/badge/xyz.svg`);
    expect(malformed.status).to.equal(400);
    expect(malformed.headers.get("content-type")).to.equal("application/json; charset=utf-8");
    expect(await malformed.json()).to.deep.equal({
      error: "INVALID_HASH",
      message: "A badge address is /badge/<hash>.svg: the hash is even-length hex of at most 128 digits.",
    });
    expect((await fetch(`${base}/badge/${HASH}`)).status, "a badge is .svg").to.equal(404);
    verifierDown = true;
    try {
      const down = await fetch(`${base}/badge/${HASH}.svg`);
      expect(down.status).to.equal(503);
      expect(down.headers.get("cache-control")).to.equal("no-store");
      expect(down.headers.get("retry-after")).to.equal("5");
      expect(await down.text()).to.contain(`data-verification="unavailable"`);
    } finally {
      verifierDown = false;
    }
  });

  it("serves the print view of an anchored hash (200), the certificate page's 404 for an unknown one, 400 when malformed, 503 when the verifier is down", async () => {
    const res = await fetch(`${base}/verify/${HASH}/print`);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-security-policy")).to.equal(PAGE_CSP);
    const html = await res.text();
    expect(html).to.contain(`data-page="print"`);
    expect(html).to.not.match(/<header|<footer|<nav/);
    expect(html).to.contain(`<dd data-field="network">Cardano devnet</dd>`);
    expect(html).to.not.match(/ style=|<style/);
    expect((await fetch(`${base}/verify/${"12".repeat(32)}/print`)).status).to.equal(404);
    expect((await fetch(`${base}/verify/abc/print`)).status).to.equal(400);
    verifierDown = true;
    try {
      expect((await fetch(`${base}/verify/${HASH}/print`)).status).to.equal(503);
    } finally {
      verifierDown = false;
    }
  });

  it("builds the share dialog's absolute links from the Host the page was reached on, ignoring X-Forwarded-Proto without trusted proxies", async () => {
    const html = await (await fetch(`${base}/verify/${HASH}`, { headers: { "X-Forwarded-Proto": "https" } })).text();
    expect(html).to.contain(`<input id="share-page-url" class="mono" value="${base}/verify/${HASH}" readonly spellcheck="false">`);
  });

  it("turns a CIP-30 wallet's hex address into the bech32 address the API takes (web/bech32.ts)", () => {
    for (const networkId of [0, 1]) {
      const w = Wallet.fromMnemonic(generateMnemonic(), { networkId });
      expect(addressToBech32(addressHex(w.address))).to.equal(w.address);
      expect(addressToBech32(addressHex(w.enterpriseAddress))).to.equal(w.enterpriseAddress);
      expect(addressToBech32(w.address), "bech32 passes through").to.equal(w.address);
    }
  });

  it("serves a 1200×630 PNG preview picture per template at /og/<template>.png, the default for any other id", async () => {
    for (const name of [...OG_IMAGE_NAMES, "Diploma", "someOtherTemplate"]) {
      const res = await fetch(`${base}/og/${name}.png`);
      expect(res.status, name).to.equal(200);
      expect(res.headers.get("content-type")).to.equal("image/png");
      const png = Buffer.from(await res.arrayBuffer());
      expect(pngSize(png), name).to.deep.equal({ signature: "89504e470d0a1a0a", width: OG_IMAGE_WIDTH, height: OG_IMAGE_HEIGHT });
    }
    const diploma = Buffer.from(await (await fetch(`${base}/og/diploma.png`)).arrayBuffer());
    const fallback = Buffer.from(await (await fetch(`${base}/og/someOtherTemplate.png`)).arrayBuffer());
    expect(diploma.equals(fallback), "a template of its own has a picture of its own").to.equal(false);
    for (const bad of ["/og/diploma.svg", "/og/../package.json", "/og/a b.png", "/og/"])
      expect((await fetch(base + bad)).status, bad).to.equal(404);
  });

  it("keeps each committed preview picture's SVG equal to what the code draws (npm run build:og-images renders them)", () => {
    expect(OG_IMAGE_NAMES).to.deep.equal(Object.keys(TEMPLATES));
    for (const name of OG_IMAGE_NAMES) {
      expect(readFileSync(join(OG_IMAGE_DIR, `${name}.svg`), "utf8"), name).to.equal(ogImageSvg(name));
      expect(pngSize(readFileSync(join(OG_IMAGE_DIR, `${name}.png`)))).to.include({ width: 1200, height: 630 });
    }
  });

  it("answers a browser's unknown or malformed short link with a styled page (404, 400), an API client's with the API", async () => {
    const html = { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    const unknown = await fetch(`${base}/api/v1/resolve/AAAAAAAAAA`, { headers: html });
    expect(unknown.status).to.equal(404);
    expect(unknown.headers.get("content-security-policy")).to.equal(PAGE_CSP);
    const unknownPage = await unknown.text();
    expect(unknownPage).to.match(/<link rel="stylesheet" href="\/assets\/app-[A-Z0-9]+\.css">/);
    expect(unknownPage).to.contain(`data-short-link="unknown"`);
    expect(unknownPage).to.contain("<h1>Unknown link</h1>");
    expect(unknownPage).to.contain(`<footer class="site">`);
    const malformed = await fetch(`${base}/api/v1/resolve/not-a-code%3Cb%3E`, { headers: html });
    expect(malformed.status).to.equal(400);
    const malformedPage = await malformed.text();
    expect(malformedPage).to.contain(`data-short-link="malformed"`);
    expect(malformedPage).to.contain("<h1>Not a short link</h1>");
    expect(malformedPage).to.not.contain("<b>");
    const known = await fetch(`${base}/api/v1/resolve/${KNOWN_CODE}`, { headers: html });
    expect(known.status, "a known code's page as the API answers it").to.equal(200);
    expect(known.headers.get("content-security-policy")).to.equal("default-src 'none'");
    expect(known.headers.get("cache-control")).to.equal("public, max-age=300");
    expect(await known.text()).to.equal("<!DOCTYPE html><title>preview</title>");
    for (const accept of ["application/json", "*/*"]) {
      const api = await fetch(`${base}/api/v1/resolve/not-a-code`, { headers: { Accept: accept } });
      expect(api.headers.get("content-type"), accept).to.match(/^application\/json/);
      expect(((await api.json()) as { error: string }).error).to.equal("INVALID_SHORT_CODE");
    }
  });
});
