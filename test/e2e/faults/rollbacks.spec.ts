/**
 * Fault campaign, rollbacks: the devnet's test-only rollback removes the last 1, 3 and 10 blocks after a workload of
 * certificate, credential (AUTH, REVOKE), state (mint, update, burn), bootstrap and library transactions, one block
 * each. After each rollback every projection store (indexer, verifier, credential, stats, lookups) holds exactly what
 * a fresh sync from origin of the shortened chain gives — the same documents, ignoring sequence numbers and cursors —
 * and the rolled-back certificates answer 404. The rolled-back transactions went back to the mempool: the next block
 * re-includes them, after which the stores again equal a fresh sync and every certificate verifies.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { startDevnetServer, type DevnetServer } from "../../../shared/devnet";
import { catchUpProjections } from "../../../shared/mesh/fact-follower";
import { makeCertificate, type OnchainCertificate } from "../../../shared/protocol";
import { createStore, type Store } from "../../../shared/store";
import type { Wallet } from "../../../shared/wallet";
import { http, pollUntil } from "../../../fixtures/mesh/helpers";
import { startMesh, type RunningMesh } from "../../../fixtures/mesh/mesh-harness";
import { defaultBootstrap, ProtocolFixture, type StateUtxo } from "../../../fixtures/onchain/protocol-fixture";
import type { ServiceName } from "../../../shared/config/service-names";
import { deploymentEnv } from "../../support/deployed-mesh";

/** The stores the read side derives from the chain, by the service that writes them. */
const PROJECTIONS = [
  "indexer_blocks",
  "indexer_transactions",
  "indexer_facts",
  "verifier_certificates",
  "verifier_short_codes",
  "credential_auths",
  "credential_revocations",
  "stats_certificates",
  "stats_fee_transactions",
  "stats_totals",
  "lookup_scripts",
  "lookup_datums",
  "lookup_outputs",
  "lookup_redeemers",
] as const;
const READ_SIDE: ServiceName[] = ["indexer", "verifier", "credential", "stats"];

/** A collection's documents without the fields that only say in which order they were written. */
async function snapshot(store: Store): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of PROJECTIONS) {
    const docs = await store.collection(name).find({});
    out[name] = docs
      // the fact log's rollback markers record history, not chain content
      .filter((d) => (d as { kind?: string }).kind !== "rollback")
      .map((d) => {
        const { _id, seq: _seq, ...rest } = d as unknown as Record<string, unknown>;
        // fact ids carry the transaction id and position (deterministic); other ids may be counters
        return JSON.stringify(name === "indexer_facts" ? rest : { _id, ...rest });
      })
      .sort();
  }
  return out;
}

