/**
 * HTTP caching of the read routes (docs/api.md#caching), through real HTTP on the embedded mesh with the devnet:
 * certificates issued by a wallet, indexed, verified; validators, freshness, 304 answers, and what a second anchor
 * and a rollback do to them.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import type { Service } from "moleculer";
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { createStore, type Store } from "../../shared/store";
import { http, pollUntil, type HttpResult } from "../../fixtures/mesh/helpers";
import { makeCertificate, type OnchainCertificate } from "../../shared/protocol";
import type { Wallet } from "../../shared/wallet";
import { defaultBootstrap, ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { certificateEtag, RECENT_MAX_AGE_S } from "../../shared/gateway/read-caching";
import type { AnswerCacheStats } from "../../shared/gateway/validator-cache";
import { DataHash } from "../../shared/domain/hex";

function certificatesFor(issuer: Wallet, count: number): OnchainCertificate[] {
  return Array.from({ length: count }, (_, i) =>
    makeCertificate({
      hash: DataHash(randomBytes(32).toString("hex")),
      algorithm: "SHA-256",
      issuer: issuer.paymentKeyHash,
      metadata: JSON.stringify({ uv_tid: "diploma", n: i }),
    }),
  );
}

const STRONG_ETAG = /^"[^"]+"$/;

describe("HTTP caching of verify and lookup answers: ETag, Cache-Control, 304", function () {
  this.timeout(120_000);
  let f: ProtocolFixture;
  let server: DevnetServer;
  let store: Store;
  let mesh: RunningMesh;

  const get = (path: string, headers: Record<string, string> = {}) => http(`${mesh.api}${path}`, { headers });
  const verified = (hash: string, count: number) =>
    pollUntil(async () => {
      const res = await get(`/verify/${hash}`);
      return res.status === 200 && (res.json as unknown[]).length === count ? res : undefined;
    }, `${count} record(s) for ${hash}`);
  const etagOf = (res: HttpResult) => res.headers.get("etag") ?? "";
  const cacheStats = () => mesh.broker.call<AnswerCacheStats, Record<string, never>>("gateway.answerCacheStats", {});

  before(async () => {
    f = await ProtocolFixture.create("shipped");
    await f.mintBootstrap(defaultBootstrap(f.actors));
    server = await startDevnetServer(f.chain.devnet, { port: 0 });
    store = await createStore({ inMemory: true });
    mesh = await startMesh({
      services: ["gateway", "indexer", "verifier", "submitter"],
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
      env: {
        PROXY_TX_HASH: f.oneShot.transaction.id,
        PROXY_OUTPUT_INDEX: String(f.oneShot.index),
        SERVICE_KEY_HASH: f.actors.service.paymentKeyHash,
      },
      now: () => f.chain.now(),
    });
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    await server?.close();
    await f?.chain.devnet.close();
  });

  let certs: OnchainCertificate[];
  let txId: string;

  it("gives a verify answer a strong ETag and a short max-age while its anchor may still be rolled back", async () => {
    certs = certificatesFor(f.actors.alice, 2);
    txId = (await f.mintState(f.actors.alice, certs)).utxo.transaction.id;
    const res = await verified(certs[0]!.hash, 1);
    expect(etagOf(res)).to.match(STRONG_ETAG);
    expect(res.headers.get("cache-control")).to.equal(`public, max-age=${RECENT_MAX_AGE_S}`);

    const one = await get(`/verify/by-transaction-hash/${txId}/${certs[1]!.hash}`);
    expect(one.status).to.equal(200);
    expect(etagOf(one)).to.match(STRONG_ETAG);
    expect(etagOf(one)).to.not.equal(etagOf(res));
    expect(one.headers.get("cache-control")).to.equal(`public, max-age=${RECENT_MAX_AGE_S}`);
  });

  it("answers 304 without a body to If-None-Match naming the current ETag, for GET and HEAD, and 200 otherwise", async () => {
    const res = await get(`/verify/${certs[0]!.hash}`);
    const etag = etagOf(res);
    for (const method of ["GET", "HEAD"]) {
      const again = await http(`${mesh.api}/verify/${certs[0]!.hash.toUpperCase()}`, { method, headers: { "If-None-Match": etag } });
      expect(again.status, method).to.equal(304);
      expect(again.text, method).to.equal("");
      expect(etagOf(again), method).to.equal(etag);
      expect(again.headers.get("cache-control"), method).to.equal(`public, max-age=${RECENT_MAX_AGE_S}`);
    }
    expect((await get(`/verify/${certs[0]!.hash}`, { "If-None-Match": `W/${etag}, "other"` })).status).to.equal(304);
    const stale = await get(`/verify/${certs[0]!.hash}`, { "If-None-Match": '"c1.not-this-one"' });
    expect(stale.status).to.equal(200);
    expect(stale.json).to.have.length(1);

    const path = `/verify/by-transaction-hash/${txId}/${certs[1]!.hash}`;
    const one = await get(path);
    expect((await get(path, { "If-None-Match": etagOf(one) })).status).to.equal(304);
  });

  it("serves a repeated verify from the gateway's memory with the same bytes and headers, for GET and HEAD", async () => {
    await mesh.broker.call("gateway.sync");
    const path = `/verify/${certs[0]!.hash}`;
    const first = await get(path);
    const before = await cacheStats();
    const again = await get(path.toUpperCase().replace("/VERIFY/", "/verify/"), { Origin: "https://app.example", "X-Request-ID": "r-1" });
    const after = await cacheStats();
    expect(after.hits - before.hits, "answered from memory").to.equal(1);
    expect(again.status).to.equal(200);
    expect(again.text).to.equal(first.text);
    expect(etagOf(again)).to.equal(etagOf(first));
    for (const header of ["content-type", "content-length", "cache-control"]) {
      expect(again.headers.get(header), header).to.equal(first.headers.get(header));
    }
    expect(again.headers.get("x-request-id")).to.equal("r-1");
    expect(again.headers.get("access-control-allow-origin")).to.equal("*");
    expect(again.headers.get("access-control-expose-headers")).to.include("ETag");
    const head = await http(`${mesh.api}${path}`, { method: "HEAD" });
    expect(head.status).to.equal(200);
    expect(head.text).to.equal("");
    expect(head.headers.get("content-length")).to.equal(first.headers.get("content-length"));
    expect((await cacheStats()).hits - after.hits).to.equal(1);
    expect((await cacheStats()).maxBodyBytes).to.be.greaterThan(0);
  });

  it("never lets a not-found answer be stored, and gives it no validator", async () => {
    const missing = randomBytes(32).toString("hex");
    for (const path of [`/verify/${missing}`, `/verify/by-transaction-hash/${txId}/${missing}`]) {
      const res = await get(path, { "If-None-Match": "*" });
      expect(res.status, path).to.equal(404);
      expect(res.headers.get("cache-control"), path).to.equal("no-store");
      expect(res.headers.get("etag"), path).to.equal(null);
    }
  });

  it("changes the ETag when the same hash is anchored again, so the old one answers the new list as soon as confirm says 200", async () => {
    const before = await get(`/verify/${certs[0]!.hash}`);
    const state = f.findState(f.findStateIdsOf(f.actors.alice)[0]!);
    const again = await f.update(state, f.actors.alice, [certs[0]!]);
    // Read-your-writes: once confirm answers 200, the old ETag no longer answers 304 (no polling of verify).
    await pollUntil(async () => ((await get(`/transaction/confirm/${again.txId}`)).status === 200 ? true : undefined), "confirmed");
    // The whole answer the gateway remembered is gone too: the next plain GET has both records.
    const plain = await get(`/verify/${certs[0]!.hash}`);
    expect(plain.status).to.equal(200);
    expect(plain.json).to.have.length(2);
    const first = await get(`/verify/${certs[0]!.hash}`, { "If-None-Match": etagOf(before) });
    expect(first.status).to.equal(200);
    expect(first.json).to.have.length(2);
    const after = await verified(certs[0]!.hash, 2);
    expect(etagOf(after)).to.match(STRONG_ETAG).and.not.equal(etagOf(before));
    const conditional = await get(`/verify/${certs[0]!.hash}`, { "If-None-Match": etagOf(before) });
    expect(conditional.status).to.equal(200);
    expect(conditional.json).to.have.length(2);
    expect(etagOf(conditional)).to.equal(etagOf(after));
  });

  it("follows a rollback: the old ETag answers 404 while the certificate is gone, then the ETag of where it is again", async () => {
    const bobs = certificatesFor(f.actors.bob, 1);
    await f.mintState(f.actors.bob, bobs);
    const first = await verified(bobs[0]!.hash, 1);
    const etag = etagOf(first);
    expect((await get(`/verify/${bobs[0]!.hash}`, { "If-None-Match": etag })).status).to.equal(304);
    const hits = (await cacheStats()).hits;
    expect((await get(`/verify/${bobs[0]!.hash}`)).text).to.equal(first.text);
    expect((await cacheStats()).hits, "the whole answer came from memory").to.equal(hits + 1);

    f.chain.devnet.rollback(1);
    // Once the verifier has applied the rollback and the gateway has read the log as far, the remembered answer is
    // never served again: 404 at once, without polling the gateway.
    await pollUntil(async () => {
      await mesh.broker.call("verifier.sync");
      try {
        await mesh.broker.call("verifier.byHash", { hash: bobs[0]!.hash });
        return undefined;
      } catch {
        return true;
      }
    }, "the verifier applied the rollback");
    await mesh.broker.call("gateway.sync");
    const plainGone = await get(`/verify/${bobs[0]!.hash}`);
    expect(plainGone.status).to.equal(404);
    expect(plainGone.headers.get("cache-control")).to.equal("no-store");
    const gone = await pollUntil(async () => {
      const res = await get(`/verify/${bobs[0]!.hash}`, { "If-None-Match": etag });
      return res.status === 404 ? res : undefined;
    }, "the rolled-back certificate no longer answered 304");
    expect(gone.headers.get("cache-control")).to.equal("no-store");

    // The rolled-back transaction went back to the mempool and is confirmed again; its ETag names the block that
    // now holds it (the devnet may rebuild the very same block: then the same ETag is right again).
    f.chain.devnet.produceBlock();
    const back = await verified(bobs[0]!.hash, 1);
    const [record] = back.json as { blockHash: string; transactionHash: string }[];
    expect(etagOf(back)).to.equal(certificateEtag({ blockHash: record!.blockHash, transactionHash: record!.transactionHash, position: 0 }));
    expect((await get(`/verify/${bobs[0]!.hash}`, { "If-None-Match": etagOf(back) })).status).to.equal(304);
  });

  it("gives lookup answers an ETag of their content and answers 304 when it still matches", async () => {
    const path = `/scripts/${f.scripts.state.hash}`;
    const res = await pollUntil(async () => {
      const r = await get(path);
      return r.status === 200 ? r : undefined;
    }, "the state script recorded");
    expect(etagOf(res)).to.match(STRONG_ETAG);
    expect(res.headers.get("cache-control")).to.equal(`public, max-age=${RECENT_MAX_AGE_S}`);
    const again = await get(path, { "If-None-Match": etagOf(res) });
    expect(again.status).to.equal(304);
    expect(again.text).to.equal("");
    const redeemers = await get(`/txs/${txId}/redeemers`);
    expect(redeemers.status).to.equal(200);
    expect((await get(`/txs/${txId}/redeemers`, { "If-None-Match": etagOf(redeemers) })).status).to.equal(304);
    const unknown = await get(`/scripts/${"ab".repeat(28)}`);
    expect(unknown.status).to.equal(404);
    expect(unknown.headers.get("cache-control")).to.equal("no-store");
  });

  it("answers a verify from the gateway's memory, without the verifier or its store", async () => {
    await mesh.broker.call("verifier.sync");
    await mesh.broker.call("gateway.sync");
    const res = await get(`/verify/${certs[0]!.hash}`);
    expect(res.status).to.equal(200);
    const unread = await pollUntil(async () => {
      const hash = certs[1]!.hash;
      return (await mesh.broker.call<unknown[], { hash: string }>("verifier.byHash", { hash })).length > 0 ? hash : undefined;
    }, "a certificate the gateway has not answered yet");
    await mesh.broker.destroyService(mesh.broker.getLocalService("verifier") as Service);
    const conditional = await get(`/verify/${certs[0]!.hash}`, { "If-None-Match": etagOf(res), Origin: "https://app.example" });
    expect(conditional.status).to.equal(304);
    expect(etagOf(conditional)).to.equal(etagOf(res));
    expect(conditional.headers.get("access-control-allow-origin")).to.equal("*");
    expect(conditional.headers.get("access-control-expose-headers")).to.include("ETag");
    // The whole answer too.
    const plain = await get(`/verify/${certs[0]!.hash}`);
    expect(plain.status).to.equal(200);
    expect(plain.text).to.equal(res.text);
    // An answer the gateway never gave needs the verifier, which is gone.
    expect((await get(`/verify/${unread}`)).status).to.equal(503);
  });
});
