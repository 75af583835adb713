import { expect } from "chai";
import { enterpriseAddressOfKeyHash } from "../../../shared/csl/address";
import { FactConsumer } from "../../../shared/indexer/fact-consumer";
import { FactLog, type BlockFacts } from "../../../shared/indexer/fact-log";
import type { ProtocolFact } from "../../../shared/indexer/protocol-decoder";
import { StatsProjection } from "../../../shared/stats/stats-projection";
import { createStore, type Store, type StoredDocument } from "../../../shared/store";
import { CertificateProjection } from "../../../shared/verifier/certificate-projection";
import { DataHash, TxHash } from "../../../shared/domain/hex";

type Loose = StoredDocument & Record<string, unknown>;
const issuer = "d4".repeat(28);
const txA = TxHash("aa".repeat(32));
const txB = TxHash("bb".repeat(32));
const txC = TxHash("cc".repeat(32));

function cert(hash: string, metadata: string, position = 0): ProtocolFact {
  return {
    type: "certificate.issued",
    position,
    hash,
    algorithm: "SHA-256",
    issuer,
    metadata,
    stateId: "f6".repeat(32),
    bootstrapName: "default",
    purpose: "UPDATE_STATE",
  };
}

function block(slot: number, txs: { id: string; fee: bigint; facts: ProtocolFact[] }[]): BlockFacts {
  return {
    point: { slot, id: slot.toString(16).padStart(64, "0") },
    height: slot,
    time: 1_700_000_000_000 + slot * 1000,
    transactions: txs.map((t) => ({ id: t.id, fee: t.fee, valid: true })),
    facts: txs.flatMap((t) => t.facts.map((fact) => ({ txId: t.id, fact }))),
  };
}

