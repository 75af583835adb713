/**
 * POST /transaction/submit and GET /transaction/confirm through the gateway, with the real submitter and indexer
 * over a devnet whose blocks the test produces: witness merging keeps the id, ledger rejections come back as 400
 * with the ledger's reason, an input spent by a transaction still in the mempool is 409.
 */
import { expect } from "chai";
import { buildPayment, txIdOf } from "../../shared/csl";
import { createChainClient, type ChainClient } from "../../shared/chain";
import type { OgmiosUtxo } from "../../shared/csl/utxo";
import { Devnet, startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { InflightRegistry } from "../../shared/inflight";
import { createStore, type Store } from "../../shared/store";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { errorBody, http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";

describe("submission: POST /transaction/submit over a devnet", function () {
  this.timeout(60_000);
  const payer = Wallet.fromMnemonic(generateMnemonic());
  const payee = Wallet.fromMnemonic(generateMnemonic());
  let devnet: Devnet;
  let server: DevnetServer;
  let client: ChainClient;
  let store: Store;
  let mesh: RunningMesh;

  const submit = (body: Record<string, unknown>) => postJson(`${mesh.api}/transaction/submit`, body);
  /** an unsigned payment from the payer's confirmed UTxOs (optionally only from `from`) */
  const unsignedPayment = async (lovelace: bigint, from?: OgmiosUtxo[]) => {
    const utxos = from ?? ((await client.utxosByAddresses([payer.address])) as unknown as OgmiosUtxo[]);
    return buildPayment({
      protocolParameters: await client.protocolParameters(),
      utxos,
      changeAddress: payer.address,
      outputs: [{ address: payee.address, lovelace }],
    });
  };

  before(async () => {
    devnet = await Devnet.create({
      genesis: [
        { address: payer.address, lovelace: 500_000_000n },
        { address: payer.enterpriseAddress, lovelace: 500_000_000n },
      ],
    });
    server = await startDevnetServer(devnet, { port: 0 });
    client = createChainClient({ url: server.url });
    store = await createStore({ inMemory: true });
    mesh = await startMesh({
      services: ["gateway", "submitter", "indexer"],
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet },
    });
  });
  after(async () => {
    await mesh?.stop();
    await client?.close();
    await store?.close();
    await server?.close();
    await devnet?.close();
  });

  it("merges the witness set without touching the body: answers the id of the unsigned transaction; confirm goes 404 → 200", async () => {
    const built = await unsignedPayment(3_000_000n);
    const res = await submit({ transaction: built.cborHex, witnessSet: payer.signTx(built.cborHex) });
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ transactionHash: built.txId });
    expect(txIdOf(built.cborHex)).to.equal(built.txId);

    expect((await http(`${mesh.api}/transaction/confirm/${built.txId}`)).status).to.equal(404);
    devnet.produceBlock();
    const confirmed = await pollUntil(async () => {
      const r = await http(`${mesh.api}/transaction/confirm/${built.txId.toUpperCase()}`);
      return r.status === 200 ? r : undefined;
    }, "the confirmation");
    expect(confirmed.json).to.include({ transactionHash: built.txId, confirmed: true });
    const paid = await client.utxosByAddresses([payee.address]);
    expect(paid.map((u) => u.transaction.id)).to.include(built.txId);
  });

  it("answers the same hash when the same transaction is submitted again, in the mempool and once on chain", async () => {
    const built = await unsignedPayment(2_500_000n);
    const body = { transaction: built.cborHex, witnessSet: payer.signTx(built.cborHex) };
    expect((await submit(body)).json).to.deep.equal({ transactionHash: built.txId });
    const again = await submit(body);
    expect(again.status, again.text).to.equal(200);
    expect(again.json).to.deep.equal({ transactionHash: built.txId });
    devnet.produceBlock();
    await pollUntil(
      async () => ((await http(`${mesh.api}/transaction/confirm/${built.txId}`)).status === 200 ? true : undefined),
      "confirmation",
    );
    const onChain = await submit(body);
    expect(onChain.status, onChain.text).to.equal(200);
    expect(onChain.json).to.deep.equal({ transactionHash: built.txId });
  });

  it("accepts the snake_case alias witness_set and an already signed transaction without a witness set", async () => {
    const a = await unsignedPayment(2_000_000n);
    const res = await submit({ transaction: a.cborHex, witness_set: payer.signTx(a.cborHex) });
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({ transactionHash: a.txId });
    devnet.produceBlock();
    await pollUntil(
      async () => ((await http(`${mesh.api}/transaction/confirm/${a.txId}`)).status === 200 ? true : undefined),
      "confirmation",
    );

    const b = await unsignedPayment(2_000_000n);
    const signed = await submit({ transaction: payer.signTxFull(b.cborHex) });
    expect(signed.status, signed.text).to.equal(200);
    expect(signed.json).to.deep.equal({ transactionHash: b.txId });
    devnet.produceBlock();
    await pollUntil(
      async () => ((await http(`${mesh.api}/transaction/confirm/${b.txId}`)).status === 200 ? true : undefined),
      "confirmation",
    );
  });

  it("rejects an unsigned transaction with 400: the ledger's reason names the missing signer, with the Ogmios code", async () => {
    const built = await unsignedPayment(2_000_000n);
    const res = await submit({ transaction: built.cborHex });
    expect(res.status).to.equal(400);
    const body = errorBody(res);
    expect(body.error).to.equal("LEDGER_REJECTED");
    expect(body["code"]).to.equal(3101);
    expect(body["reason"]).to.equal("MissingSignatories");
    expect(body.message).to.contain("missing signatures").and.to.contain(payer.paymentKeyHash);
  });

  it("rejects a transaction altered after signing with 400 naming the signature problem", async () => {
    const built = await unsignedPayment(2_000_000n);
    const witnessSet = payer.signTx(built.cborHex);
    // the fee's last byte +1: still a well-formed transaction, but no longer the body that was signed
    const other = await unsignedPayment(2_000_001n);
    const res = await submit({ transaction: other.cborHex, witnessSet });
    expect(res.status).to.equal(400);
    const body = errorBody(res);
    expect(body.error).to.equal("LEDGER_REJECTED");
    expect([3100, 3101]).to.include(body["code"]);
    expect(body.message).to.match(/signature/i);
  });

  it("answers 409 INPUTS_IN_FLIGHT when an input is spent by a transaction still in the mempool, 400 once that one is in a block", async () => {
    const utxos = (await client.utxosByAddresses([payer.enterpriseAddress])) as unknown as OgmiosUtxo[];
    expect(utxos).to.have.length(1);
    const build = async (lovelace: bigint) =>
      buildPayment({
        protocolParameters: await client.protocolParameters(),
        utxos,
        changeAddress: payer.enterpriseAddress,
        outputs: [{ address: payee.address, lovelace }],
      });
    const first = await build(4_000_000n);
    const second = await build(5_000_000n);
    expect((await submit({ transaction: first.cborHex, witnessSet: payer.signTx(first.cborHex) })).status).to.equal(200);

    const conflict = await submit({ transaction: second.cborHex, witnessSet: payer.signTx(second.cborHex) });
    expect(conflict.status).to.equal(409);
    const body = errorBody(conflict);
    expect(body.error).to.equal("INPUTS_IN_FLIGHT");
    expect(body["inputs"]).to.deep.equal([`${utxos[0]!.transaction.id}#${utxos[0]!.index}`]);
    expect(body.message).to.contain("still waiting to be included in a block");

    devnet.produceBlock();
    await pollUntil(
      async () => ((await http(`${mesh.api}/transaction/confirm/${first.txId}`)).status === 200 ? true : undefined),
      "confirmation",
    );
    const spent = await submit({ transaction: second.cborHex, witnessSet: payer.signTx(second.cborHex) });
    expect(spent.status).to.equal(400);
    expect(errorBody(spent)).to.include({ error: "LEDGER_REJECTED", code: 3117 });
  });

  it("records a submission in flight (inputs locked, outputs pending) and releases it when its block arrives", async () => {
    const registry = await InflightRegistry.open(store, Date.now);
    const confirmedNow = async () => (await client.utxosByAddresses([payer.address])) as unknown as OgmiosUtxo[];
    const before = await confirmedNow();
    const built = await unsignedPayment(7_000_000n, before);
    const submittedAt = Date.now();
    expect((await submit({ transaction: built.cborHex, witnessSet: payer.signTx(built.cborHex) })).status).to.equal(200);

    const doc = await store.collection<{ _id: string; expiresAt: number }>("inflight_txs").findOne({ _id: built.txId });
    expect(doc, "the submission is recorded").to.not.equal(undefined);
    // a payment without a validity upper bound is held for the service's cap (10 minutes)
    expect(doc!.expiresAt).to.be.within(submittedAt + 10 * 60_000, Date.now() + 10 * 60_000);
    const spendable = await registry.spendable(payer.address, before, payer.paymentKeyHash);
    const spentRefs = new Set(spendable.map((u) => `${u.transaction.id}#${u.index}`));
    for (const u of before) expect(spentRefs.has(`${u.transaction.id}#${u.index}`), "confirmed inputs are locked").to.equal(false);
    expect(
      spendable.some((u) => u.transaction.id === built.txId),
      "the change output is pending and spendable",
    ).to.equal(true);

    devnet.produceBlock();
    await pollUntil(
      async () => ((await store.collection("inflight_txs").findOne({ _id: built.txId })) === undefined ? true : undefined),
      "release on chain.block",
    );
    const after = await confirmedNow();
    expect((await registry.spendable(payer.address, after, payer.paymentKeyHash)).map((u) => u.transaction.id)).to.deep.equal(
      after.map((u) => u.transaction.id),
    );
  });

  it("rejects malformed input with 400 JSON and never reaches the chain", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ transaction: "zz" }, "INVALID_TRANSACTION"],
      [{ transaction: "abc" }, "INVALID_TRANSACTION"],
      [{ transaction: "a0" }, "INVALID_TRANSACTION"],
      [{ transaction: "84a0a0f5f6", witnessSet: "01" }, "INVALID_TRANSACTION"],
      [{}, "VALIDATION_ERROR"],
      [{ transaction: 12 }, "VALIDATION_ERROR"],
    ];
    for (const [body, error] of cases) {
      const res = await submit(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorBody(res).error, JSON.stringify(body)).to.equal(error);
    }
    expect(devnet.produceBlock(), "nothing reached the mempool").to.equal(undefined);
  });
});
