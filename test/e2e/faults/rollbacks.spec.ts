/**
 * Fault campaign, rollbacks: the devnet's test-only rollback removes the last 1, 3 and 10 blocks after a workload of
 * certificate, credential (AUTH, REVOKE), state (mint, update, burn), bootstrap and library transactions, one block
 * each, with extension transactions built over HTTP and signed for real riding in some of those blocks: a
 * fractionized Init, Insert and Claim, a connected-goods batch mint and item claim, and a tokenizable Init, Insert
 * and the owner's Redeem. After each rollback every
 * projection store (indexer with its facts and extension sorted lists, verifier, credential, stats, lookups) holds
 * exactly what a fresh sync from origin of the shortened chain gives — the same documents, ignoring sequence numbers
 * and cursors — the rolled-back certificates answer 404, and the extension routes (fractionized status,
 * connected-goods hub read, tokenizable status) answer the shortened chain's state. The rolled-back transactions went back to the
 * mempool: the next block re-includes them, after which the stores again equal a fresh sync, every certificate
 * verifies and the extension routes answer as before the rollback.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { startDevnetServer, type DevnetServer } from "../../../shared/devnet";
import { catchUpProjections } from "../../../shared/mesh/fact-follower";
import { makeCertificate, type OnchainCertificate } from "../../../shared/protocol";
import { createStore, type Store } from "../../../shared/store";
import type { Wallet } from "../../../shared/wallet";
import { enterpriseAddressOfKeyHash } from "../../../shared/csl/address";
import { errorBody, http, pollUntil, postJson } from "../../../fixtures/mesh/helpers";
import { startMesh, type RunningMesh } from "../../../fixtures/mesh/mesh-harness";
import { defaultBootstrap, ProtocolFixture, type StateUtxo } from "../../../fixtures/onchain/protocol-fixture";
import type { ServiceName } from "../../../shared/mesh/service-names";
import { deploymentEnv } from "../../support/deployed-mesh";
import { DataHash } from "../../../shared/domain/hex";

/** The stores the read side derives from the chain, by the service that writes them. */
const PROJECTIONS = [
  "indexer_blocks",
  "indexer_transactions",
  "indexer_facts",
  "fractionized_lists",
  "fractionized_list_entries",
  "tokenizable_lists",
  "tokenizable_list_entries",
  "credential_auths",
  "credential_revocations",
  "stats_transactions",
  "stats_transaction_totals",
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
      hash: DataHash(randomBytes(32).toString("hex")),
      algorithm: "SHA-256",
      issuer: issuer.paymentKeyHash,
      metadata: JSON.stringify(metadata),
    });
  const verifyStatus = async (hash: string) => (await http(`${mesh.api}/verify/${hash}`)).status;

  /** Signs with every signer's full witness set and submits through the API; the transaction waits in the mempool. */
  const submit = async (unsigned: string, signer: Wallet): Promise<string> => {
    const res = await postJson(`${mesh.api}/transaction/submit`, { transaction: signer.signTxFull(unsigned) });
    expect(res.status, res.text).to.equal(200);
    return (res.json as { transactionHash: string }).transactionHash;
  };
  const fractionized = (body: Record<string, unknown>) => postJson(`${mesh.api}/extension/fractionized-certificate/build`, body);
  const goods = (path: string, body: Record<string, unknown>) => postJson(`${mesh.api}/extension/connected-goods${path}`, body);
  const tokenizable = async (body: Record<string, unknown>) => {
    const res = await postJson(`${mesh.api}/extension/tokenizable-certificate/build`, body);
    expect(res.status, res.text).to.equal(200);
    return res.json as { unsignedTransaction: string; policyId: string };
  };
  /** The tokenizable status of `key` in the list of `policyId`. */
  const tokenStatus = async (policyId: string, key: string) => {
    const res = await http(`${mesh.api}/extension/tokenizable-certificate/status/${key}?policyId=${policyId}`);
    expect(res.status, res.text).to.equal(200);
    return res.json as { exists: boolean; status: string | null; ownerPubKeyHash: string | null };
  };
  /** The fractionized status of `key` in the list of `policyId`. */
  const nodeStatus = async (policyId: string, key: string) => {
    const res = await http(`${mesh.api}/extension/fractionized-certificate/status/${key}?policyId=${policyId}`);
    expect(res.status, res.text).to.equal(200);
    return res.json as { exists: boolean; remainingAmount: number; keys: string[]; status: string | null };
  };
  /** The connected-goods hub read of an item by the SHA-256 of its password: 200 with the hub, or the refusal's code. */
  const hubRead = async (batchId: string, password: string) => {
    const res = await http(`${mesh.api}/extension/connected-goods/${batchId}/${createHash("sha256").update(password).digest("hex")}`);
    if (res.status === 200) return res.json as { owner: string; item_name: string };
    expect(res.status, res.text).to.equal(400);
    return errorBody(res).error;
  };

  before(async () => {
    f = await ProtocolFixture.create("shipped");
    await f.mintBootstrap(defaultBootstrap(f.actors, { fee: 0n, transactionLimit: 1000n }));
    server = await startDevnetServer(f.chain.devnet, { port: 0 });
    store = await createStore({ inMemory: true });
    mesh = await startMesh({
      services: ["gateway", "tx-builder", "submitter", "fractionized", "connected-goods", "tokenizable", ...READ_SIDE],
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
      env: env(),
      now: () => f.chain.now(),
    });
    // the extension wallets (only they: the fixture's own transactions never spend their outputs) need collateral
    await synced(mesh, store);
    for (const w of [f.actors.feeA, f.actors.feeB]) {
      const res = await postJson(`${mesh.api}/transaction/prepare-collateral`, { senderAddress: w.address });
      expect(res.status, res.text).to.equal(200);
      await submit((res.json as { unsignedTransaction: string }).unsignedTransaction, w);
    }
    f.chain.devnet.produceBlock();
    await synced(mesh, store);
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    await server?.close();
    await f?.chain.devnet.close();
  });

  /** What the extension transactions of one round made, to ask the extension routes about. */
  interface Extensions {
    policyId: string;
    /** the fractionized node inserted (block 8) and claimed from (block 10) */
    insertedKey: string;
    batchId: string;
    /** the password of the connected-goods item claimed in block 10 */
    claimedPassword: string;
    /** the tokenizable list (Init in block 4) */
    tokenPolicyId: string;
    /** its Init key, redeemed by its owner in block 9 */
    tokenInitKey: string;
    /** the node inserted in block 7 */
    tokenInsertedKey: string;
  }
  const TOTAL = 10;
  const CLAIMED = 4;

  /**
   * Ten blocks, the last ones the most varied: rolling back 1 removes a state mint carrying an AUTH credential, a
   * fractionized Claim and a connected-goods claim; 3 also a state burn with a fractionized Insert and a certificate
   * update and a tokenizable Redeem; 10 also a REVOKE with the tokenizable Init, a library deployment, a bootstrap
   * mint, a state update with the tokenizable Insert, the fractionized Init and the batch mint.
   * The extension transactions are built over HTTP, signed by feeA/feeB and submitted before the fixture's own
   * transaction, so they land in the block it produces. Returns the hashes each block anchored (the fractionized
   * and tokenizable keys are anchored as certificates) and the number of transactions in each block, oldest first.
   */
  const workload = async (round: number): Promise<{ blocks: string[][]; txs: number[]; ext: Extensions }> => {
    const { alice, bob, issuer, service, feeA, feeB } = f.actors;
    const blocks: string[][] = [];
    const txs: number[] = [];
    const push = (certs: OnchainCertificate[], extra: string[] = [], extraTxs = 0) => {
      blocks.push([...certs.map((c) => c.hash), ...extra]);
      txs.push(1 + extraTxs);
    };
    const auth = cert(alice, { uv_tid: "IdentityAuth", t: "AUTH", ct: `ROUND${round}` });
    const first = [cert(alice)];
    let a: StateUtxo = await f.mintState(alice, first);
    push(first);
    a = (await f.update(a, alice, [auth])).state;
    push([auth]);

    // block 3: the fractionized Init (feeA) and the connected-goods batch mint (feeB) ride with bob's state mint
    const initKey = randomBytes(32).toString("hex");
    const init = await fractionized({
      type: "Init",
      address: feeA.address,
      certificate: { hash: initKey, metadata: { uv_tid: "carbon-credit" } },
      tokenAmount: TOTAL,
      claimants: [],
    });
    expect(init.status, init.text).to.equal(200);
    const { policyId, unsignedTransaction: initTx } = init.json as { policyId: string; unsignedTransaction: string };
    await submit(initTx, feeA);
    const items = ["item-1", "item-2"].map((n) => ({ asset_name: `r${round}-${n}`, password: `round ${round} ${n} password` }));
    const mint = await goods("/mint/batch", { address: feeB.address, items });
    expect(mint.status, mint.text).to.equal(200);
    const { batch_id: batchId, unsignedTransaction: mintTx } = mint.json as { batch_id: string; unsignedTransaction: string };
    await submit(mintTx, feeB);
    const bobCerts = [cert(bob)];
    let b: StateUtxo = await f.mintState(bob, bobCerts);
    push(bobCerts, [initKey], 2);

    // block 4: a tokenizable Init (feeB deploys an open plain list, feeA owns its first node) rides with the REVOKE
    await synced(mesh, store);
    const tokenInitKey = randomBytes(32).toString("hex");
    const tokInit = await tokenizable({
      type: "Init",
      address: feeB.address,
      certificate: { hash: tokenInitKey, metadata: { name: `round ${round}` } },
      owner: feeA.paymentKeyHash,
      config: { allowedInserters: [] },
    });
    const tokenPolicyId = tokInit.policyId;
    await submit(tokInit.unsignedTransaction, feeB);
    const revoke = cert(alice, { uv_tid: "IdentityAuth", t: "REVOKE", th: auth.hash });
    a = (await f.update(a, alice, [revoke])).state;
    push([revoke], [tokenInitKey], 1);
    await f.chain.deployReferenceScripts(service, f.scripts.library.address, [f.scripts.state.code]);
    push([]);
    await f.mintBootstrap(defaultBootstrap(f.actors, { fee: 0n, tokenName: Buffer.from(`round-${round}`).toString("hex") }));
    push([]);
    // block 7: a tokenizable Insert (feeB) rides with bob's state update
    await synced(mesh, store);
    const tokenInsertedKey = randomBytes(32).toString("hex");
    const tokInsert = await tokenizable({
      type: "Insert",
      address: feeB.address,
      policyId: tokenPolicyId,
      certificate: { hash: tokenInsertedKey },
      owner: feeA.paymentKeyHash,
    });
    await submit(tokInsert.unsignedTransaction, feeB);
    const bobMore = [cert(bob)];
    b = (await f.update(b, bob, bobMore)).state;
    push(bobMore, [tokenInsertedKey], 1);

    // block 8: a fractionized Insert into feeA's list rides with bob's state burn
    await synced(mesh, store);
    const insertedKey = randomBytes(32).toString("hex");
    const insert = await fractionized({
      type: "Insert",
      address: feeA.address,
      policyId,
      certificate: { hash: insertedKey, metadata: { uv_tid: "carbon-credit" } },
      tokenAmount: TOTAL,
      claimants: [],
    });
    expect(insert.status, insert.text).to.equal(200);
    await submit((insert.json as { unsignedTransaction: string }).unsignedTransaction, feeA);
    await f.chain.submit(f.burnStatesSpec([b], bob), [bob]);
    push([], [insertedKey], 1);

    // block 9: the owner (feeA) redeems the tokenizable Init node alongside alice's update
    await synced(mesh, store);
    const redeem = await tokenizable({ type: "Redeem", address: feeA.address, policyId: tokenPolicyId, key: tokenInitKey });
    await submit(redeem.unsignedTransaction, feeA);
    const aliceMore = [cert(alice), cert(alice)];
    await f.update(a, alice, aliceMore);
    push(aliceMore, [], 1);

    // block 10: a fractionized Claim (feeB) and a connected-goods claim (feeA) ride with the issuer's state mint
    await synced(mesh, store);
    const claim = await fractionized({ type: "Claim", address: feeB.address, policyId, key: insertedKey, amount: CLAIMED });
    expect(claim.status, claim.text).to.equal(200);
    await submit((claim.json as { unsignedTransaction: string }).unsignedTransaction, feeB);
    const claimedPassword = items[1]!.password;
    const goodsClaim = await goods("/claim/item", {
      password: claimedPassword,
      batch_id: batchId,
      user_address: feeA.address,
      social_hub: { name: `round ${round}` },
    });
    expect(goodsClaim.status, goodsClaim.text).to.equal(200);
    await submit(goodsClaim.text, feeA);
    const lastAuth = cert(issuer, { uv_tid: "IdentityAuth", t: "AUTH", ct: `LAST${round}` });
    await f.mintState(issuer, [lastAuth]);
    push([lastAuth], [], 2);
    return {
      blocks,
      txs,
      ext: { policyId, insertedKey, batchId, claimedPassword, tokenPolicyId, tokenInitKey, tokenInsertedKey },
    };
  };

  /** The extension routes answer the chain that keeps its last `removed` workload blocks (0: all of them). */
  const expectExtensions = async (ext: Extensions, removed: number) => {
    const node = await nodeStatus(ext.policyId, ext.insertedKey);
    const hub = await hubRead(ext.batchId, ext.claimedPassword);
    const tokenInit = await tokenStatus(ext.tokenPolicyId, ext.tokenInitKey);
    const tokenInserted = await tokenStatus(ext.tokenPolicyId, ext.tokenInsertedKey);
    const owner = f.actors.feeA.paymentKeyHash;
    if (removed < 3) {
      expect(tokenInit, "the tokenizable Init node is redeemed").to.deep.include({
        exists: true,
        status: "Redeemed",
        ownerPubKeyHash: owner,
      });
      expect(tokenInserted, "the tokenizable Insert node").to.deep.include({ exists: true, status: "Available" });
    } else if (removed === 3) {
      expect(tokenInit, "the redeem is gone").to.deep.include({ exists: true, status: "Available", ownerPubKeyHash: owner });
      expect(tokenInserted, "the insert is kept").to.deep.include({ exists: true, status: "Available" });
    } else {
      expect(tokenInit, "the tokenizable list is gone").to.deep.include({ exists: false, status: null });
      expect(tokenInserted, "the tokenizable list is gone").to.deep.include({ exists: false, status: null });
    }
    if (removed === 0) {
      expect(node).to.deep.include({ exists: true, remainingAmount: TOTAL - CLAIMED, status: "TokensAvailable" });
      expect(hub, "the claimed item's hub").to.deep.include({ owner: enterpriseAddressOfKeyHash(f.actors.feeA.paymentKeyHash, 0) });
    } else if (removed === 1) {
      expect(node, "the claim is gone").to.deep.include({ exists: true, remainingAmount: TOTAL, status: "TokensAvailable" });
      expect(hub, "the item is unclaimed again").to.equal("WRONG_PASSWORD");
    } else if (removed === 3) {
      expect(node, "the insert is gone").to.deep.include({ exists: false });
      expect(node.keys, "the list keeps its Init key only").to.have.length(1);
      expect(hub, "the item is unclaimed again").to.equal("WRONG_PASSWORD");
    } else {
      expect(node, "the list is gone").to.deep.include({ exists: false, keys: [] });
      // the batch mint is gone too: the hub read and a claim both name the unknown batch
      expect(hub, "the batch is unknown").to.equal("UNKNOWN_BATCH");
      const claim = await goods("/claim/item", {
        password: ext.claimedPassword,
        batch_id: ext.batchId,
        user_address: f.actors.feeA.address,
        social_hub: { name: "late" },
      });
      expect(claim.status, claim.text).to.equal(400);
      expect(errorBody(claim).error, "the batch is gone").to.equal("UNKNOWN_BATCH");
    }
  };

  for (const [round, depth] of [1, 3, 10].entries()) {
    it(`rolls back ${depth} block${depth > 1 ? "s" : ""}: the stores equal a fresh sync, and re-inclusion brings everything back`, async () => {
      const { blocks, txs, ext } = await workload(round);
      await synced(mesh, store);
      const all = blocks.flat();
      for (const h of all) expect(await verifyStatus(h)).to.equal(200);
      await expectExtensions(ext, 0);
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
      for (const h of gone) expect(await verifyStatus(h), `rolled back ${h}`).to.equal(404);
      for (const h of kept) expect(await verifyStatus(h), `kept ${h}`).to.equal(200);
      await expectExtensions(ext, depth);

      // re-inclusion: the dropped transactions are back in the mempool; one block takes them all
      const dropped = txs.slice(-depth).reduce((n, x) => n + x, 0);
      expect(f.chain.devnet.mempoolTransactions().length, "every rolled-back transaction is waiting again").to.equal(dropped);
      f.chain.devnet.produceBlock();
      await synced(mesh, store);
      const restored = await snapshot(store);
      expect(restored, `after re-including ${depth}`).to.deep.equal(await freshSync());
      for (const name of [
        "credential_auths",
        "credential_revocations",
        "indexer_facts",
        "stats_transactions",
        "fractionized_lists",
        "tokenizable_lists",
        "tokenizable_list_entries",
      ])
        expect(restored[name]!.length, `${name} after re-inclusion`).to.equal(full[name]!.length);
      for (const h of all) expect(await verifyStatus(h), `re-included ${h}`).to.equal(200);
      await expectExtensions(ext, 0);
    });
  }
});