describe("fault campaign: rollbacks of 1, 3 and 10 blocks across every kind of protocol transaction", function () {
  this.timeout(240_000);
  let f: ProtocolFixture;
  let server: DevnetServer;
  let store: Store;
  let mesh: RunningMesh;
  const env = () => deploymentEnv(f);

  /** Waits until the indexer of `broker`'s mesh is at the devnet's tip, then brings every projection to it. */
  const synced = async (m: RunningMesh, s: Store) => {
    const tip = f.chain.devnet.tip();
    const tipId = tip === "origin" ? undefined : tip.id;
    await pollUntil(
      async () =>
        (await s.collection<{ _id: string; id?: string }>("indexer_meta").findOne({ _id: "checkpoint" }))?.id === tipId ? true : undefined,
      `indexer at the tip ${tipId}`,
      60_000,
    );
    await catchUpProjections(m.broker);
  };

  /** A fresh read side on an empty store, synced from origin, its snapshot, then stopped. */
  const freshSync = async () => {
    const freshStore = await createStore({ inMemory: true });
    const fresh = await startMesh({
      services: READ_SIDE,
      store: freshStore,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
      env: env(),
      now: () => f.chain.now(),
    });
    try {
      await synced(fresh, freshStore);
      return await snapshot(freshStore);
    } finally {
      await fresh.stop();
      await freshStore.close();
    }
  };

  const cert = (issuer: Wallet, metadata: Record<string, unknown> = { uv_tid: "diploma" }): OnchainCertificate =>
    makeCertificate({
      hash: randomBytes(32).toString("hex"),
      algorithm: "SHA-256",
      issuer: issuer.paymentKeyHash,
      metadata: JSON.stringify(metadata),
    });
  const verifyStatus = async (hash: string) => (await http(`${mesh.api}/verify/${hash}`)).status;

  before(async () => {
    f = await ProtocolFixture.create("shipped");
    await f.mintBootstrap(defaultBootstrap(f.actors, { fee: 0n, transactionLimit: 1000n }));
    server = await startDevnetServer(f.chain.devnet, { port: 0 });
    store = await createStore({ inMemory: true });
    mesh = await startMesh({
      services: ["gateway", ...READ_SIDE],
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
      env: env(),
      now: () => f.chain.now(),
    });
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    await server?.close();
    await f?.chain.devnet.close();
  });

  /**
   * Ten transactions, one block each, the last ones the most varied: rolling back 1 removes a state mint carrying
   * an AUTH credential; 3 also a state burn and a certificate update; 10 also a REVOKE, a library deployment and
   * a bootstrap mint. Returns the certificates each block anchored, oldest first.
   */
  const workload = async (round: number): Promise<OnchainCertificate[][]> => {
    const { alice, bob, issuer, service } = f.actors;
    const blocks: OnchainCertificate[][] = [];
    const auth = cert(alice, { uv_tid: "IdentityAuth", t: "AUTH", ct: `ROUND${round}` });
    const first = [cert(alice)];
    let a: StateUtxo = await f.mintState(alice, first);
    blocks.push(first);
    a = (await f.update(a, alice, [auth])).state;
    blocks.push([auth]);
    const bobCerts = [cert(bob)];
    let b: StateUtxo = await f.mintState(bob, bobCerts);
    blocks.push(bobCerts);
    const revoke = cert(alice, { uv_tid: "IdentityAuth", t: "REVOKE", th: auth.hash });
    a = (await f.update(a, alice, [revoke])).state;
    blocks.push([revoke]);
    await f.chain.deployReferenceScripts(service, f.scripts.library.address, [f.scripts.state.code]);
    blocks.push([]);
    await f.mintBootstrap(defaultBootstrap(f.actors, { fee: 0n, tokenName: Buffer.from(`round-${round}`).toString("hex") }));
    blocks.push([]);
    const bobMore = [cert(bob)];
    b = (await f.update(b, bob, bobMore)).state;
    blocks.push(bobMore);
    await f.chain.submit(f.burnStatesSpec([b], bob), [bob]);
    blocks.push([]);
    const aliceMore = [cert(alice), cert(alice)];
    await f.update(a, alice, aliceMore);
    blocks.push(aliceMore);
    const lastAuth = cert(issuer, { uv_tid: "IdentityAuth", t: "AUTH", ct: `LAST${round}` });
    await f.mintState(issuer, [lastAuth]);
    blocks.push([lastAuth]);
    return blocks;
  };

  for (const [round, depth] of [1, 3, 10].entries()) {
    it(`rolls back ${depth} block${depth > 1 ? "s" : ""}: the stores equal a fresh sync, and re-inclusion brings everything back`, async () => {
      const blocks = await workload(round);
      await synced(mesh, store);
      const all = blocks.flat();
      for (const c of all) expect(await verifyStatus(c.hash)).to.equal(200);
      const full = await snapshot(store);
      process.stdout.write(`      documents: ${PROJECTIONS.map((n) => `${n} ${full[n]!.length}`).join(", ")}\n`);

      const heightBefore = f.chain.devnet.height;
      f.chain.devnet.rollback(depth);
      expect(f.chain.devnet.height).to.equal(heightBefore - depth);
      await synced(mesh, store);
      const shortened = await snapshot(store);
      expect(shortened, `after rolling back ${depth}`).to.deep.equal(await freshSync());
      expect(shortened, "the rollback changed the stores").to.not.deep.equal(full);
      const gone = blocks.slice(-depth).flat();
      const kept = blocks.slice(0, -depth).flat();
      for (const c of gone) expect(await verifyStatus(c.hash), `rolled back ${c.hash}`).to.equal(404);
      for (const c of kept) expect(await verifyStatus(c.hash), `kept ${c.hash}`).to.equal(200);

      // re-inclusion: the dropped transactions are back in the mempool; one block takes them all
      expect(f.chain.devnet.mempoolTransactions().length, "every rolled-back transaction is waiting again").to.equal(depth);
      f.chain.devnet.produceBlock();
      await synced(mesh, store);
      const restored = await snapshot(store);
      expect(restored, `after re-including ${depth}`).to.deep.equal(await freshSync());
      for (const name of ["verifier_certificates", "credential_auths", "credential_revocations", "indexer_facts", "stats_certificates"])
        expect(restored[name]!.length, `${name} after re-inclusion`).to.equal(full[name]!.length);
      for (const c of all) expect(await verifyStatus(c.hash), `re-included ${c.hash}`).to.equal(200);
    });
  }
});
