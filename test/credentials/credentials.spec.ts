/**
 * Credentials end to end: AUTH and REVOKE certificates issued on the devnet through the deployed validators, indexed,
 * and answered over HTTP by the credential service. Only the AUTH issuer's revocation counts; rollbacks undo it; a
 * hash several issuers registered is never answered as one of theirs unless the caller names the issuer.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { makeCertificate, type OnchainCertificate } from "../../shared/protocol";
import type { Wallet } from "../../shared/wallet";
import { errorBody, http, pollUntil } from "../../fixtures/mesh/helpers";
import type { ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import type { RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";
import { DataHash } from "../../shared/domain/hex";

const identity = (issuer: Wallet, fields: Record<string, unknown>): OnchainCertificate =>
  makeCertificate({
    hash: DataHash(randomBytes(32).toString("hex")),
    algorithm: "SHA-256",
    issuer: issuer.paymentKeyHash,
    metadata: JSON.stringify({ uv_tid: "IdentityAuth", ...fields }),
  });

describe("credentials: AUTH / REVOKE certificates over HTTP", function () {
  this.timeout(120_000);
  let f: ProtocolFixture;
  let mesh: RunningMesh;
  let world: DeployedMesh;
  const get = (path: string) => http(`${mesh.api}${path}`);
  /** Waits until the credential service has applied everything the indexer has decoded so far. */
  const synced = async () => {
    const lastSeq = (await mesh.broker.call<{ lastSeq: number }>("indexer.status")).lastSeq;
    await pollUntil(
      async () => ((await mesh.broker.call<number>("credential.sync")) >= lastSeq ? true : undefined),
      "credential projection caught up",
    );
  };
  /** Issues certificates from `wallet`'s state (forking one first if it has none) and waits until they are indexed. */
  const issue = async (wallet: Wallet, certs: OnchainCertificate[]) => {
    const ids = f.findStateIdsOf(wallet);
    const tx =
      ids.length === 0
        ? (await f.mintState(wallet, certs)).utxo.transaction.id
        : (await f.update(f.findState(ids[0]!), wallet, certs)).txId;
    await pollUntil(
      async () => ((await mesh.broker.call<unknown, { id: string }>("indexer.transaction", { id: tx })) ? true : undefined),
      "transaction indexed",
    );
    await synced();
    return tx;
  };

  before(async () => {
    world = await startDeployedMesh({ services: ["gateway", "indexer", "credential"] });
    ({ f, mesh } = world);
  });
  after(() => world?.close());

  let auth: OnchainCertificate;
  let authTx: string;

  it("registers an AUTH certificate as an active credential of its issuer, by credential, address and type", async () => {
    const alice = f.actors.alice;
    auth = identity(alice, { t: "AUTH", ct: "KYC", i: "EKeriAid123" });
    authTx = await issue(alice, [auth, identity(alice, { t: "AUTH" }) /* no `ct`: not a credential */]);

    const list = await get(`/credential/${alice.paymentKeyHash}`);
    expect(list.status).to.equal(200);
    expect(list.json).to.have.length(1);
    expect((list.json as object[])[0]).to.deep.include({
      authHash: auth.hash,
      credentialType: "KYC",
      keriAid: "EKeriAid123",
      txHash: authTx,
      active: true,
      keriVerified: false,
      acdc: null,
    });

    const byAddress = await get(`/credential/${alice.address}`);
    expect(byAddress.status).to.equal(200);
    expect((byAddress.json as { authHash: string }[]).map((c) => c.authHash)).to.deep.equal([auth.hash]);
    const typed = await get(`/credential/${alice.enterpriseAddress}?type=KYC`);
    expect(typed.json).to.include({ authHash: auth.hash, active: true });
    expect((await get(`/credential/${alice.paymentKeyHash}?type=`)).json, "a blank type filters nothing").to.have.length(1);
    const otherType = await get(`/credential/${alice.paymentKeyHash}?type=DIPLOMA`);
    expect(otherType.status).to.equal(404);
    expect(errorBody(otherType).error).to.equal("NOT_FOUND");
    expect((await get(`/credential/by-hash/${auth.hash.toUpperCase()}`)).json).to.include({ authHash: auth.hash, active: true });
  });

  it("ignores a REVOKE issued by anyone but the AUTH issuer", async () => {
    await issue(f.actors.bob, [identity(f.actors.bob, { t: "REVOKE", th: auth.hash })]);
    expect((await get(`/credential/by-hash/${auth.hash}`)).json).to.include({ active: true, revokedTxHash: null });
    expect((await get(`/credential/${f.actors.alice.paymentKeyHash}`)).status).to.equal(200);
  });

  let revokeTx: string;

  it("revokes when the issuer sends REVOKE: gone from the active list, still found by hash as inactive", async () => {
    revokeTx = await issue(f.actors.alice, [identity(f.actors.alice, { t: "REVOKE", th: auth.hash })]);
    const active = await get(`/credential/${f.actors.alice.paymentKeyHash}`);
    expect(active.status).to.equal(404);
    expect(errorBody(active).error).to.equal("NOT_FOUND");
    expect((await get(`/credential/by-hash/${auth.hash}`)).json).to.include({
      authHash: auth.hash,
      active: false,
      revokedTxHash: revokeTx,
    });
  });

  it("restores the credential when the revocation is rolled back, and revokes again when it is re-included", async () => {
    f.chain.devnet.rollback(1);
    await pollUntil(async () => {
      const r = await get(`/credential/by-hash/${auth.hash}`);
      return (r.json as { active?: boolean }).active === true ? true : undefined;
    }, "revocation rolled back");
    expect((await get(`/credential/${f.actors.alice.paymentKeyHash}`)).status).to.equal(200);

    f.chain.devnet.produceBlock(); // the rolled-back revocation went back to the mempool
    await pollUntil(
      async () => (((await get(`/credential/by-hash/${auth.hash}`)).json as { active?: boolean }).active === false ? true : undefined),
      "revoked again",
    );
  });

  it("forgets the credential itself when its AUTH transaction is rolled back", async () => {
    const carol = identity(f.actors.issuer, { t: "AUTH", ct: "EMAIL" });
    await issue(f.actors.issuer, [carol]);
    expect((await get(`/credential/${f.actors.issuer.paymentKeyHash}`)).status).to.equal(200);
    f.chain.devnet.rollback(1);
    await pollUntil(async () => ((await get(`/credential/by-hash/${carol.hash}`)).status === 404 ? true : undefined), "AUTH rolled back");
    expect((await get(`/credential/${f.actors.issuer.paymentKeyHash}`)).status).to.equal(404);
  });

  it("keys credentials by (hash, issuer): a squatter anchoring someone's AUTH hash first gets a credential of its own, not theirs", async () => {
    const alice = f.actors.alice;
    const bob = f.actors.bob;
    const squatted = identity(alice, { t: "AUTH", ct: "LEI" });
    // bob saw alice's AUTH hash (e.g. in her mempool transaction) and anchors the same hash first, under his key
    await issue(bob, [
      makeCertificate({
        hash: DataHash(squatted.hash),
        algorithm: "SHA-256",
        issuer: bob.paymentKeyHash,
        metadata: JSON.stringify({ uv_tid: "IdentityAuth", t: "AUTH", ct: "LEI" }),
      }),
    ]);
    await issue(alice, [squatted]);
    const mine = (await get(`/credential/${alice.paymentKeyHash}?type=LEI`)).json as { authHash: string; paymentCredential: string };
    expect(mine).to.include({ authHash: squatted.hash, paymentCredential: alice.paymentKeyHash });
    const trusted = await get(`/credential/by-hash/${squatted.hash}?issuer=${alice.enterpriseAddress}`);
    expect(trusted.status).to.equal(200);
    expect(trusted.json).to.include({ paymentCredential: alice.paymentKeyHash, active: true });
    expect((trusted.json as { alsoRegisteredBy: string[] }).alsoRegisteredBy, "who else registered the hash").to.deep.equal([
      bob.paymentKeyHash,
    ]);
    const unqualified = await get(`/credential/by-hash/${squatted.hash}`);
    expect(unqualified.status, "the squatter's earlier registration is not answered as the credential").to.equal(409);
    expect(errorBody(unqualified)).to.include({ error: "AMBIGUOUS_CREDENTIAL" });
    // bob can revoke only his own registration
    await issue(bob, [identity(bob, { t: "REVOKE", th: squatted.hash })]);
    expect((await get(`/credential/by-hash/${squatted.hash}?issuer=${alice.paymentKeyHash}`)).json).to.include({ active: true });
    expect((await get(`/credential/by-hash/${squatted.hash}?issuer=${bob.paymentKeyHash}`)).json).to.include({ active: false });
    expect((await get(`/credential/by-hash/${squatted.hash}?issuer=${f.actors.issuer.paymentKeyHash}`)).status).to.equal(404);
    // an issuer that is neither: 400, as the document declares for this route
    const nonsense = await get(`/credential/by-hash/${squatted.hash}?issuer=nonsense`);
    expect(nonsense.status).to.equal(400);
    expect(errorBody(nonsense).error).to.equal("INVALID_PAYMENT_CREDENTIAL");
  });

  it("answers a by-hash lookup without an issuer 409 AMBIGUOUS_CREDENTIAL listing every issuer when several registered the hash, never one of them as the credential", async () => {
    const alice = f.actors.alice;
    const bob = f.actors.bob;
    const genuine = identity(alice, { t: "AUTH", ct: "DIPLOMA" });
    await issue(alice, [genuine]);
    const single = await get(`/credential/by-hash/${genuine.hash}`);
    expect(single.status, "one issuer: its registration is the credential").to.equal(200);
    expect(single.json).to.include({ paymentCredential: alice.paymentKeyHash, active: true });
    expect((single.json as { alsoRegisteredBy: string[] }).alsoRegisteredBy).to.deep.equal([]);

    // bob copies the AUTH hash into a registration of his own, with other claims
    await issue(bob, [
      makeCertificate({
        hash: DataHash(genuine.hash),
        algorithm: "SHA-256",
        issuer: bob.paymentKeyHash,
        metadata: JSON.stringify({ uv_tid: "IdentityAuth", t: "AUTH", ct: "DIPLOMA", i: "EBobsAid" }),
      }),
    ]);
    const ambiguous = await get(`/credential/by-hash/${genuine.hash}`);
    expect(ambiguous.status).to.equal(409);
    const body = errorBody(ambiguous);
    expect(body.error).to.equal("AMBIGUOUS_CREDENTIAL");
    expect(body.message).to.contain("?issuer=");
    expect(body["authHash"]).to.equal(genuine.hash);
    expect(body["issuers"], "every issuer, in registration order").to.deep.equal([alice.paymentKeyHash, bob.paymentKeyHash]);
    expect(body).to.not.have.property("paymentCredential");
    // naming the issuer still answers that issuer's registration, and names the other
    const alices = await get(`/credential/by-hash/${genuine.hash}?issuer=${alice.address}`);
    expect(alices.json).to.include({ paymentCredential: alice.paymentKeyHash, keriAid: null });
    expect((alices.json as { alsoRegisteredBy: string[] }).alsoRegisteredBy).to.deep.equal([bob.paymentKeyHash]);
    expect((await get(`/credential/by-hash/${genuine.hash}?issuer=${bob.paymentKeyHash}`)).json).to.include({ keriAid: "EBobsAid" });
  });

  it("answers malformed input with 4xx JSON", async () => {
    for (const path of [
      "/credential/not-a-credential",
      `/credential/${"ab".repeat(27)}`,
      "/credential/by-hash/xyz",
      `/credential/by-hash/${"00".repeat(65)}`,
      "/credential/addr_test1qqqq",
    ]) {
      const res = await get(path);
      expect(res.status, path).to.equal(400);
      expect(errorBody(res).error, path).to.be.a("string");
    }
  });
});
