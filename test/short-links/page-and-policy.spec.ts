/** Short-link page pieces without a chain: escaping, Open Graph rules and update policies (docs/api.md#short-links). */
import { expect } from "chai";
import { createHash } from "node:crypto";
import { markup, scriptString } from "../../shared/presentation/html";
import { shortLinkPage, unknownLinkPage } from "../../shared/short-links/short-link-page";
import { GENERIC_DESCRIPTION, GENERIC_TITLE, openGraphData } from "../../shared/presentation/open-graph";
import { resolveDisplay } from "../../shared/presentation/update-policy";
import { ShortLinkResolver } from "../../shared/short-links/short-link-resolver";
import { loadConfig } from "../../shared/config/config";

const OWNER = "aa".repeat(28);
const OTHER = "bb".repeat(28);
const FRIEND = "cc".repeat(28);
const sub = (issuer: string, m: Record<string, unknown>) => ({ issuer, metadata: JSON.stringify(m) });
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const og = (metadata: Record<string, unknown>, query: [string, string][] = []) =>
  openGraphData({
    metadata,
    rawMetadata: JSON.stringify(metadata),
    code: "RXYWODQzXG",
    query,
    frontendUrl: "https://app.test/",
    shortLinkDomain: "https://go.test",
  });

describe("short links: page, Open Graph data, update policies", () => {
  it("escapes HTML and keeps the redirect a single JS string", () => {
    expect(markup`${`<a href="x">'&'</a>`}`.text).to.equal("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    const literal = scriptString(`https://x/"</script><script>alert(1)</script>\u2028`).text;
    expect(literal).to.not.contain("<").and.not.contain(">").and.not.contain("\u2028");
    expect(JSON.parse(literal)).to.equal(`https://x/"</script><script>alert(1)</script>\u2028`);
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

  it("uses templates only with verified parameters, diploma and generic defaults otherwise", () => {
    const generic = og({});
    expect(generic).to.deep.equal({
      title: GENERIC_TITLE,
      description: GENERIC_DESCRIPTION,
      image: "https://app.test/og/default.png",
      url: "https://go.test/RXYWODQzXG",
    });

    const diploma = og({ uv_tid: "diploma", title: "BSc", name: "Ada", issuer: "Uni" });
    expect(diploma).to.include({
      title: "BSc · Ada",
      description: "Issued by Uni. Anchored on the Cardano blockchain.",
      image: "https://app.test/og/diploma.png",
    });

    const salted = "Ada Lovelace~s4lt";
    const templated = { uv_og_title: "Certificate of {name}", uv_url_name: sha(salted), uv_og_img: "https://img.test/a.png" };
    const verified = og(templated, [
      ["name", salted],
      ["other", "x"],
    ]);
    expect(verified).to.include({
      title: "Certificate of Ada Lovelace",
      image: "https://img.test/a.png",
      url: "https://go.test/RXYWODQzXG?name=Ada+Lovelace%7Es4lt",
    });
    expect(og(templated, [["name", "Mallory"]]).title, "an unverified value never reaches the page").to.equal(GENERIC_TITLE);
    expect(og({ uv_tid: "../evil" }).image).to.equal("https://app.test/og/default.png");
  });

  it("applies the update policies of the first submission and the owner's changes", () => {
    const first = sub(OWNER, { title: "v1" });
    expect(resolveDisplay([first, sub(OTHER, { title: "v2" })]).metadata).to.deep.equal({ title: "v2" }); // append
    expect(
      resolveDisplay([sub(OWNER, { title: "v1", uverify_update_policy: "first" }), sub(OWNER, { title: "v2" })]).displayed,
    ).to.have.length(1);

    const restricted = [
      sub(OWNER, { title: "v1", uverify_update_policy: "restricted" }),
      sub(OTHER, { title: "spam" }),
      sub(OWNER, { title: "v2" }),
    ];
    expect(resolveDisplay(restricted).displayed.map((s) => JSON.parse(s.metadata).title)).to.deep.equal(["v1", "v2"]);

    const whitelist = [
      sub(OWNER, { uverify_update_policy: "whitelist", uverify_update_whitelist: FRIEND }),
      sub(FRIEND, { a: 1 }),
      sub(OTHER, { a: 2 }),
    ];
    expect(resolveDisplay(whitelist).displayed).to.have.length(2);
    expect(resolveDisplay(whitelist).metadata).to.deep.equal({ a: 1 });

    const accumulate = [sub(OWNER, { uverify_update_policy: "accumulate", a: 1 }), sub(OWNER, { a: 9, b: 2 }), sub(OTHER, { c: 3 })];
    expect(resolveDisplay(accumulate).metadata).to.include({ a: 1, b: 2 }).and.not.have.property("c");

    const frozen = [
      sub(OWNER, { a: 1 }),
      sub(OWNER, { uverify_update_policy: "frozen" }),
      sub(OWNER, { uverify_update_policy: "append", a: 2 }),
    ];
    expect(resolveDisplay(frozen)).to.include({ policy: "frozen" });
    expect(resolveDisplay(frozen).displayed).to.have.length(1);

    const transferred = [
      sub(OWNER, { uverify_update_policy: "restricted" }),
      sub(OWNER, { uverify_owner: OTHER }),
      sub(OTHER, { a: "new owner" }),
    ];
    expect(resolveDisplay(transferred).metadata).to.deep.equal({ a: "new owner" });
    expect(
      resolveDisplay([
        sub(OWNER, { uverify_update_policy: "override", a: 1 }),
        sub(OTHER, { a: 2 }),
        sub(OWNER, { uverify_policy: "override" }),
      ]).metadata,
    ).to.deep.equal({ a: 2 });
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
