/**
 * What a build writes on chain and the certificate pages show must be printable, over HTTP against the tx-builder
 * on a deployed devnet: certificate algorithms and metadata, bootstrap names and batch metadata holding a control
 * character or a lone surrogate are refused with 400 naming the field, and so is an identity record that would be
 * anchored and never read (an IdentityAuth AUTH without its credential type, a REVOKE without its hash).
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { errorBody, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";

type Json = Record<string, unknown>;

describe("issuance: text that goes on chain is printable, identity records are whole", function () {
  this.timeout(120_000);
  let world: DeployedMesh;

  before(async () => {
    world = await startDeployedMesh({ services: ["gateway", "indexer", "tx-builder"] });
  });
  after(() => world?.close());

  const hash = () => randomBytes(32).toString("hex");
  const build = (certificate: Json, extra: Json = {}) =>
    postJson(`${world.mesh.api}/transaction/build`, {
      type: "default",
      address: world.f.actors.alice.address,
      certificates: [{ hash: hash(), ...certificate }],
      ...extra,
    });
  /** A 400 build refusal (`ERROR`) whose message names `field`. */
  const refusedNaming = (res: HttpResult, field: string, detail?: RegExp) => {
    expect(res.status, res.text).to.equal(400);
    const body = errorBody(res);
    expect(body.error).to.equal("ERROR");
    expect((body as { status?: { code?: string } }).status?.code).to.equal("ERROR");
    expect(body.message).to.contain(field);
    if (detail) expect(body.message).to.match(detail);
  };
  /** The build got past the request's checks: built, or stopped by what the wallet lacks. */
  const acceptedRequest = (res: HttpResult) => {
    const status = (res.json as { status?: { code?: string } }).status;
    expect(["SUCCESS", "COLLATERAL_REQUIRED", "INSUFFICIENT_FUNDS"], res.text).to.include(status?.code);
  };

  it("refuses an algorithm that is empty, blank or holds a control character; requires none for a 32-byte hash", async () => {
    refusedNaming(await build({ algorithm: "" }), "certificates[0].algorithm", /non-empty/);
    refusedNaming(await build({ algorithm: "   " }), "certificates[0].algorithm", /non-empty/);
    refusedNaming(await build({ algorithm: "SHA-256\u0000" }), "certificates[0].algorithm", /U\+0000 at character 8/);
    refusedNaming(await build({ algorithm: "\u001b[2JSHA" }), "certificates[0].algorithm", /U\+001B/);
    refusedNaming(await build({ algorithm: "SHA\u0085" }), "certificates[0].algorithm", /U\+0085/);
    acceptedRequest(await build({}));
    acceptedRequest(await build({ algorithm: "SHA3-256" }));
  });

  it("refuses metadata whose keys or string values hold control characters or lone surrogates, naming the path", async () => {
    refusedNaming(await build({ metadata: { name: "Ada\u001b[31m" } }), "certificates[0].metadata.name", /U\+001B/);
    refusedNaming(await build({ metadata: { tags: ["ok", "bad\u007f"] } }), "certificates[0].metadata.tags[1]", /U\+007F/);
    refusedNaming(
      await build({ metadata: { "k\u0000": 1 } }),
      "certificates[0].metadata",
      /has a key that holds the control character U\+0000/,
    );
    refusedNaming(await build({ metadata: JSON.stringify({ name: "half \ud800" }) }), "certificates[0].metadata.name", /lone surrogate/);
    refusedNaming(await build({ metadata: "free text\nwith a line break" }), "certificates[0].metadata", /U\+000A/);
    // JSON text may put line breaks between its tokens; "" is no metadata
    acceptedRequest(await build({ metadata: '{\n  "name": "Ada"\n}' }));
    acceptedRequest(await build({ metadata: "" }));
  });

  it("refuses a bootstrap name holding a control character", async () => {
    const res = await postJson(`${world.mesh.api}/transaction/build`, {
      type: "custom",
      address: world.f.actors.alice.address,
      certificates: [{ hash: hash() }],
      bootstrapDatum: { name: "default\u0007" },
    });
    refusedNaming(res, "bootstrapDatum.name", /U\+0007/);
  });

  it("refuses an IdentityAuth AUTH without its credential type and a REVOKE without the hash it revokes", async () => {
    const auth = await build({ metadata: { uv_tid: "IdentityAuth", t: "AUTH", i: "EKeriAid" } });
    refusedNaming(auth, "certificates[0].metadata", /without its credential type: add "ct"/);
    const blank = await build({ metadata: { uv_tid: "IdentityAuth", t: "AUTH", ct: "" } });
    refusedNaming(blank, "certificates[0].metadata", /"ct"/);
    const revoke = await build({ metadata: { uv_tid: "IdentityAuth", t: "REVOKE", th: "not hex" } });
    refusedNaming(revoke, "certificates[0].metadata", /without the hash it revokes: add "th"/);
    acceptedRequest(await build({ metadata: { uv_tid: "IdentityAuth", t: "AUTH", ct: "KYC" } }));
    acceptedRequest(await build({ metadata: { uv_tid: "IdentityAuth", t: "REVOKE", th: hash() } }));
  });

  it("refuses batch metadata holding a control character", async () => {
    const res = await postJson(`${world.mesh.api}/batch/build`, {
      address: world.f.actors.alice.address,
      hashes: [hash()],
      metadata: { uv_tid: "archive", title: "Q3\u0000" },
    });
    refusedNaming(res, "metadata.title", /U\+0000/);
  });
});
