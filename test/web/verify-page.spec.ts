/**
 * The certificate page as rendered on the server: templates with the fields the published client writes, revealed
 * values, the update policy (resolveDisplay, as the short links use it), escaping of every metadata key and value,
 * and the 404 / 400 pages. Pure rendering; the browser tests (pages.spec.ts) drive the same pages through HTTP.
 */
import { expect } from "chai";
import { createHash } from "node:crypto";
import type { CertificateRecord } from "../../shared/verifier/certificate-projection";
import { FOLLOW_WITHIN_MS, malformedPage, renderVerifyPage } from "../../shared/web-pages/verify-page";
import { TEMPLATES, templateNamed } from "../../shared/presentation/certificate-card";
import { DataHash, TxHash } from "../../shared/domain/hex";
import { renderHomePage } from "../../shared/web-pages/home-page";
import { TESTNET_FAUCET_URL } from "../../shared/presentation/chain-place";
import { PAGE_CONTEXT } from "./support/page-context";

const ctx = PAGE_CONTEXT;
const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const HASH = sha("student-42");
const ISSUER = "aa".repeat(28);
const STRANGER = "bb".repeat(28);

let slot = 100;
function record(metadata: Record<string, unknown> | string, issuer = ISSUER, tx = sha(`tx${slot}`)): CertificateRecord {
  slot += 10;
  return {
    hash: HASH,
    address: `addr_test1_${issuer.slice(0, 8)}`,
    issuer,
    blockHash: "cd".repeat(32),
    blockNumber: slot / 10,
    transactionHash: TxHash(tx),
    slot,
    creationTime: 1_800_000_000_000 + slot * 1000,
    metadata: typeof metadata === "string" ? metadata : JSON.stringify(metadata),
    bootstrapTokenName: "default",
    algorithm: "SHA-256",
  };
}

const render = (records: CertificateRecord[], query: Array<[string, string]> = [], txHash?: string, shortCode?: string) =>
  renderVerifyPage(ctx, {
    hash: DataHash(HASH),
    records,
    query,
    ...(txHash !== undefined ? { txHash: TxHash(txHash) } : {}),
    ...(shortCode !== undefined ? { shortCode } : {}),
  });
const bodyAttr = (html: string, name: string) => new RegExp(`<body[^>]* data-${name}="([^"]*)"`).exec(html)?.[1];
const revealedStates = (html: string) => [...html.matchAll(/data-revealed="(\w+)"/g)].map((m) => m[1]);

/** Metadata exactly as `client.apps.issueDiploma` writes it (@uverify/sdk 0.1.8). */
const diploma = (name: string) => ({
  uverify_template_id: "diploma",
  uverify_update_policy: "first",
  issuer: "University of Testing",
  uv_url_name: sha(name),
  title: "Master of Science",
  description: "This is to certify that the above-named individual has successfully completed all requirements.",
});

