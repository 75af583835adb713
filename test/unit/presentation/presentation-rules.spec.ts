/** The presentation rules without a chain: escaping, Open Graph data and update policies (docs/api.md#short-links). */
import { expect } from "chai";
import { createHash } from "node:crypto";
import { markup, scriptString } from "../../../shared/presentation/html";
import { GENERIC_DESCRIPTION, GENERIC_TITLE, openGraphData } from "../../../shared/presentation/open-graph";
import { resolveDisplay } from "../../../shared/presentation/update-policy";

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

describe("presentation: escaping, Open Graph data, update policies", () => {
  it("escapes every interpolated value and keeps a script string one JS string", () => {
    expect(markup`${`<a href="x">'&'</a>`}`.text).to.equal("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect(markup`<p>${markup`<b>${"<i>"}</b>`}</p>`.text, "markup already built is not escaped twice").to.equal("<p><b>&lt;i&gt;</b></p>");
    const literal = scriptString(`https://x/"</script><script>alert(1)</script>\u2028`).text;
    expect(literal).to.not.contain("<").and.not.contain(">").and.not.contain("\u2028");
    expect(JSON.parse(literal)).to.equal(`https://x/"</script><script>alert(1)</script>\u2028`);
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
});
