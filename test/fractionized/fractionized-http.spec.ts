/**
 * The fractionized-certificate extension over HTTP on the embedded mesh, with wallets signing for real: Init
 * through both body forms, inserts in random order giving a sorted list, claims down to exhaustion, the status
 * at each step, the certificate found by /verify, and every refusal as a 400 JSON answer.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { decodeTx } from "../../shared/csl";
import { compareByteStrings } from "../../shared/protocol";
import { fractionizedNodeTokenName } from "../../shared/extensions/fractionized/scripts";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import type { Wallet } from "../../shared/wallet";
import { newWallet } from "../../fixtures/onchain/test-chain";
import { errorBody, http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import { ISSUANCE_SERVICES, IssuanceWorld } from "../../fixtures/issuance/issuance-world";

const BUILD = "/extension/fractionized-certificate/build";
const STATUS = "/extension/fractionized-certificate/status";
const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");
/** A random key that sorts below 0xfd…: the rollback test inserts 0xfd…, 0xfe… and the two 0xff… keys last in the list. */
const newKey = () => {
  const b = randomBytes(32);
  b[0] = b[0]! % 0xfd;
  return b.toString("hex");
};

interface Status {
  key: string;
  exists: boolean;
  policyId: string | null;
  initUtxoTxHash: string | null;
  initUtxoOutputIndex: number | null;
  totalAmount: number;
  remainingAmount: number;
  exhausted: boolean;
  status: string | null;
  claimants: string[];
  assetName: string | null;
  next: string | null;
  certificate: { transactionHash: string | null; blockNumber: number | null };
  keys: string[];
}

interface SpecBuild {
  unsignedTransaction: string;
  policyId: string;
  initUtxoTxHash: string;
  initUtxoOutputIndex: number;
  key: string;
}

