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
import { attachPageHandler, createPageHandler, PAGE_CSP } from "../../shared/web-pages/page-server";
import { addressHex } from "./support/cip30-test-wallet";
import { TxHash } from "../../shared/domain/hex";

const HASH = "ab".repeat(32);
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
    server = createServer((_req, res) => {
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
        shortLinkBase: "https://go.test",
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
});