describe("fact consumers: verifier certificates and statistics", () => {
  let store: Store;
  let log: FactLog;
  let certs: CertificateProjection;
  let stats: StatsProjection;
  let certConsumer: FactConsumer;
  let statsConsumer: FactConsumer;
  const h1 = DataHash("01".repeat(32));
  const h2 = DataHash("02".repeat(32));

  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    log = await FactLog.open(store);
    certs = await CertificateProjection.open(store, 0);
    stats = await StatsProjection.open(store);
    certConsumer = new FactConsumer(store, log, certs, 2); // tiny batches: exercises paging
    statsConsumer = new FactConsumer(store, log, stats, 2);
  });
  afterEach(() => store.close());

  it("projects certificate records in the decisions' shape, oldest first", async () => {
    await log.appendBlock(block(10, [{ id: txA, fee: 200_000n, facts: [cert(h1, '{"uv_tid":"diploma"}'), cert(h2, "", 1)] }]));
    await log.appendBlock(block(20, [{ id: txB, fee: 300_000n, facts: [cert(h1, "")] }]));
    expect(await certConsumer.catchUp()).to.equal(log.lastSeq());
    const records = await certs.byHash(DataHash(h1.toUpperCase()));
    expect(records.map((r) => r.transactionHash)).to.deep.equal([txA, txB]);
    expect(records[0]).to.deep.equal({
      hash: h1,
      address: records[0]!.address,
      issuer,
      blockHash: (10).toString(16).padStart(64, "0"),
      blockNumber: 10,
      transactionHash: txA,
      slot: 10,
      creationTime: 1_700_000_010_000,
      metadata: '{"uv_tid":"diploma"}',
      bootstrapTokenName: "default",
      algorithm: "SHA-256",
    });
    expect(records[0]!.address).to.match(/^addr_test1v/);
    expect(await certs.byTransaction(txB, h1)).to.include({ slot: 20 });
    expect(await certs.byTransaction(txB, h2)).to.equal(undefined);
  });

  it("reads the certificate records from the fact log, copying none of them", async () => {
    await log.appendBlock(block(10, [{ id: txA, fee: 200_000n, facts: [cert(h1, '{"uv_tid":"diploma"}')] }]));
    await certConsumer.catchUp();
    const storedFact = await store.collection("indexer_facts").findOne({ _id: `${txA}:0` });
    expect(storedFact).to.not.have.property("txId");
    expect((await log.after(0, 10)).map((r) => r.txId)).to.deep.equal([txA]);
    expect(await store.collection("verifier_certificate_facts").count()).to.equal(0);
    expect((await certs.byHash(h1))[0]).to.include({ address: enterpriseAddressOfKeyHash(issuer, 0), transactionHash: txA });
    expect(await certs.byTransaction(TxHash(txA.toUpperCase()), h1)).to.include({ transactionHash: txA, slot: 10 });
    expect(await certs.byTransaction(txA, h2)).to.equal(undefined);
  });

  it("keeps one statistics record per counted transaction, listing each counted fact once however often replayed", async () => {
    await log.appendBlock(
      block(10, [
        { id: txA, fee: 200_000n, facts: [cert(h1, '{"uv_tid":"diploma"}'), cert(h2, "", 1), cert(h1, "", 2)] },
        { id: txB, fee: 999n, facts: [] },
      ]),
    );
    await statsConsumer.catchUp();
    // a crash before the cursor was saved: every fact is applied again, across batches of two
    await store.collection("consumer_cursors").deleteOne({ _id: stats.name });
    await new FactConsumer(store, log, stats, 2).catchUp();
    const docs = await store.collection<Loose>("stats_transactions").find({});
    expect(docs).to.have.length(1);
    expect(docs[0]).to.deep.include({ _id: txA, fee: 200_000, slot: 10 });
    expect(Object.keys(docs[0]!.items as object)).to.have.length(3);
    expect(await stats.txFees()).to.equal(200_000);
    expect(await stats.byCategory()).to.deep.include({ "Student Certification": 1, Notary: 2, Identity: 0 });
  });

  it("counts fees once per transaction and certificates per category", async () => {
    await log.appendBlock(block(10, [{ id: txA, fee: 200_000n, facts: [cert(h1, '{"uv_tid":"diploma"}'), cert(h2, "", 1)] }]));
    await log.appendBlock(
      block(20, [
        { id: txB, fee: 300_000n, facts: [cert(h1, '{"uv_tid":"socialHub"}')] },
        { id: txC, fee: 999n, facts: [] },
      ]),
    );
    await statsConsumer.catchUp();
    expect(await stats.txFees()).to.equal(500_000);
    expect(await stats.byCategory()).to.deep.equal({
      Identity: 0,
      "Connected Goods": 1,
      Notary: 1,
      "Student Certification": 1,
      "Cross-Chain Attestation": 0,
    });
  });

  it("undoes what a rollback removed and counts nothing twice when facts are replayed", async () => {
    await log.appendBlock(block(10, [{ id: txA, fee: 200_000n, facts: [cert(h1, "")] }]));
    await certConsumer.catchUp();
    await statsConsumer.catchUp();
    await log.appendBlock(block(20, [{ id: txB, fee: 300_000n, facts: [cert(h2, "")] }]));
    await certConsumer.catchUp();
    await statsConsumer.catchUp();
    expect(await certs.byHash(h2)).to.have.length(1);

    await log.rollback({ slot: 10, id: (10).toString(16).padStart(64, "0") }, 10);
    await log.appendBlock(block(21, [{ id: txC, fee: 100_000n, facts: [cert(h1, '{"uv_tid":"tadamon"}')] }]));
    await certConsumer.catchUp();
    await statsConsumer.catchUp();
    expect(await certs.byHash(h2)).to.deep.equal([]);
    expect((await certs.byHash(h1)).map((r) => r.transactionHash)).to.deep.equal([txA, txC]);
    expect(await stats.txFees()).to.equal(300_000);
    expect((await stats.byCategory()).Identity).to.equal(1);

    // A consumer that crashed before saving its cursor sees the same facts again: nothing is counted twice.
    const replay = new FactConsumer(store, log, await StatsProjection.open(store));
    await store.collection("consumer_cursors").deleteMany({});
    await replay.catchUp();
    expect(await stats.txFees()).to.equal(300_000);
  });

  it("a consumer started late catches up on everything before it", async () => {
    for (let i = 1; i <= 7; i++)
      await log.appendBlock(block(i, [{ id: i.toString(16).padStart(64, "0"), fee: 1n, facts: [cert(h1, "")] }]));
    await Promise.all([certConsumer.catchUp(), certConsumer.catchUp()]);
    expect(await certs.count()).to.equal(7);
    expect(await certConsumer.cursor()).to.equal(7);
  });
});