describe("fractionized certificates over HTTP: lists, inserts, claims and refusals", function () {
  this.timeout(300_000);
  let w: IssuanceWorld;
  let alice: Wallet;
  let bob: Wallet;
  let issuer: Wallet;
  /** alice's list (spec-form Init) */
  let policy = "";
  let firstKey = "";
  const inserted: string[] = [];

  const build = (body: Record<string, unknown>) => postJson(`${w.mesh.api}${BUILD}`, body);
  const status = async (key: string, query: string): Promise<Status> => {
    const res = await http(`${w.mesh.api}${STATUS}/${key}?${query}`);
    expect(res.status, res.text).to.equal(200);
    return res.json as Status;
  };
  /** Sign, submit, confirm, and wait until the list record shows the key's node in the state `ready` wants. */
  const land = async (unsigned: string, signers: Wallet[]) => {
    const txId = await w.signAndSubmit(unsigned, signers);
    await w.confirm(txId);
    return txId;
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
    return body;
  };
  const specInsert = (key: string, over: Record<string, unknown> = {}) => ({
    type: "Insert",
    address: alice.address,
    policyId: policy,
    certificate: { hash: key, metadata: { uv_tid: "carbon-credit" } },
    tokenAmount: 10,
    claimants: [],
    ...over,
  });

  before(async () => {
    w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "fractionized"]);
    ({ alice, bob, issuer } = w.f.actors);
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 1000n }));
    await pollUntil(
      async () => ((await w.mesh.broker.call<unknown[], { name?: string }>("indexer.bootstraps", {})).length > 0 ? true : undefined),
      "bootstrap",
    );
    for (const wallet of [alice, bob, issuer]) await w.ensureCollateral(wallet);
  });
  after(async () => w?.close());

  it("is enabled in GET /extensions", async () => {
    const res = await http(`${w.mesh.api}/extensions`);
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.include({ "fractionized-certificate": true });
  });

  it("Init (spec form, no init UTxO given) answers JSON with the policy id, lands, and anchors the key as a certificate /verify finds", async () => {
    firstKey = newKey();
    const res = await build({
      type: "Init",
      address: alice.address,
      certificate: { hash: firstKey, metadata: { uv_tid: "carbon-credit" } },
      tokenAmount: 100,
      // a client may name the asset, as long as it is the name the list gives it: blake2b-224 of the key
      assetName: nodeAssetName(firstKey),
      claimants: [bob.paymentKeyHash],
    });
    expect(res.status, res.text).to.equal(200);
    const body = res.json as SpecBuild;
    expect(body.key).to.equal(firstKey);
    expect(body.policyId).to.match(/^[0-9a-f]{56}$/);
    expect(res.headers.get("x-policy-id")).to.equal(body.policyId);
    policy = body.policyId;
    const tx = decodeTx(body.unsignedTransaction);
    expect(tx.inputs.map((i) => `${i.txHash}#${i.index}`)).to.include(`${body.initUtxoTxHash}#${body.initUtxoOutputIndex}`);
    const txId = await land(body.unsignedTransaction, [alice]);

    const s = await awaitStatus(firstKey, `policyId=${policy}`, (x) => x.exists);
    expect(s).to.deep.include({
      exists: true,
      policyId: policy,
      initUtxoTxHash: body.initUtxoTxHash,
      initUtxoOutputIndex: body.initUtxoOutputIndex,
      totalAmount: 100,
      remainingAmount: 100,
      exhausted: false,
      status: "TokensAvailable",
      assetName: nodeAssetName(firstKey),
      next: null,
    });
    expect(s.claimants).to.deep.equal([bob.paymentKeyHash]);
    expect(s.certificate.transactionHash).to.equal(txId);
    expect(s.certificate.blockNumber).to.be.a("number");
    // the same node by the init output reference
    const byRef = await status(firstKey, `initUtxoTxHash=${body.initUtxoTxHash}&initUtxoOutputIndex=${body.initUtxoOutputIndex}`);
    expect(byRef.exists).to.equal(true);

    const verified = await pollUntil(async () => {
      const r = await http(`${w.mesh.api}/verify/${firstKey}`);
      return r.status === 200 ? (r.json as { transactionHash: string; metadata: string }[]) : undefined;
    }, "certificate of the key");
    expect(verified[0]!.transactionHash).to.equal(txId);
    expect(JSON.parse(verified[0]!.metadata)).to.deep.include({
      extension: "fractionized-certificate",
      policyId: policy,
      uv_tid: "carbon-credit",
    });
  });

  it("Init (reference form CREATE on a new init UTxO) answers 200 text/plain raw hex, then CREATE on that list inserts, and REDEEM claims", async () => {
    const initUtxo = w.f.chain
      .utxosAt(bob.address)
      .filter((u) => Object.keys(u.value).length === 1)
      .sort((a, b) => (BigInt(b.value.ada.lovelace) > BigInt(a.value.ada.lovelace) ? 1 : -1))[0]!;
    const list = { senderAddress: bob.address, initUtxoTxHash: initUtxo.transaction.id, initUtxoOutputIndex: initUtxo.index };
    // a first byte above 0x00, so the second key below (its first byte 0x00) is another key that sorts before it
    const key = "80" + newKey().slice(2);
    const res = await build({ type: "CREATE", ...list, key, totalAmount: 5, claimants: [] });
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/text\/plain/);
    expect(res.text).to.match(/^[0-9a-f]+$/);
    const refPolicy = res.headers.get("x-policy-id")!;
    expect(refPolicy)
      .to.match(/^[0-9a-f]{56}$/)
      .and.not.equal(policy);
    await land(res.text, [bob]);
    const query = `initUtxoTxHash=${initUtxo.transaction.id}&initUtxoOutputIndex=${initUtxo.index}`;
    expect((await awaitStatus(key, query, (s) => s.exists)).policyId).to.equal(refPolicy);

    // CREATE again on the same init UTxO: the list exists now, so it is an Insert
    const second = "00" + key.slice(2);
    const insert = await build({ type: "CREATE", ...list, key: second, totalAmount: 3, claimants: [] });
    expect(insert.status, insert.text).to.equal(200);
    expect(insert.headers.get("x-policy-id")).to.equal(refPolicy);
    await land(insert.text, [bob]);
    const s = await awaitStatus(second, query, (x) => x.exists);
    expect(s.keys).to.deep.equal([second, key]);

    const redeem = await build({ type: "REDEEM", ...list, key, amount: 2 });
    expect(redeem.status, redeem.text).to.equal(200);
    expect(redeem.headers.get("content-type")).to.match(/text\/plain/);
    await land(redeem.text, [bob]);
    expect((await awaitStatus(key, query, (x) => x.remainingAmount === 3)).status).to.equal("TokensAvailable");
  });

  it("five inserts in random order (one before the first key) give a sorted list, with the status after each", async () => {
    const keys = [
      "00" + newKey().slice(2), // before every key
      ...Array.from({ length: 4 }, newKey),
    ];
    for (const k of [...keys].sort(() => Math.random() - 0.5)) {
      const res = await build(specInsert(k));
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get("x-policy-id")).to.equal(policy);
      const txId = await land((res.json as SpecBuild).unsignedTransaction, [alice]);
      inserted.push(k);
      const s = await awaitStatus(k, `policyId=${policy}`, (x) => x.exists);
      expect(s).to.deep.include({ totalAmount: 10, remainingAmount: 10, status: "TokensAvailable" });
      expect(s.certificate.transactionHash).to.equal(txId);
      const expected = [firstKey, ...inserted].sort(compareByteStrings);
      expect(s.keys).to.deep.equal(expected);
      expect(s.next).to.equal(expected[expected.indexOf(k) + 1] ?? null);
    }
  });

  it("claims by a listed claimer and by anyone on an open node run down to exhaustion", async () => {
    // alice's first node lists bob only
    const claim = (wallet: Wallet, key: string, amount: number) =>
      build({ type: "Claim", address: wallet.address, policyId: policy, key, amount });
    for (const [amount, left] of [
      [30, 70],
      [70, 0],
    ] as const) {
      const res = await claim(bob, firstKey, amount);
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get("x-policy-id")).to.equal(policy);
      await land((res.json as SpecBuild).unsignedTransaction, [bob]);
      const s = await awaitStatus(firstKey, `policyId=${policy}`, (x) => x.remainingAmount === left);
      expect(s.exhausted).to.equal(left === 0);
      expect(s.status).to.equal(left === 0 ? "TokensExhausted" : "TokensAvailable");
    }
    const held = w.f.chain
      .utxosAt(bob.address)
      .reduce((sum, u) => sum + BigInt((u.value as Record<string, Record<string, bigint>>)[policy]?.[nodeAssetName(firstKey)] ?? 0n), 0n);
    expect(held).to.equal(100n);

    // an open node: anyone may claim, here the issuer wallet in two steps to zero
    const open = inserted[1]!;
    for (const [amount, left] of [
      [4, 6],
      [6, 0],
    ] as const) {
      const res = await claim(issuer, open, amount);
      expect(res.status, res.text).to.equal(200);
      await land((res.json as SpecBuild).unsignedTransaction, [issuer]);
      await awaitStatus(open, `policyId=${policy}`, (x) => x.remainingAmount === left);
    }
    expect((await status(open, `policyId=${policy}`)).exhausted).to.equal(true);
  });

  it("chains inserts and claims off transactions still in flight on the same list", async () => {
    // kB sorts right after kA and both after every other key: kB's predecessor is kA's node, still pending
    const kA = "ff".repeat(31) + "00";
    const kB = "ff".repeat(32);
    const a = await build(specInsert(kA));
    expect(a.status, a.text).to.equal(200);
    const txA = await w.signAndSubmit((a.json as SpecBuild).unsignedTransaction, [alice]);
    const b = await build(specInsert(kB));
    expect(b.status, b.text).to.equal(200);
    const spent = decodeTx((b.json as SpecBuild).unsignedTransaction).inputs.map((i) => i.txHash);
    expect(spent).to.include(txA);
    const txB = await w.signAndSubmit((b.json as SpecBuild).unsignedTransaction, [alice]);
    // two claims of one open node before any confirmation
    const open = inserted[2]!;
    const c1 = await build({ type: "Claim", address: issuer.address, policyId: policy, key: open, amount: 3 });
    expect(c1.status, c1.text).to.equal(200);
    const txC1 = await w.signAndSubmit((c1.json as SpecBuild).unsignedTransaction, [issuer]);
    const c2 = await build({ type: "Claim", address: bob.address, policyId: policy, key: open, amount: 2 });
    expect(c2.status, c2.text).to.equal(200);
    expect(decodeTx((c2.json as SpecBuild).unsignedTransaction).inputs.map((i) => i.txHash)).to.include(txC1);
    // a claim above what remains once the pending claim lands is refused already
    refused(await build({ type: "Claim", address: bob.address, policyId: policy, key: open, amount: 8 }), "AMOUNT_OUT_OF_RANGE");
    const txC2 = await w.signAndSubmit((c2.json as SpecBuild).unsignedTransaction, [bob]);
    for (const tx of [txA, txB, txC1, txC2]) await w.confirm(tx);
    const s = await awaitStatus(kA, `policyId=${policy}`, (x) => x.exists && x.next === kB);
    expect(s.keys.slice(-2)).to.deep.equal([kA, kB]);
    inserted.push(kA, kB);
    expect((await awaitStatus(open, `policyId=${policy}`, (x) => x.remainingAmount === 5)).status).to.equal("TokensAvailable");
  });

  it("a rollback of a confirmed insert reverts the status; it and the insert built on it land once re-included", async () => {
    const k = "fd".repeat(32); // after every key but the two 0xff keys: its predecessor is a confirmed node
    const res = await build(specInsert(k));
    expect(res.status, res.text).to.equal(200);
    const txId = await land((res.json as SpecBuild).unsignedTransaction, [alice]);
    await awaitStatus(k, `policyId=${policy}`, (x) => x.exists);
    // an insert right after k, built on k's confirmed node and still in flight
    const dependent = "fe".repeat(32);
    const dep = await build(specInsert(dependent));
    expect(dep.status, dep.text).to.equal(200);
    expect(decodeTx((dep.json as SpecBuild).unsignedTransaction).inputs.map((i) => i.txHash)).to.include(txId);
    const depTx = await w.signAndSubmit((dep.json as SpecBuild).unsignedTransaction, [alice]);

    w.f.chain.devnet.rollback(1);
    const gone = await awaitStatus(k, `policyId=${policy}`, (x) => !x.exists);
    expect(gone.keys).to.not.include(k);
    // the devnet put the rolled-back transaction back into its mempool, before the one built on it
    await w.confirm(txId);
    await w.confirm(depTx);
    const back = await awaitStatus(dependent, `policyId=${policy}`, (x) => x.exists);
    expect(back.keys.slice(-4)).to.deep.equal([k, dependent, "ff".repeat(31) + "00", "ff".repeat(32)]);
    expect((await status(k, `policyId=${policy}`)).certificate.transactionHash).to.equal(txId);
    inserted.push(k, dependent);
  });

  it("refuses every request the validator would reject, with a 400 JSON naming the problem", async () => {
    const claim = (over: Record<string, unknown>) =>
      build({ type: "Claim", address: bob.address, policyId: policy, key: inserted[3], amount: 1, ...over });
    refused(await claim({ amount: 0 }), "AMOUNT_OUT_OF_RANGE");
    refused(await claim({ amount: -3 }), "AMOUNT_OUT_OF_RANGE");
    const above = refused(await claim({ amount: 11 }), "AMOUNT_OUT_OF_RANGE");
    expect(above.message).to.match(/at most 10/);
    refused(await claim({ key: firstKey }), "TOKENS_EXHAUSTED");
    refused(await claim({ key: newKey() }), "UNKNOWN_KEY");
    refused(await claim({ policyId: "ab".repeat(28) }), "UNKNOWN_LIST");
    refused(await claim({ key: "zz" }), "INVALID_FIELD");
    refused(await claim({ claimer: "12" }), "INVALID_FIELD");

    // a node listing bob only refuses the issuer wallet
    const listed = newKey();
    const res = await build(specInsert(listed, { claimants: [bob.paymentKeyHash] }));
    expect(res.status, res.text).to.equal(200);
    await land((res.json as SpecBuild).unsignedTransaction, [alice]);
    await awaitStatus(listed, `policyId=${policy}`, (x) => x.exists);
    refused(await build({ type: "Claim", address: issuer.address, policyId: policy, key: listed, amount: 1 }), "CLAIMER_NOT_LISTED");

    const duplicate = await build(specInsert(inserted[0]!));
    refused(duplicate, "DUPLICATE_KEY");
    expect(duplicate.headers.get("x-policy-id"), "a refusal about a known list names it").to.equal(policy);
    refused(await build(specInsert(newKey(), { address: bob.address })), "NOT_ALLOWED_INSERTER");
    refused(await build(specInsert(newKey(), { policyId: "cd".repeat(28) })), "UNKNOWN_LIST");
    // asset names are derived from the key: another node's name (or any other) is refused, naming the right one
    const key = newKey();
    const taken = refused(await build(specInsert(key, { assetName: nodeAssetName(firstKey) })), "INVALID_FIELD");
    expect(taken).to.deep.include({ field: "assetName", assetName: nodeAssetName(key) });
    expect(taken.message).to.include(nodeAssetName(key));
    refused(await build(specInsert(newKey(), { assetName: hex("CARBON") })), "INVALID_FIELD");
    refused(await build(specInsert(newKey(), { assetName: "xyz" })), "INVALID_FIELD");
    refused(await build(specInsert(newKey(), { tokenAmount: 0 })), "AMOUNT_OUT_OF_RANGE");
    refused(await build(specInsert(newKey(), { certificate: { hash: "abc" } })), "INVALID_FIELD");
    refused(await build(specInsert(newKey(), { claimants: ["nothex"] })), "INVALID_FIELD");
    // free-text fields are bounded: an oversized address or metadata is refused before any chain work
    const longAddress = refused(await build(specInsert(newKey(), { address: `addr_test1${"q".repeat(300)}` })), "INVALID_FIELD");
    expect(longAddress.message).to.match(/^address is too long/);
    const bigMetadata = { certificate: { hash: newKey(), metadata: JSON.stringify({ note: "x".repeat(20_000) }) } };
    expect(refused(await build(specInsert(newKey(), bigMetadata)), "INVALID_FIELD").message).to.match(
      /^certificate\.metadata must be at most/,
    );
    const bigObject = { certificate: { hash: newKey(), metadata: { note: "x".repeat(20_000) } } };
    expect(refused(await build(specInsert(newKey(), bigObject)), "INVALID_FIELD").message).to.match(
      /^certificate\.metadata must be at most/,
    );
    // what goes on chain is printable: no control character or lone surrogate in the certificate's text, a whole identity record
    const unprintable = (certificate: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      build(specInsert(newKey(), { certificate: { hash: newKey(), ...certificate }, ...extra }));
    expect(refused(await unprintable({ algorithm: "SHA\u0000" }), "INVALID_FIELD")).to.include({ field: "certificate.algorithm" });
    expect(refused(await unprintable({ algorithm: "" }), "INVALID_FIELD").message).to.match(/^certificate\.algorithm must be a non-empty/);
    const escape = refused(await unprintable({ metadata: { name: "\u001b[31mred" } }), "INVALID_FIELD");
    expect(escape).to.include({ field: "certificate.metadata.name" });
    expect(escape.message).to.match(/U\+001B/);
    expect(refused(await unprintable({ metadata: { name: "x\udc00" } }), "INVALID_FIELD").message).to.match(/lone surrogate/);
    const noType = refused(await unprintable({ metadata: { uv_tid: "IdentityAuth", t: "AUTH" } }), "INVALID_FIELD");
    expect(noType.message).to.match(/^certificate\.metadata is an IdentityAuth AUTH record without its credential type/);
    expect(refused(await unprintable({}, { bootstrapTokenName: "default\u0085" }), "INVALID_FIELD")).to.include({
      field: "bootstrapTokenName",
    });
    const referenceCreate = {
      type: "CREATE",
      initUtxoTxHash: "ef".repeat(32),
      initUtxoOutputIndex: 0,
      key: newKey(),
      totalAmount: 1,
    };
    const longSender = refused(await build({ ...referenceCreate, senderAddress: `addr_test1${"q".repeat(300)}` }), "INVALID_FIELD");
    expect(longSender.message).to.match(/^senderAddress is too long/);
    refused(
      await build({
        type: "Init",
        address: alice.address,
        policyId: policy,
        certificate: { hash: newKey() },
        tokenAmount: 1,
      }),
      "INVALID_FIELD",
    );
    refused(await build({ type: "Mint" }), "INVALID_FIELD");
    refused(
      await build({
        type: "CREATE",
        senderAddress: alice.address,
        initUtxoTxHash: "ef".repeat(32),
        initUtxoOutputIndex: 0,
        key: newKey(),
        totalAmount: 1,
      }),
      "INIT_UTXO_UNAVAILABLE",
    );

    // status: malformed parameters are 400, an unknown key or list answers exists: false
    expect((await http(`${w.mesh.api}${STATUS}/zz?policyId=${policy}`)).status).to.equal(400);
    expect((await http(`${w.mesh.api}${STATUS}/${newKey()}`)).status).to.equal(400);
    expect((await http(`${w.mesh.api}${STATUS}/${newKey()}?policyId=12`)).status).to.equal(400);
    const unknown = await status(newKey(), `policyId=${policy}`);
    expect(unknown).to.deep.include({ exists: false, policyId: policy, totalAmount: 0, remainingAmount: 0, status: null, assetName: null });
    expect(unknown.certificate).to.deep.equal({ transactionHash: null, blockNumber: null });
    const noList = await status(newKey(), `policyId=${"ab".repeat(28)}`);
    expect(noList).to.deep.include({ exists: false, initUtxoTxHash: null, keys: [] });
    expect(fractionizedNodeTokenName(firstKey)).to.have.length(62);
  });

  it("Init on the UTxO the service keeps as the wallet's collateral puts up the wallet's other ADA-only UTxO instead, and lands", async () => {
    // carol: a 7 ADA UTxO (the dedicated collateral: the smallest ADA-only one of 5 to 10 ADA) and a 300 ADA one
    const carol = newWallet();
    const { txId: funded } = await w.f.chain.submit(
      {
        utxos: w.f.utxosOf(issuer),
        changeAddress: issuer.address,
        outputs: [
          { address: carol.address, lovelace: 7_000_000n },
          { address: carol.address, lovelace: 300_000_000n },
        ],
      },
      [issuer],
    );
    await w.confirm(funded);
    const own = w.f.chain.utxosAt(carol.address);
    const kept = own.find((u) => BigInt(u.value.ada.lovelace) === 7_000_000n)!;
    const other = own.find((u) => BigInt(u.value.ada.lovelace) === 300_000_000n)!;
    const key = newKey();
    const list = { senderAddress: carol.address, initUtxoTxHash: kept.transaction.id, initUtxoOutputIndex: kept.index };
    const res = await build({ type: "CREATE", ...list, key, totalAmount: 4, claimants: [] });
    expect(res.status, res.text).to.equal(200);
    const tx = decodeTx(res.text);
    expect(tx.inputs.map((i) => `${i.txHash}#${i.index}`)).to.include(`${kept.transaction.id}#${kept.index}`);
    expect(tx.collateral.map((i) => `${i.txHash}#${i.index}`)).to.deep.equal([`${other.transaction.id}#${other.index}`]);
    await land(res.text, [carol]);
    const s = await awaitStatus(key, `initUtxoTxHash=${kept.transaction.id}&initUtxoOutputIndex=${kept.index}`, (x) => x.exists);
    expect(s).to.deep.include({ policyId: res.headers.get("x-policy-id"), totalAmount: 4, assetName: nodeAssetName(key) });
  });

  it("refuses INIT_UTXO_UNAVAILABLE when the init UTxO is the wallet's collateral and no other UTxO can be one", async () => {
    // dave: a 7 ADA UTxO (the collateral) and a 3 ADA one, too small to be a collateral
    const dave = newWallet();
    const { txId: funded } = await w.f.chain.submit(
      {
        utxos: w.f.utxosOf(issuer),
        changeAddress: issuer.address,
        outputs: [
          { address: dave.address, lovelace: 7_000_000n },
          { address: dave.address, lovelace: 3_000_000n },
        ],
      },
      [issuer],
    );
    await w.confirm(funded);
    const kept = w.f.chain.utxosAt(dave.address).find((u) => BigInt(u.value.ada.lovelace) === 7_000_000n)!;
    const res = await build({
      type: "CREATE",
      senderAddress: dave.address,
      initUtxoTxHash: kept.transaction.id,
      initUtxoOutputIndex: kept.index,
      key: newKey(),
      totalAmount: 1,
    });
    const body = refused(res, "INIT_UTXO_UNAVAILABLE");
    expect(body.message).to.match(/only UTxO .* collateral/);
    expect(body).to.deep.include({ initUtxoTxHash: kept.transaction.id, initUtxoOutputIndex: kept.index });
  });
});