describe("web pages: the certificate page (server rendering)", () => {
  it("renders a diploma with the revealed name marked as matching, and the anchor's chain facts", () => {
    const r = record(diploma("Ada Lovelace"));
    const page = render([r], [["name", "Ada Lovelace"]]);
    expect(page.status).to.equal(200);
    expect(bodyAttr(page.html, "verification")).to.equal("verified");
    expect(bodyAttr(page.html, "template")).to.equal("diploma");
    expect(page.html).to.contain(`data-template="diploma"`);
    expect(page.html).to.contain("Master of Science");
    expect(page.html).to.contain("University of Testing");
    expect(page.html).to.match(
      /<dt>Awarded to<\/dt><dd class="revealed match" data-revealed="match"><span class="value">Ada Lovelace<\/span>/,
    );
    for (const fact of [r.transactionHash, r.address, r.blockHash, "SHA-256", "once", HASH]) expect(page.html).to.contain(fact);
    expect(page.html).to.contain(`2027-01-15 08:01:50 UTC`.slice(0, 4)); // a UTC time is shown
  });

  it("shows a tampered revealed value as a mismatch without echoing it", () => {
    const page = render([record(diploma("Ada Lovelace"))], [["name", "Mallory <b>"]]);
    expect(bodyAttr(page.html, "verification")).to.equal("mismatch");
    expect(revealedStates(page.html)).to.deep.equal(["mismatch"]);
    expect(page.html).to.not.contain("Mallory");
    expect(page.html).to.contain("A revealed value does not match");
  });

  it("says a revealed field is not revealed when the link leaves it out, and lists parameters the certificate does not vouch for", () => {
    const page = render([record(diploma("Ada"))], [["utm", "x"]]);
    expect(bodyAttr(page.html, "verification")).to.equal("verified");
    expect(revealedStates(page.html)).to.deep.equal(["hidden"]);
    expect(page.html).to.contain("Ignored link parameters (the certificate does not vouch for them): utm.");
  });

  it("renders the fields the published client writes for its other templates", () => {
    const dpp = render(
      [
        record({
          uverify_template_id: "digitalProductPassport",
          uverify_update_policy: "restricted",
          name: "Trail shoe",
          issuer: "Shoe Co",
          gtin: "04012345678901",
          uv_url_serial: sha("SN-1"),
          energy_class: "A",
          mat_rubber: "40%",
          cert_fair: "yes",
        }),
      ],
      [["serial", "SN-1"]],
    );
    expect(dpp.html).to.contain(`data-template="digitalProductPassport"`);
    for (const s of [
      "Trail shoe",
      "Shoe Co",
      "04012345678901",
      "<dt>Energy class</dt>",
      "<h3>Materials</h3>",
      "<dt>Rubber</dt><dd>40%</dd>",
      "<h3>Certifications</h3>",
    ])
      expect(dpp.html).to.contain(s);
    expect(dpp.html).to.match(/<dt>Serial number<\/dt><dd class="revealed match"[^>]*><span class="value">SN-1</);

    const lab = render(
      [
        record({
          uverify_template_id: "laboratoryReport",
          uverify_update_policy: "first",
          issuer: "Lab One",
          uv_url_name: sha("Pat"),
          uv_url_report_id: HASH,
          auditable: "true",
          a_glucose: "5.1 mmol/L",
        }),
      ],
      [
        ["name", "Pat"],
        ["report_id", "wrong"],
      ],
    );
    expect(lab.html).to.contain(`data-template="laboratoryReport"`);
    expect(lab.html).to.contain("<h3>Results</h3>");
    expect(lab.html).to.contain("<dt>Glucose</dt><dd>5.1 mmol/L</dd>");
    expect(revealedStates(lab.html)).to.deep.equal(["match", "mismatch"]);
    expect(bodyAttr(lab.html, "verification")).to.equal("mismatch");

    const coi = render(
      [
        record({
          uverify_template_id: "certificateOfInsurance",
          issuer: "Insurer AG",
          uv_url_insured: sha("Acme~s4lt"),
          policy_number: "P-1",
          effective_date: "2026-01-01",
          expiration_date: "2027-01-01",
          cov_general_liability: "1,000,000",
        }),
      ],
      [["insured", "Acme~s4lt"]],
    );
    expect(coi.html).to.contain(`data-template="certificateOfInsurance"`);
    expect(coi.html).to.contain("<h3>Coverages</h3>");
    expect(coi.html).to.contain("<dt>General liability</dt><dd>1,000,000</dd>");
    expect(coi.html, "the salt after the last ~ is not shown").to.match(/<span class="value">Acme<\/span>/);
  });

  it("picks the template by any of the three template keys, first character case-insensitively, else the default", () => {
    expect(templateNamed("Diploma").name).to.equal("diploma");
    expect(templateNamed("laboratoryReport").name).to.equal("laboratoryReport");
    expect(templateNamed("IdentityAuth").name).to.equal("default");
    expect(templateNamed("constructor").name, "no prototype keys").to.equal("default");
    expect(Object.keys(TEMPLATES)).to.deep.equal([
      "default",
      "diploma",
      "digitalProductPassport",
      "laboratoryReport",
      "certificateOfInsurance",
    ]);
    expect(render([record({ service_template_id: "Diploma", title: "BSc" })]).html).to.contain(`data-template="diploma"`);
    expect(render([record({ uv_tid: "diploma", title: "BSc" })]).html).to.contain(`data-template="diploma"`);
    const plain = render([record("not json at all")]);
    expect(plain.status).to.equal(200);
    expect(plain.html).to.contain(`data-template="default"`);
  });

  it("escapes every metadata key and value: no markup, attribute or script can come from a certificate", () => {
    const evil = `"><script>alert(1)</script><img src=x onerror=alert(2)>'`;
    const page = render([record({ title: evil, description: evil, [evil]: evil, uv_url_x: sha(evil) })], [["x", evil]]);
    expect(page.html).to.not.contain("<script>alert");
    expect(page.html.match(/<img[^>]*>/g), "no image but the share dialog's badge").to.deep.equal([
      `<img src="/badge/${HASH}.svg" alt="Certificate status on Cardano" height="20" loading="lazy">`,
    ]);
    expect(page.html).to.not.contain(evil);
    expect(page.html).to.not.contain(`"><script`);
    expect(page.html).to.contain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&#39;");
    expect(page.html.match(/<script[^>]*>/g), "no script but the page's own, by src").to.deep.equal([
      `<script src="/assets/verify.js" defer>`,
      `<script src="/assets/share.js" defer>`,
    ]);
  });

  it("applies the update policy as the short links do: a later stranger's anchor neither shows nor rewrites a `first` certificate", () => {
    const first = record(diploma("Ada"));
    const stranger = record({ ...diploma("Mallory"), title: "Forged" }, STRANGER);
    const page = render([first, stranger], [["name", "Ada"]]);
    expect(bodyAttr(page.html, "verification")).to.equal("verified");
    expect(page.html).to.contain("Master of Science");
    expect(page.html).to.not.contain("Forged");
    expect(page.html).to.contain("2 times");
    expect(page.html).to.contain("One other anchor is not part of this certificate under its update policy.");
    const linked = render([first, stranger], [], stranger.transactionHash);
    expect(bodyAttr(linked.html, "verification")).to.equal("foreign-anchor");
    expect(linked.html).to.not.contain("Master of Science");
    expect(linked.html).to.not.contain("Forged");
    expect(linked.html).to.contain(`data-field="anchored-by">${stranger.address}`);
    // the owner's own later anchor under `first`: the certificate as it stands, and a note naming who anchored it
    const again = record({ title: "Renamed" });
    const own = render([first, again], [], again.transactionHash);
    expect(bodyAttr(own.html, "verification")).to.equal("verified");
    expect(own.html).to.contain(
      `The linked transaction <span class="mono">${again.transactionHash}</span>, by <span class="mono">${again.address}</span>, anchored this hash again`,
    );
    expect(own.html).to.contain(`data-field="transaction">${first.transactionHash}`);
    expect(own.html).to.not.contain("Renamed");
  });

  it("never shows a stranger's anchor as the certificate's: its link gets a page naming who anchored it and the issuer, without the card", () => {
    const first = record(diploma("Ada"));
    const stranger = record({ ...diploma("Ada"), uverify_update_policy: undefined }, STRANGER);
    for (const policy of ["append", "override", "restricted"]) {
      const genuine = { ...first, metadata: JSON.stringify({ ...diploma("Ada"), uverify_update_policy: policy }) };
      const page = render([genuine, stranger], [["name", "Ada"]], stranger.transactionHash);
      expect(page.status, policy).to.equal(200);
      expect(bodyAttr(page.html, "verification"), policy).to.equal("foreign-anchor");
      expect(page.html, policy).to.not.contain("Certificate verified");
      expect(page.html, policy).to.not.contain('data-field="issuer-address"');
      expect(page.html, policy).to.not.contain('class="card');
      expect(page.html, policy).to.not.contain("Master of Science");
      expect(page.html, policy).to.contain(`data-field="anchored-by">${stranger.address}</dd>`);
      expect(page.html, policy).to.contain(`data-field="transaction">${stranger.transactionHash}</span>`);
      expect(page.html, policy).to.contain(`data-field="certificate-issuer">${first.address}</span>`);
      expect(page.html, policy).to.contain(`<a href="/verify/${HASH}">see the certificate</a>`);
    }
    // whitelisted by the owner: it speaks for the certificate
    const listed = record({ title: "Update" }, STRANGER);
    const whitelisted = render(
      [record({ title: "Original", uverify_update_policy: "whitelist", uverify_update_whitelist: STRANGER }), listed],
      [],
      listed.transactionHash,
    );
    expect(bodyAttr(whitelisted.html, "verification")).to.equal("verified");
    expect(whitelisted.html).to.contain(`data-field="issuer-address">${listed.address}</dd>`);
    // the anchor list marks a stranger's anchor as not the issuer's
    const listedOnPage = render([first, stranger].map((r) => ({ ...r, metadata: JSON.stringify({ title: "x" }) })));
    expect(listedOnPage.html).to.match(
      /by <span class="mono">addr_test1_bbbbbbbb<\/span> \(not the issuer's: does not speak for this certificate\)/,
    );
  });

  it("under `append` lists every anchor but keeps the card and its revealed values to the issuer's own anchors", () => {
    const first = record({ title: "Contract v1", uv_url_name: sha("Ada") });
    const stranger = record({ title: "Hijacked", uv_url_name: sha("Mallory") }, STRANGER);
    const own = record({ title: "Contract v2", uv_url_name: sha("Ada") });
    const page = render([first, stranger, own], [["name", "Mallory"]]);
    expect(bodyAttr(page.html, "verification")).to.equal("mismatch");
    expect(page.html).to.contain("Contract v2");
    expect(page.html).to.not.contain("Hijacked");
    expect(page.html.match(/<li[^>]*><a href="\/verify\//g)).to.have.length(3);
    const linked = render([first, stranger, own], [], own.transactionHash);
    expect(linked.html).to.contain(`data-field="transaction">${own.transactionHash}`);
  });

  it("answers a 404 page for an unknown hash or a transaction that does not anchor it", () => {
    const none = render([]);
    expect(none.status).to.equal(404);
    expect(bodyAttr(none.html, "verification")).to.equal("not-found");
    expect(none.html).to.contain(HASH);
    const wrongTx = render([record({})], [], "ef".repeat(32));
    expect(wrongTx.status).to.equal(404);
    expect(wrongTx.html).to.contain(`anchors no certificate of the hash`);
  });

  it("follows the hash on a 404 page and on a certificate recent enough to be rolled back, not on an older one", () => {
    const metaOf = (html: string, name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1];
    const following = (html: string) => ({
      script: /<script src="\/assets\/verify\.js" defer><\/script>/.test(html),
      live: html.includes(`<div id="live" class="live" aria-live="polite"></div>`),
      subjects: metaOf(html, "cert-anchor-subjects"),
      anchors: metaOf(html, "cert-anchor-anchors"),
      awaits: metaOf(html, "cert-anchor-awaits"),
    });
    expect(following(render([]).html)).to.deep.equal({ script: true, live: true, subjects: `hash:${HASH}`, anchors: "", awaits: "" });
    const anchored = record({});
    const wrongTx = "ef".repeat(32);
    expect(following(render([anchored], [], wrongTx).html), "a 404 for the link's transaction waits for that one").to.deep.equal({
      script: true,
      live: true,
      subjects: `hash:${HASH}`,
      anchors: anchored.transactionHash,
      awaits: wrongTx,
    });
    const root = sha("a batch root");
    const leaf = { ...record({}), hash: root, merkleRoot: root, leafIndex: 3, treeSize: 8 };
    expect(following(render([anchored, leaf]).html), "the roots its anchors anchor too").to.deep.include({
      script: true,
      live: true,
      subjects: `hash:${HASH} hash:${root}`,
      anchors: `${anchored.transactionHash} ${leaf.transactionHash}`,
    });
    const later = (ms: number) =>
      renderVerifyPage({ ...ctx, now: leaf.creationTime + ms }, { hash: DataHash(HASH), records: [anchored, leaf], query: [] }).html;
    expect(following(later(FOLLOW_WITHIN_MS)).script, "12 h after the newest anchor").to.equal(true);
    expect(following(later(FOLLOW_WITHIN_MS + 1)), "past it: nothing to follow").to.deep.equal({
      script: false,
      live: false,
      subjects: undefined,
      anchors: undefined,
      awaits: undefined,
    });
    const malformed = malformedPage(ctx, "no hash");
    expect(malformed.html).to.not.contain("<script");
    expect(malformed.html).to.not.contain(`id="live"`);
  });

  it("shows the short link bound to the hash, keeping only the parameters the certificate vouches for, and none without one", () => {
    const query: Array<[string, string]> = [
      ["name", "Ada Lovelace"],
      ["utm", "1"],
    ];
    const page = render([record(diploma("Ada Lovelace"))], query, undefined, "RXYWODQzXG");
    expect(page.html).to.contain(`data-field="short-link"><a href="https://go.test/RXYWODQzXG?name=Ada+Lovelace">`);
    expect(render([record(diploma("Ada Lovelace"))], query).html).to.not.contain("short-link");
  });

  it("says a hash inside a Merkle batch is a leaf of it: the leaf as the hash, its index, the batch root and a link to the proof", () => {
    const root = sha("root");
    const leafRecord = {
      ...record({ merkle: { treeId: "ab".repeat(16), leafCount: 1000 } }),
      hash: root,
      algorithm: "merkle-sha256-rfc9162",
      merkleRoot: root,
      treeId: "ab".repeat(16),
      leafIndex: 17,
      treeSize: 1000,
      proof: [sha("sibling")],
    };
    const page = render([leafRecord]);
    expect(page.status).to.equal(200);
    expect(bodyAttr(page.html, "verification")).to.equal("verified");
    expect(page.html).to.contain(`<dd class="mono" data-field="hash">${HASH}</dd>`);
    expect(page.html).to.not.contain(`data-field="hash">${root}`);
    expect(page.html).to.match(/data-field="merkle-batch">leaf <span data-field="leaf-index">17<\/span> of 1000/);
    expect(page.html).to.contain(`<dd class="mono" data-field="merkle-root">${root}</dd>`);
    expect(page.html).to.contain(`<a href="/api/v1/proof/${HASH}" data-field="proof">`);
    expect(page.html).to.contain("as a leaf of a Merkle batch");
    // the anchor history links to this hash's page, not the root's
    expect(page.html).to.contain(`href="/verify/${HASH}/${leafRecord.transactionHash}"`);

    // a certificate of the hash itself shows no batch
    const plain = render([record({})]);
    expect(plain.html).to.not.contain("merkle-batch");
    expect(plain.html).to.not.contain("Merkle batch");
  });
});

describe("web pages: where the chain is, and metadata in human words (server rendering)", () => {
  it("names the network on the certificate, 404 and 400 pages and links the transaction to the explorer on a public network", () => {
    const anchored = record({ title: "Contract" });
    const page = render([anchored]);
    expect(page.html).to.contain(`<span class="network" data-network="preview">Cardano preview testnet</span>`);
    expect(page.html).to.contain(`<dd data-field="network" data-network="preview">Cardano preview testnet</dd>`);
    expect(page.html).to.contain("This hash is anchored on Cardano preview testnet");
    expect(page.html).to.contain(
      `<a class="explorer" data-field="explorer" href="https://explorer.test/tx/${anchored.transactionHash}" rel="noopener noreferrer">view on the explorer`,
    );
    const none = render([]);
    expect(none.html).to.contain("Nothing on Cardano preview testnet anchors the hash");
    expect(none.html).to.contain(`data-network="preview"`);
    expect(malformedPage(ctx, "no hash").html).to.contain(`data-network="preview"`);

    const devnet = renderVerifyPage(
      { ...ctx, chain: { network: "devnet", explorerUrl: null, faucetEnabled: true } },
      { hash: DataHash(HASH), records: [anchored], query: [] },
    ).html;
    expect(devnet).to.contain(`<dd data-field="network" data-network="devnet">this service&#39;s private devnet</dd>`);
    expect(devnet, "no public explorer knows the devnet").to.not.contain("explorer");
  });

  it("points an unfunded wallet at the public faucet on the testnets, at the service's own on the devnet, at none on mainnet", () => {
    const home = (network: string, faucetEnabled = true) =>
      renderHomePage({ ...ctx, network, networkId: network === "mainnet" ? 1 : 0, chain: { network, explorerUrl: null, faucetEnabled } });
    const metaOf = (html: string, name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1];
    for (const network of ["preview", "preprod"]) {
      const page = home(network);
      expect(metaOf(page, "cert-anchor-faucet"), network).to.equal("page");
      expect(metaOf(page, "cert-anchor-faucet-url"), network).to.equal(TESTNET_FAUCET_URL);
      expect(page, network).to.not.contain(`id="faucet"`);
    }
    const devnet = home("devnet");
    expect(metaOf(devnet, "cert-anchor-faucet")).to.equal("service");
    expect(devnet).to.contain(`<button type="button" id="faucet">Get test ADA from this devnet's faucet</button>`);
    expect(metaOf(home("devnet", false), "cert-anchor-faucet"), "FAUCET_ENABLED=false").to.equal("");
    expect(metaOf(home("mainnet", false), "cert-anchor-faucet")).to.equal("");
    expect(metaOf(home("mainnet", false), "cert-anchor-network-label")).to.equal("Cardano mainnet");
  });

  it("shows metadata keys as labels, http(s) values as links and ISO dates as dates; other values exactly as written", () => {
    const page = render([
      record({
        title: "Contract",
        graduation_date: "2026-06-30",
        signedAt: "2026-06-30T14:05:00Z",
        homepage_url: "https://example.org/a?b=1&c=2",
        script_link: "javascript:alert(1)",
        data_link: "data:text/html,<b>x</b>",
        not_a_date: "2026-02-30",
        "Already Nice Label": "kept",
      }),
    ]).html;
    expect(page).to.contain(`<dt>Graduation date</dt><dd><time datetime="2026-06-30">30 June 2026</time></dd>`);
    expect(page).to.contain(`<dt>Signed at</dt><dd><time datetime="2026-06-30T14:05:00Z">30 June 2026, 14:05 UTC</time></dd>`);
    expect(page).to.contain(
      `<dt>Homepage URL</dt><dd><a class="external" href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">https://example.org/a?b=1&amp;c=2</a></dd>`,
    );
    expect(page, "only http(s) becomes a link").to.contain(`<dt>Script link</dt><dd>javascript:alert(1)</dd>`);
    expect(page).to.contain(`<dt>Data link</dt><dd>data:text/html,&lt;b&gt;x&lt;/b&gt;</dd>`);
    expect(page, "no such day").to.contain(`<dt>Not a date</dt><dd>2026-02-30</dd>`);
    expect(page).to.contain(`<dt>Already Nice Label</dt><dd>kept</dd>`);
    expect(page.match(/<a class="external"/g)).to.have.length(1);
  });
});
