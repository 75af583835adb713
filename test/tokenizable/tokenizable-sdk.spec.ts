/**
 * The tokenizable-certificate extension driven by the unmodified published client (`@uverify/sdk`) on the
 * embedded mesh, with software CIP-30 wallets signing for real: a CIP-68 list (Init through
 * issueTokenizableCertificate with config, two more inserts, status before and after redeemTokenizableCertificate,
 * the user token in the owner's wallet, the reference token with its metadata datum at the metadata script), a
 * plain list through the spec form, every refusal as a 400 JSON answer, and a rollback of a redeem.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { UVerifyClient } from "@uverify/sdk";
import type { OgmiosUtxo } from "../../shared/csl/utxo";
import { dataFromCborHex, loadBlueprint } from "../../shared/protocol";
import { cip68ReferenceTokenName, cip68UserTokenName, decodeCip68Datum } from "../../shared/extensions/tokenizable/cip68";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { deriveTokenizableMetadataScript } from "../../shared/extensions/tokenizable/scripts";
import type { Wallet } from "../../shared/wallet";
import { errorBody, http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import { ISSUANCE_SERVICES, IssuanceWorld } from "../../fixtures/issuance/issuance-world";
import { cip30SignTx } from "../web/support/cip30-test-wallet";

const BUILD = "/extension/tokenizable-certificate/build";
const STATUS = "/extension/tokenizable-certificate/status";
const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");
const newKey = () => randomBytes(32).toString("hex");

interface Status {
  key: string;
  exists: boolean;
  claimed: boolean;
  status: string | null;
  owner: string | null;
  ownerPubKeyHash: string | null;
  assetName: string | null;
  next: string | null;
  policyId: string | null;
  certificate: { transactionHash: string | null };
}

interface SpecBuild {
  unsignedTransaction: string;
  policyId: string;
  initUtxoTxHash: string;
  initUtxoOutputIndex: number;
  key: string;
}

describe("tokenizable certificates with the published client: CIP-68 and plain lists, redeems, refusals, rollback", function () {
  this.timeout(300_000);
  let w: IssuanceWorld;
  let alice: Wallet;
  let bob: Wallet;
  let issuer: Wallet;
  let base = "";
  const metadataScript = deriveTokenizableMetadataScript(loadBlueprint(), 0);
  /** the CIP-68 list */
  let init = { txHash: "", index: 0 };
  let policy = "";
  const keys: string[] = [];
  /** the plain list */
  let plainPolicy = "";
  let plainKey = "";

  const clientFor = (wallet: Wallet) => new UVerifyClient({ baseUrl: base, signTx: cip30SignTx(wallet) });
  const build = (body: Record<string, unknown>) => postJson(`${w.mesh.api}${BUILD}`, body);
  const status = async (key: string, query: string): Promise<Status> => {
    const res = await http(`${w.mesh.api}${STATUS}/${key}?${query}`);
    expect(res.status, res.text).to.equal(200);
    return res.json as Status;
  };
  const awaitStatus = (key: string, query: string, ready: (s: Status) => boolean) =>
    pollUntil(async () => {
      const s = await status(key, query);
      return ready(s) ? s : undefined;
    }, `status of ${key}`);
  const refused = (res: HttpResult, code: string) => {
    expect(res.status, res.text).to.equal(400);
    expect(res.headers.get("content-type")).to.match(/application\/json/);
    const body = errorBody(res);
    expect(body.error, body.message).to.equal(code);
    expect(body.message).to.be.a("string").and.not.equal("");
    return body;
  };
  const holdings = (utxos: OgmiosUtxo[], policyId: string, name: string) =>
    utxos.filter((u) => BigInt((u.value as Record<string, Record<string, bigint>>)[policyId]?.[name] ?? 0n) > 0n);
  const initQuery = () => `initUtxoTxHash=${init.txHash}&initUtxoOutputIndex=${init.index}`;
  const metadataOf = (key: string) =>
    JSON.stringify({ name: `Diploma ${key.slice(0, 4)}`, image: "ipfs://bafkdiploma", description: "Master of Science" });

  before(async () => {
    w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "tokenizable"]);
    ({ alice, bob, issuer } = w.f.actors);
    base = w.mesh.api.replace(/\/api\/v1$/, "");
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 1000n }));
    await pollUntil(
      async () => ((await w.mesh.broker.call<unknown[], { name?: string }>("indexer.bootstraps", {})).length > 0 ? true : undefined),
      "bootstrap",
    );
    for (const wallet of [alice, bob, issuer]) await w.ensureCollateral(wallet);
  });
  after(async () => w?.close());

  it("is enabled in GET /extensions and names its CIP-68 metadata script", async () => {
    const ext = await http(`${w.mesh.api}/extensions`);
    expect(ext.status).to.equal(200);
    expect(ext.json).to.deep.include({ "tokenizable-certificate": true });
    const res = await http(`${w.mesh.api}/extension/tokenizable-certificate/metadata-script`);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ scriptHash: metadataScript.hash, address: metadataScript.address });
  });

  it("issueTokenizableCertificate with config (CIP-68 on) creates the list, and two more calls insert", async () => {
    const utxo = [...w.f.utxosOf(alice)].sort((a, b) => (BigInt(b.value.ada.lovelace) > BigInt(a.value.ada.lovelace) ? 1 : -1))[0]!;
    init = { txHash: utxo.transaction.id, index: Number(utxo.index) };
    const client = clientFor(alice);
    for (let i = 0; i < 3; i++) {
      const key = newKey();
      const out = await client.apps.issueTokenizableCertificate(alice.address, {
        certificate: { hash: key, metadata: metadataOf(key) },
        ownerPubKeyHash: bob.paymentKeyHash,
        // the list names the token after the key: a client sends that name, or "" to let the service fill it in
        assetNameHex: i === 0 ? nodeAssetName(key) : "",
        initUtxoTxHash: init.txHash,
        initUtxoOutputIndex: init.index,
        ...(i === 0
          ? {
              config: { deployer: alice.paymentKeyHash, allowedInserters: [alice.paymentKeyHash], cip68ScriptAddress: metadataScript.hash },
            }
          : {}),
      });
      expect(out.key).to.equal(key);
      expect(out.txHash).to.match(/^[0-9a-f]{64}$/);
      await w.confirm(out.txHash);
      const s = await awaitStatus(key, initQuery(), (x) => x.exists);
      expect(s.certificate.transactionHash).to.equal(out.txHash);
      policy = s.policyId!;
      keys.push(key);
    }
    // the keys are anchored as certificates /verify finds
    const verify = await http(`${w.mesh.api}/verify/${keys[1]}`);
    expect(verify.status, verify.text).to.equal(200);
  });

  it("getTokenizableCertificateStatus before and after redeemTokenizableCertificate; the tokens land where CIP-68 puts them", async () => {
    const key = keys[0]!;
    const before = (await clientFor(bob).apps.getTokenizableCertificateStatus(key, init.txHash, init.index)) as unknown as Status;
    expect(before).to.include({ key, exists: true, claimed: false, status: "Available", ownerPubKeyHash: bob.paymentKeyHash });
    expect(before.owner).to.match(/^addr_test1/);
    expect(before.assetName).to.equal(nodeAssetName(key));

    const txHash = await clientFor(bob).apps.redeemTokenizableCertificate({
      key,
      claimerAddress: bob.address,
      initUtxoTxHash: init.txHash,
      initUtxoOutputIndex: init.index,
      assetNameHex: nodeAssetName(key),
    });
    await w.confirm(txHash);
    const after = await awaitStatus(key, initQuery(), (x) => x.claimed);
    expect(after).to.include({ exists: true, claimed: true, status: "Redeemed", ownerPubKeyHash: bob.paymentKeyHash });
    const viaClient = (await clientFor(bob).apps.getTokenizableCertificateStatus(key, init.txHash, init.index)) as unknown as Status;
    expect(viaClient.claimed).to.equal(true);

    const user = holdings(w.f.utxosOf(bob), policy, cip68UserTokenName(nodeAssetName(key)));
    expect(user).to.have.length(1);
    const refs = holdings(w.f.chain.utxosAt(metadataScript.address), policy, cip68ReferenceTokenName(nodeAssetName(key)));
    expect(refs).to.have.length(1);
    const datum = decodeCip68Datum(dataFromCborHex(refs[0]!.datum!));
    expect(datum.metadata).to.deep.include({
      name: `Diploma ${key.slice(0, 4)}`,
      image: "ipfs://bafkdiploma",
      description: "Master of Science",
      certificateHash: key,
    });
    expect(datum.version).to.equal(1n);
  });

  it("plain mode (no CIP-68): a spec-form Init answers JSON, and the owner's Redeem mints the plain token to the owner", async () => {
    plainKey = newKey();
    const res = await build({
      type: "Init",
      address: bob.address,
      certificate: { hash: plainKey, metadata: { name: "Warranty" } },
      owner: alice.paymentKeyHash,
      config: { allowedInserters: [] },
    });
    expect(res.status, res.text).to.equal(200);
    const body = res.json as SpecBuild;
    expect(body.key).to.equal(plainKey);
    expect(res.headers.get("x-policy-id")).to.equal(body.policyId);
    plainPolicy = body.policyId;
    const txId = await w.signAndSubmit(body.unsignedTransaction, [bob]);
    await w.confirm(txId);
    await awaitStatus(plainKey, `policyId=${plainPolicy}`, (x) => x.exists);

    // open list (allowedInserters empty): issuer inserts
    const other = newKey();
    const ins = await build({
      type: "Insert",
      address: issuer.address,
      policyId: plainPolicy,
      certificate: { hash: other },
      owner: alice.address,
    });
    expect(ins.status, ins.text).to.equal(200);
    await w.confirm(await w.signAndSubmit((ins.json as SpecBuild).unsignedTransaction, [issuer]));
    expect((await awaitStatus(other, `policyId=${plainPolicy}`, (x) => x.exists)).ownerPubKeyHash).to.equal(alice.paymentKeyHash);

    const redeem = await build({ type: "Redeem", address: alice.address, policyId: plainPolicy, key: plainKey });
    expect(redeem.status, redeem.text).to.equal(200);
    await w.confirm(await w.signAndSubmit((redeem.json as SpecBuild).unsignedTransaction, [alice]));
    expect((await awaitStatus(plainKey, `policyId=${plainPolicy}`, (x) => x.claimed)).status).to.equal("Redeemed");
    expect(holdings(w.f.utxosOf(alice), plainPolicy, nodeAssetName(plainKey))).to.have.length(1);
    expect(
      holdings(w.f.chain.utxosAt(metadataScript.address), plainPolicy, cip68ReferenceTokenName(nodeAssetName(plainKey))),
    ).to.have.length(0);
  });

  it("refuses every request the validator would reject, with a 400 JSON naming the problem", async () => {
    const create = (over: Record<string, unknown>) =>
      build({
        type: "CREATE",
        senderAddress: alice.address,
        certificate: { hash: newKey() },
        ownerPubKeyHash: bob.paymentKeyHash,
        initUtxoTxHash: init.txHash,
        initUtxoOutputIndex: init.index,
        ...over,
      });
    const redeem = (over: Record<string, unknown>) =>
      build({
        type: "REDEEM",
        senderAddress: bob.address,
        certificate: { hash: keys[1] },
        initUtxoTxHash: init.txHash,
        initUtxoOutputIndex: init.index,
        ...over,
      });

    refused(await redeem({ certificate: { hash: keys[0] } }), "ALREADY_REDEEMED");
    refused(await redeem({ senderAddress: alice.address }), "NOT_OWNER");
    refused(await redeem({ certificate: { hash: newKey() } }), "UNKNOWN_KEY");
    refused(await redeem({ initUtxoTxHash: "ab".repeat(32) }), "UNKNOWN_LIST");
    refused(await create({ senderAddress: bob.address }), "NOT_ALLOWED_INSERTER");
    refused(await create({ certificate: { hash: keys[1] } }), "DUPLICATE_KEY");
    // another node's asset name (or any name but the key's) is refused, naming the key's
    const fresh = newKey();
    const named = refused(await create({ certificate: { hash: fresh }, assetName: nodeAssetName(keys[1]!) }), "INVALID_FIELD");
    expect(named).to.deep.include({ field: "assetName", assetName: nodeAssetName(fresh) });
    refused(await create({ certificate: { hash: "zz" } }), "INVALID_FIELD");
    refused(await create({ assetName: "abc" }), "INVALID_FIELD");
    refused(await create({ ownerPubKeyHash: "12" }), "INVALID_FIELD");
    const big = refused(
      await create({ certificate: { hash: newKey(), metadata: JSON.stringify({ name: "Big", description: "x".repeat(5000) }) } }),
      "METADATA_TOO_LARGE",
    );
    expect(big.maxDatumBytes).to.be.a("number");
    refused(await create({ assetName: hex("a".repeat(29)) }), "INVALID_FIELD");
    refused(
      await build({
        type: "Init",
        address: alice.address,
        certificate: { hash: newKey() },
        owner: bob.paymentKeyHash,
        config: { cip68ScriptAddress: "cd".repeat(28) },
      }),
      "INVALID_FIELD",
    );
    refused(await build({ type: "Mint" }), "INVALID_FIELD");
    refused(await build({ type: "Redeem", address: alice.address, key: plainKey }), "INVALID_FIELD");
    const st = await http(`${w.mesh.api}${STATUS}/${keys[1]}?initUtxoTxHash=zz`);
    expect(st.status, st.text).to.equal(400);
    expect(errorBody(st).error).to.equal("INVALID_FIELD");
    // an unknown key of a known list, and an unknown list, are not errors: exists false
    expect((await status(newKey(), initQuery())).exists).to.equal(false);
    expect((await status(keys[1]!, `policyId=${"ab".repeat(28)}`)).exists).to.equal(false);
  });

  it("a rollback of a confirmed redeem reverts the status; the redeem lands again once re-included", async () => {
    const key = keys[2]!;
    const res = await build({
      type: "REDEEM",
      senderAddress: bob.address,
      certificate: { hash: key },
      initUtxoTxHash: init.txHash,
      initUtxoOutputIndex: init.index,
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/text\/plain/);
    expect(res.text).to.match(/^[0-9a-f]+$/);
    const txId = await w.signAndSubmit(res.text, [bob]);
    await w.confirm(txId);
    await awaitStatus(key, initQuery(), (x) => x.claimed);

    w.f.chain.devnet.rollback(1);
    const reverted = await awaitStatus(key, initQuery(), (x) => !x.claimed);
    expect(reverted.status).to.equal("Available");
    await w.confirm(txId);
    expect((await awaitStatus(key, initQuery(), (x) => x.claimed)).status).to.equal("Redeemed");
  });
});
