/**
 * `GET /resolve/{code}` over HTTP on a deployed protocol: the reference vectors resolve to real certificates,
 * metadata is escaped into the Open Graph page, unknown codes get the 404 page and malformed ones 400 JSON.
 */
import { expect } from "chai";
import { shortCodeOf } from "../../shared/domain/short-code";
import { makeCertificate } from "../../shared/protocol";
import { errorBody, http, pollUntil } from "../../fixtures/mesh/helpers";
import type { ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import type { RunningMesh } from "../../fixtures/mesh/mesh-harness";
import type { Wallet } from "../../shared/wallet";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";
import { DataHash } from "../../shared/domain/hex";

const HELLO_WORLD_SHA256 = "a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e";
const ZERO_HASH = "00".repeat(32);

describe("short links: GET /resolve/{code}", function () {
  this.timeout(120_000);
  let f: ProtocolFixture;
  let mesh: RunningMesh;
  let world: DeployedMesh;
  const get = (path: string) => http(`${mesh.api}${path}`);
  /** Anchors `hash` from the first state of `wallet`. */
  const anchor = (wallet: Wallet, hash: string, metadata: string, algorithm = "SHA-256") =>
    f.update(f.findState(f.findStateIdsOf(wallet)[0]!), wallet, [
      makeCertificate({ hash: DataHash(hash), algorithm, issuer: wallet.paymentKeyHash, metadata }),
    ]);

  before(async () => {
    world = await startDeployedMesh({
      services: ["gateway", "indexer", "verifier"],
      env: { FRONTEND_URL: "https://app.example.test", SHORT_LINK_DOMAIN: "https://go.example.test" },
    });
    ({ f, mesh } = world);
    const alice = f.actors.alice;
    await f.mintState(alice, [
      makeCertificate({
        hash: DataHash(HELLO_WORLD_SHA256),
        algorithm: "SHA-256",
        issuer: alice.paymentKeyHash,
        metadata: JSON.stringify({ uv_tid: "diploma", title: `<script>alert("x")</script>`, name: `O'Brien & "Co"`, issuer: "Uni" }),
      }),
      makeCertificate({ hash: DataHash(ZERO_HASH), algorithm: "SHA-256", issuer: alice.paymentKeyHash, metadata: "" }),
    ]);
    await pollUntil(async () => ((await get(`/verify/${ZERO_HASH}`)).status === 200 ? true : undefined), "certificates indexed");
  });
  after(() => world?.close());

  it("resolves RXYWODQzXG to the certificate of sha256('Hello World') with an escaped Open Graph page", async () => {
    const res = await get(`/resolve/RXYWODQzXG?lang=en&x=%3C%2Fscript%3E`);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^text\/html/);
    expect(res.headers.get("cache-control")).to.equal("public, max-age=300");
    const html = res.text;
    expect(html).to.contain(
      `<meta property="og:title" content="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; · O&#39;Brien &amp; &quot;Co&quot;">`,
    );
    expect(html).to.contain(`<meta property="og:description" content="Issued by Uni. Anchored on the Cardano blockchain.">`);
    expect(html).to.contain(`<meta property="og:image" content="https://app.example.test/og/diploma.png">`);
    expect(html).to.contain(`<meta property="og:url" content="https://go.example.test/RXYWODQzXG">`);
    expect(html).to.not.contain(`<script>alert`);
    expect(html).to.not.contain(`</script><`); // the query value cannot close the redirect script
    expect(html).to.contain(`location.replace("https://app.example.test/verify/${HELLO_WORLD_SHA256}?lang=en\\u0026x=%3C%2Fscript%3E")`);
    expect(html).to.contain(`content="0; url=https://app.example.test/verify/${HELLO_WORLD_SHA256}?lang=en&amp;x=%3C%2Fscript%3E"`);
  });

  it("resolves the all-zero hash from 0000000000, generic Open Graph data for empty metadata", async () => {
    const res = await get("/resolve/0000000000");
    expect(res.status).to.equal(200);
    expect(res.text).to.contain(`<title>Blockchain-verified certificate</title>`);
    expect(res.text).to.contain(`/verify/${ZERO_HASH}`);
    expect((await get("/resolve/0000000000")).status, "a second request answers the same").to.equal(200);
  });

  it("keeps a code bound to the first hash anchored with it: a crafted hash sharing its prefix cannot take the link over", async () => {
    const victim = "7a".repeat(8) + "11".repeat(24);
    const code = shortCodeOf(victim);
    const bob = f.actors.bob;
    await anchor(f.actors.alice, victim, JSON.stringify({ uv_og_title: "Alice's diploma" }));
    await pollUntil(async () => ((await get(`/resolve/${code}`)).status === 200 ? true : undefined), "victim link resolves");
    // Bob anchors the bare 8-byte prefix (it sorts first) and a full-length hash with the same first 8 bytes.
    const crafted = ["7a".repeat(8), "7a".repeat(8) + "00".repeat(24)];
    expect(crafted.map(shortCodeOf)).to.deep.equal([code, code]);
    await f.mintState(
      bob,
      crafted.map((hash) =>
        makeCertificate({
          hash: DataHash(hash),
          algorithm: "SHA-256",
          issuer: bob.paymentKeyHash,
          metadata: JSON.stringify({ uv_og_title: "Bob's" }),
        }),
      ),
    );
    await pollUntil(async () => ((await get(`/verify/${crafted[1]}`)).status === 200 ? true : undefined), "bob's hashes indexed");
    const res = await get(`/resolve/${code}`);
    expect(res.text).to.contain(`/verify/${victim}`);
    expect(res.text).to.contain("Alice&#39;s diploma");
    expect(res.text).to.not.contain("Bob&#39;s");
  });

  it("gives no short link to a hash shorter than 16 bytes", async () => {
    const short = "6b".repeat(15);
    await anchor(f.actors.alice, short, "{}", "custom");
    await pollUntil(async () => ((await get(`/verify/${short}`)).status === 200 ? true : undefined), "short hash indexed");
    expect((await get(`/resolve/${shortCodeOf(short)}`)).status).to.equal(404);
  });

  it("draws the preview only from anchors the update policy authorises: a stranger re-anchoring the hash does not rewrite it", async () => {
    const hash = "3c".repeat(32);
    await anchor(f.actors.alice, hash, JSON.stringify({ uv_og_title: "Genuine title" }));
    await anchor(f.actors.bob, hash, JSON.stringify({ uv_og_title: "Forged title" }));
    await pollUntil(
      async () => (((await get(`/verify/${hash}`)).json as unknown[] | undefined)?.length === 2 ? true : undefined),
      "both anchors indexed",
    );
    const res = await get(`/resolve/${shortCodeOf(hash)}`);
    expect(res.status).to.equal(200);
    expect(res.text).to.contain(`content="Genuine title"`);
    expect(res.text).to.not.contain("Forged title");
  });

  it("answers 404 for a link whose certificate was rolled back, and 200 again once it is re-included", async () => {
    const hash = "5e".repeat(32);
    await anchor(f.actors.alice, hash, "{}");
    const code = shortCodeOf(hash);
    await pollUntil(async () => ((await get(`/resolve/${code}`)).status === 200 ? true : undefined), "link resolves");
    f.chain.devnet.rollback(1);
    await pollUntil(async () => ((await get(`/resolve/${code}`)).status === 404 ? true : undefined), "link gone after the rollback");
    f.chain.devnet.produceBlock();
    await pollUntil(async () => ((await get(`/resolve/${code}`)).status === 200 ? true : undefined), "link back");
  });

  it("answers a well-formed unknown code with the 404 HTML page and a malformed one with 400 JSON", async () => {
    const unknown = await get("/resolve/61kgLIX6vE");
    expect(unknown.status).to.equal(404);
    expect(unknown.headers.get("content-type")).to.match(/^text\/html/);
    expect(unknown.text).to.contain("does not point to a certificate");
    for (const code of ["short", "RXYWODQzX!", "zzzzzzzzzz", "RXYWODQzXGX"]) {
      const res = await get(`/resolve/${encodeURIComponent(code)}`);
      expect(res.status, code).to.equal(400);
      expect(errorBody(res).error, code).to.equal("INVALID_SHORT_CODE");
    }
  });
});
