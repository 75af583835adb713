/**
 * HTTP caching of verify answers when a hash is also anchored inside a Merkle batch (docs/api.md#caching): the
 * batch root's certificate does not name the hash, so the gateway must not keep answering 304 for the answer it
 * remembered before the batch (nor the whole answer); the answer with the batch record has its own ETag and is
 * cacheable in turn.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { IssuanceWorld, type BuildBody } from "../../fixtures/issuance/issuance-world";

describe("HTTP caching of verify answers with Merkle-batch records", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  const get = (path: string, headers: Record<string, string> = {}) => http(`${w.mesh.api}${path}`, { headers });
  const etagOf = (res: HttpResult) => res.headers.get("etag") ?? "";

  before(async () => {
    w = await IssuanceWorld.create();
    await w.mintDefaultBootstrap();
    await w.ensureCollateral(w.f.actors.alice);
  });
  after(() => w?.close());

  it("stops answering 304 for a hash once a batch holding it is confirmed, and validates the new answer", async () => {
    const alice = w.f.actors.alice;
    const hash = randomBytes(32).toString("hex");
    await w.issue({ type: "default", address: alice.address, certificates: [{ hash, metadata: { uv_tid: "diploma" } }] }, [alice]);
    const direct = await pollUntil(async () => {
      const res = await get(`/verify/${hash}`);
      return res.status === 200 ? res : undefined;
    }, "the direct certificate");
    const before = etagOf(direct);
    expect((await get(`/verify/${hash}`, { "If-None-Match": before })).status).to.equal(304);
    await w.mesh.broker.call("gateway.sync");
    await get(`/verify/${hash}`); // remembered whole by the gateway
    expect((await get(`/verify/${hash}`)).json).to.have.length(1);

    const built = await postJson(`${w.mesh.api}/batch/build`, { address: alice.address, hashes: [hash, randomBytes(32).toString("hex")] });
    expect(built.status, built.text).to.equal(200);
    const txId = await w.signAndSubmit((built.json as BuildBody).unsignedTransaction!, [alice]);
    await w.confirm(txId);
    await pollUntil(async () => ((await get(`/transaction/confirm/${txId}`)).status === 200 ? true : undefined), "batch confirmed");

    // The whole answer the gateway remembered does not survive the batch either.
    expect((await get(`/verify/${hash}`)).json).to.have.length(2);
    const after = await get(`/verify/${hash}`, { "If-None-Match": before });
    expect(after.status).to.equal(200);
    const records = after.json as { merkleRoot?: string }[];
    expect(records).to.have.length(2);
    expect(records[1]!.merkleRoot).to.be.a("string");
    expect(etagOf(after))
      .to.match(/^"[^"]+"$/)
      .and.not.equal(before);
    expect((await get(`/verify/${hash}`, { "If-None-Match": etagOf(after) })).status).to.equal(304);
  });
});
