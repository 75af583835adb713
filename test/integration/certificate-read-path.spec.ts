/**
 * Issue #4's first working slice, end to end in one process: a wallet issues certificates with transactions it
 * builds itself (codecs + CSL, through the deployed validators), the devnet confirms them, the indexer decodes
 * them, and the verifier, stats and plugin monitor answer over HTTP; a rollback removes them again; a restart
 * resumes from the checkpoint without duplicates.
 */
import { expect } from "chai";
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { createStore, type Store } from "../../shared/store";
import { http, pollUntil } from "../../fixtures/mesh/helpers";
import { randomBytes } from "node:crypto";
import { makeCertificate, type OnchainCertificate } from "../../shared/protocol";
import type { Wallet } from "../../shared/wallet";
import { defaultBootstrap, ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { DataHash } from "../../shared/domain/hex";

/** Fresh hashes for every call: each test's certificates are its own. */
function certificatesFor(issuer: Wallet, count: number): OnchainCertificate[] {
  return Array.from({ length: count }, (_, i) =>
    makeCertificate({
      hash: DataHash(randomBytes(32).toString("hex")),
      algorithm: "SHA-256",
      issuer: issuer.paymentKeyHash,
      // a diploma, then a credential (IdentityAuth counts as Identity), then anything else (Notary)
      metadata: JSON.stringify({ uv_tid: ["diploma", "IdentityAuth"][i] ?? "notary", n: i }),
    }),
  );
}

const READ_SERVICES = ["gateway", "indexer", "verifier", "stats", "plugin-monitor", "submitter"] as const;

describe("certificate read path: issue on chain → index → verify over HTTP", function () {
  this.timeout(120_000);
  let f: ProtocolFixture;
  let server: DevnetServer;
  let store: Store;
  let mesh: RunningMesh;

  const deploymentEnv = () => ({
    PROXY_TX_HASH: f.oneShot.transaction.id,
    PROXY_OUTPUT_INDEX: String(f.oneShot.index),
    SERVICE_KEY_HASH: f.actors.service.paymentKeyHash,
  });
  const chainEndpoint = () => ({ ogmiosUrl: server.url, network: "devnet" as const, devnet: f.chain.devnet });
  const get = async (path: string) => http(`${mesh.api}${path}`);
  const verified = (hash: string, count: number) =>
    pollUntil(async () => {
      const res = await get(`/verify/${hash}`);
      return res.status === 200 && (res.json as unknown[]).length === count ? (res.json as Record<string, unknown>[]) : undefined;
    }, `${count} record(s) for ${hash}`);

  before(async () => {
    f = await ProtocolFixture.create("shipped");
    await f.mintBootstrap(defaultBootstrap(f.actors));
    server = await startDevnetServer(f.chain.devnet, { port: 0 });
    store = await createStore({ inMemory: true });
    mesh = await startMesh({ services: READ_SERVICES, store, chain: chainEndpoint(), env: deploymentEnv(), now: () => f.chain.now() });
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    await server?.close();
    await f?.chain.devnet.close();
  });

  let forkCerts: OnchainCertificate[];
  let forkTx: string;

  it("serves a certificate issued in a fork, with the decisions' record shape, once the block is indexed", async () => {
    forkCerts = certificatesFor(f.actors.alice, 2);
    const state = await f.mintState(f.actors.alice, forkCerts);
    forkTx = state.utxo.transaction.id;
    const [record] = await verified(forkCerts[0]!.hash, 1);
    expect(record).to.include({
      hash: forkCerts[0]!.hash,
      issuer: f.actors.alice.paymentKeyHash,
      address: f.actors.alice.enterpriseAddress,
      transactionHash: forkTx,
      metadata: forkCerts[0]!.extra.join(""),
      bootstrapTokenName: "default",
      algorithm: forkCerts[0]!.algorithm,
    });
    expect(record!["blockNumber"]).to.be.a("number");
    expect(record!["creationTime"]).to.equal(f.chain.slotToPosixMs(record!["slot"] as number));

    const one = await get(`/verify/by-transaction-hash/${forkTx.toUpperCase()}/${forkCerts[1]!.hash}`);
    expect(one.status).to.equal(200);
    expect(one.json).to.include({ hash: forkCerts[1]!.hash, transactionHash: forkTx });
    expect((await get(`/transaction/confirm/${forkTx}`)).status).to.equal(200);
  });

  it("lists every transaction that anchored the same hash, oldest first, and counts statistics", async () => {
    const state = f.findState(f.findStateIdsOf(f.actors.alice)[0]!);
    const again = await f.update(state, f.actors.alice, [forkCerts[0]!]);
    const records = await verified(forkCerts[0]!.hash, 2);
    expect(records.map((r) => r["transactionHash"])).to.deep.equal([forkTx, again.txId]);

    const fees = await pollUntil(async () => {
      const res = await get("/statistic/tx-fees");
      return (res.json as number) > 0 ? (res.json as number) : undefined;
    }, "fees counted");
    expect(fees).to.be.greaterThan(300_000);
    const categories = await pollUntil(async () => {
      const c = (await get("/statistic/certificate/by-category")).json as Record<string, number>;
      return Object.values(c).reduce((a, b) => a + b, 0) === 3 ? c : undefined;
    }, "three certificates counted");
    // the diploma anchored twice, the IdentityAuth credential once; all five categories always present
    expect(categories).to.deep.equal({
      "Connected Goods": 0,
      "Cross-Chain Attestation": 0,
      Identity: 1,
      Notary: 0,
      "Student Certification": 2,
    });
  });

  it("answers the current protocol state: live states, bootstraps, pointer and library scripts", async () => {
    const states = await mesh.broker.call<{ stateId: string; countdown: string; bootstrapName: string }[], { owner: string }>(
      "indexer.states",
      { owner: f.actors.alice.paymentKeyHash },
    );
    expect(states).to.have.length(1);
    expect(states[0]).to.include({ bootstrapName: "default" });
    expect(BigInt(states[0]!.countdown)).to.equal(defaultBootstrap(f.actors).transactionLimit - 2n); // fork, then one update
    const boots = await mesh.broker.call<{ name: string }[], Record<string, never>>("indexer.bootstraps", {});
    expect(boots.map((b) => b.name)).to.deep.equal(["default"]);
    const protocol = await mesh.broker.call<{ deployed: boolean; pointer: { scriptPointer: string }; library: { scriptHash: string }[] }>(
      "indexer.protocol",
    );
    expect(protocol.deployed).to.equal(true);
    expect(protocol.pointer.scriptPointer).to.equal(f.scripts.state.hash);
    expect(protocol.library.map((l) => l.scriptHash).sort()).to.deep.equal([f.scripts.proxy.hash, f.scripts.state.hash].sort());
  });

  it("reports the indexer's real plugins with moving metrics", async () => {
    const overview = (await get("/admin/plugins")).json as { totalPlugins: number; preActions: { totalExecutions: number } };
    expect(overview.totalPlugins).to.be.at.least(5);
    expect(overview.preActions.totalExecutions).to.be.greaterThan(0);
    const detail = (await get("/admin/plugins/filters/protocol-relevance")).json as { itemMetrics: { totalItemsProcessed: number } };
    expect(detail.itemMetrics.totalItemsProcessed).to.be.greaterThan(0);
    expect((await get("/admin/plugins/schedulers/block-history-pruning")).status).to.equal(200);
    expect((await get("/admin/plugins/filters/nope")).status).to.equal(404);
  });

  it("answers 404 JSON again after a rollback removes the certificate, and serves it once re-confirmed", async () => {
    const certs = certificatesFor(f.actors.bob, 1);
    const state = await f.mintState(f.actors.bob, certs);
    await verified(certs[0]!.hash, 1);
    f.chain.devnet.rollback(1);
    await pollUntil(
      async () => ((await get(`/verify/${certs[0]!.hash}`)).status === 404 ? true : undefined),
      "certificate gone after the rollback",
    );
    const gone = await get(`/verify/${certs[0]!.hash}`);
    expect(gone.json).to.include({ error: "NOT_FOUND" });
    expect((await get(`/transaction/confirm/${state.utxo.transaction.id}`)).status).to.equal(404);
    // The rolled-back transaction went back to the mempool; the next block confirms it again.
    f.chain.devnet.produceBlock();
    await verified(certs[0]!.hash, 1);
  });

  it("resumes from its checkpoint after a restart without duplicating anything", async () => {
    await mesh.stop();
    const certs = certificatesFor(f.actors.issuer, 1);
    await f.mintState(f.actors.issuer, certs); // issued while the services are down
    mesh = await startMesh({ services: READ_SERVICES, store, chain: chainEndpoint(), env: deploymentEnv(), now: () => f.chain.now() });
    await verified(certs[0]!.hash, 1);
    expect(await verified(forkCerts[0]!.hash, 2)).to.have.length(2);
    const status = await mesh.broker.call<{ blocksProcessed: number }>("indexer.status");
    expect(status.blocksProcessed).to.equal(1);
  });

  it("rejects malformed input on these routes with 4xx JSON", async () => {
    for (const path of [
      "/verify/xyz",
      "/verify/abc",
      `/verify/${"00".repeat(65)}`,
      "/verify/by-transaction-hash/12/00",
      "/transaction/confirm/zz",
      "/admin/plugins/nope/x",
    ]) {
      const res = await get(path);
      expect(res.status, path).to.be.within(400, 404);
      expect(res.json, path).to.have.property("error");
    }
  });
});
