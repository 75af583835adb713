/** The short-link page and its resolution without a chain (docs/api.md#short-links). */
import { expect } from "chai";
import { createHash } from "node:crypto";
import { loadConfig } from "../../shared/config/config";
import { shortLinkPage, unknownLinkPage } from "../../shared/short-links/short-link-page";
import { ShortLinkResolver } from "../../shared/short-links/short-link-resolver";
import { DataHash } from "../../shared/domain/hex";

const OWNER = "aa".repeat(28);
const sha = (s: string) => DataHash(createHash("sha256").update(s).digest("hex"));

describe("short links: the page and its resolution", () => {
  it("escapes the preview's metadata and keeps the redirect in its one script", () => {
    const { html: page } = shortLinkPage(
      { title: `<script>alert("t")</script>`, description: `"d"`, image: "https://i/x.png", url: "https://go/x" },
      `https://app/verify/ab?q="</script>`,
    );
    expect(page).to.not.contain(`<script>alert`);
    expect(page).to.contain("&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;");
    expect(page.match(/<script>/g)).to.have.length(1);
  });

  it("serves each page with a policy allowing exactly its inline script, by SHA-256 of the text served", () => {
    const og = { title: "t", description: "d", image: "https://i/x.png", url: "https://go/x" };
    const a = shortLinkPage(og, "/verify/ab?name=Ada");
    const script = /<script>([^<]*)<\/script>/.exec(a.html)![1]!;
    const digest = createHash("sha256").update(script, "utf8").digest("base64");
    expect(a.contentSecurityPolicy).to.equal(
      `default-src 'none'; script-src 'sha256-${digest}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(shortLinkPage(og, "/verify/ab?name=Eve").contentSecurityPolicy, "the redirect is in the script").to.not.equal(
      a.contentSecurityPolicy,
    );
    expect(unknownLinkPage("RXYWODQzXG", "/").contentSecurityPolicy).to.equal(
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it("without FRONTEND_URL redirects to the gateway's own pages on the link's origin, previews from the short links' origin", async () => {
    const hash = sha("hello");
    const resolver = new ShortLinkResolver(
      {
        byHash: async (h) =>
          h === hash ? [{ hash, issuer: OWNER, metadata: JSON.stringify({ uv_tid: "diploma", title: "BSc" }), slot: 1 }] : [],
        hashOfShortCode: async () => hash,
      },
      { frontendUrl: null, shortLinkDomain: "https://go.test/r" },
    );
    const page = await resolver.resolve("RXYWODQzXG", [["name", "Ada"]]);
    expect(page.html).to.contain(`location.replace("/verify/${hash}?name=Ada")`);
    expect(page.html).to.contain(`content="0; url=/verify/${hash}?name=Ada"`);
    expect(page.html).to.contain(`<meta property="og:image" content="https://go.test/og/diploma.png">`);
    const unknown = new ShortLinkResolver(
      { byHash: async () => [], hashOfShortCode: async () => undefined },
      { frontendUrl: null, shortLinkDomain: "https://go.test/r" },
    );
    expect((await unknown.resolve("0000000000", [])).html).to.contain(`<a href="/">Go to the certificate verifier</a>`);
    expect(loadConfig({}).frontendUrl, "FRONTEND_URL defaults to the gateway's own pages").to.equal(null);
  });
});
