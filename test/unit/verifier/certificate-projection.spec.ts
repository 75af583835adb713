/**
 * The verifier's certificate reads come from the fact log's certificate facts (no copy of the records), in both
 * places the facts can be: the fact log in the same store (`"log"`) and the projection's own copy when the log is
 * in another store (`"copy"`). Both must give the answers the records always had: the shape of
 * docs/decisions.md#certificate-record, oldest first by slot then position, the newest's chain position.
 */
import { expect } from "chai";
import { enterpriseAddressOfKeyHash } from "../../../shared/csl/address";
import { shortCodeOf } from "../../../shared/domain/short-code";
import { FactConsumer } from "../../../shared/indexer/fact-consumer";
import { FactLog, type BlockFacts } from "../../../shared/indexer/fact-log";
import type { ProtocolFact } from "../../../shared/indexer/protocol-decoder";
import { createStore, type StoredDocument } from "../../../shared/store";
import {
  CERTIFICATE_FACTS_COPY,
  CertificateProjection,
  certificateFactsSourceFor,
  type CertificateFactsSource,
  type CertificateRecord,
} from "../../../shared/verifier/certificate-projection";
import { DataHash, TxHash } from "../../../shared/domain/hex";

const issuerA = "d4".repeat(28);
const issuerB = "e5".repeat(28);
const txId = (n: number) => TxHash(n.toString(16).padStart(64, "0"));
const blockId = (slot: number) => `b${slot.toString(16).padStart(63, "0")}`;

function cert(hash: string, position: number, opts: { issuer?: string; metadata?: string; algorithm?: string } = {}): ProtocolFact {
  return {
    type: "certificate.issued",
    position,
    hash,
    algorithm: opts.algorithm ?? "SHA-256",
    issuer: opts.issuer ?? issuerA,
    metadata: opts.metadata ?? "",
    stateId: "f6".repeat(32),
    bootstrapName: "default",
    purpose: "UPDATE_STATE",
  };
}

function block(slot: number, txs: { id: string; facts: ProtocolFact[] }[]): BlockFacts {
  return {
    point: { slot, id: blockId(slot) },
    height: slot * 2,
    time: 1_700_000_000_000 + slot * 1000,
    transactions: txs.map((t) => ({ id: t.id, fee: 170_000n, valid: true })),
    facts: txs.flatMap((t) => t.facts.map((fact) => ({ txId: t.id, fact }))),
  };
}

/** The record docs/decisions.md#certificate-record gives for a certificate fact, written out field by field. */
function expected(hash: string, tx: string, slot: number, opts: { issuer?: string; metadata?: string } = {}): CertificateRecord {
  const issuer = opts.issuer ?? issuerA;
  return {
    hash,
    address: enterpriseAddressOfKeyHash(issuer, 0),
    issuer,
    blockHash: blockId(slot),
    blockNumber: slot * 2,
    transactionHash: TxHash(tx),
    slot,
    creationTime: 1_700_000_000_000 + slot * 1000,
    metadata: opts.metadata ?? "",
    bootstrapTokenName: "default",
    algorithm: "SHA-256",
  };
}

const h = DataHash("ab".repeat(32));
const other = DataHash("cd".repeat(32));
/** Shares the first 16 hex digits (and so the short-link code) with `h`. */
const sameCode = `${"ab".repeat(8)}${"ef".repeat(24)}`;

/**
 * The verifier's view beside a fact log: in "log" it reads the log in the same store; in "copy" its projection
 * has a store of its own and keeps the certificate facts there, reading the log only through the consumer.
 */
async function world(source: CertificateFactsSource) {
  const logStore = await createStore({ inMemory: true });
  const ownStore = source === "log" ? logStore : await createStore({ inMemory: true });
  const log = await FactLog.open(logStore);
  const certs = await CertificateProjection.open(ownStore, 0, source);
  const consumer = new FactConsumer(ownStore, log, certs, 3);
  return {
    log,
    certs,
    consumer,
    ownStore,
    close: async () => {
      await logStore.close();
      if (ownStore !== logStore) await ownStore.close();
    },
  };
}

for (const source of ["log", "copy"] as const) {
  describe(`verifier certificate reads from the fact log (${source})`, () => {
    let w: Awaited<ReturnType<typeof world>>;
    beforeEach(async () => {
      w = await world(source);
      // One hash anchored five times: twice in one transaction (positions 2 and 0), once more in another
      // transaction of the same block, and in two later blocks; other hashes around it.
      await w.log.appendBlock(
        block(10, [
          { id: txId(1), facts: [cert(other, 0), cert(h, 2, { metadata: '{"n":2}' }), cert(h, 0, { metadata: '{"n":1}' })] },
          { id: txId(2), facts: [cert(h, 1, { issuer: issuerB })] },
        ]),
      );
      await w.log.appendBlock(block(11, []));
      await w.log.appendBlock(block(12, [{ id: txId(3), facts: [cert(h, 0, { metadata: '{"uv_tid":"diploma"}' }), cert(sameCode, 1)] }]));
      await w.log.appendBlock(block(15, [{ id: txId(4), facts: [cert(h, 3)] }]));
      await w.consumer.catchUp();
    });
    afterEach(() => w.close());

    it("answers every certificate of a hash as the records did: oldest first by slot, then position", async () => {
      const { records, newest } = await w.certs.findByHash(DataHash(h.toUpperCase()));
      expect(records).to.deep.equal([
        expected(h, txId(1), 10, { metadata: '{"n":1}' }),
        expected(h, txId(2), 10, { issuer: issuerB }),
        expected(h, txId(1), 10, { metadata: '{"n":2}' }),
        expected(h, txId(3), 12, { metadata: '{"uv_tid":"diploma"}' }),
        expected(h, txId(4), 15),
      ]);
      expect(newest).to.deep.equal({ blockHash: blockId(15), blockNumber: 30, transactionHash: txId(4), position: 3 });
      expect(await w.certs.byHash(other)).to.deep.equal([expected(other, txId(1), 10)]);
      expect(await w.certs.findByHash(DataHash("99".repeat(32)))).to.deep.equal({ records: [], newest: undefined });
      expect(await w.certs.count()).to.equal(7);
    });

    it("finds a transaction's certificate of a hash: its first position, with its chain position", async () => {
      expect(await w.certs.findByTransaction(TxHash(txId(1).toUpperCase()), h)).to.deep.equal({
        record: expected(h, txId(1), 10, { metadata: '{"n":1}' }),
        position: { blockHash: blockId(10), blockNumber: 20, transactionHash: txId(1), position: 0 },
      });
      expect(await w.certs.byTransaction(txId(3), h)).to.deep.equal(expected(h, txId(3), 12, { metadata: '{"uv_tid":"diploma"}' }));
      expect(await w.certs.byTransaction(txId(3), other)).to.equal(undefined);
      expect(await w.certs.byTransaction(txId(9), h)).to.equal(undefined);
    });

    it("binds a short-link code to the first hash anchored with it, in chain order", async () => {
      expect(shortCodeOf(sameCode)).to.equal(shortCodeOf(h));
      expect(await w.certs.hashOfShortCode(shortCodeOf(h))).to.equal(h);
      expect(await w.certs.hashOfShortCode(shortCodeOf(other))).to.equal(other);
      // A code is read through the hash index as a 14-hex-digit prefix; a hash sharing that prefix but not the
      // code's 59 bits, a hash too short for a code, and a code nobody has find nothing.
      const samePrefix = `${"ab".repeat(7)}ff${"01".repeat(24)}`;
      const short = `${"ef".repeat(15)}`;
      await w.log.appendBlock(block(16, [{ id: txId(5), facts: [cert(samePrefix, 0), cert(short, 1)] }]));
      await w.consumer.catchUp();
      expect(shortCodeOf(samePrefix)).to.not.equal(shortCodeOf(h));
      expect(await w.certs.hashOfShortCode(shortCodeOf(samePrefix))).to.equal(samePrefix);
      expect(await w.certs.hashOfShortCode(shortCodeOf(h))).to.equal(h);
      expect(await w.certs.hashOfShortCode(shortCodeOf(short))).to.equal(undefined);
      expect(await w.certs.hashOfShortCode(shortCodeOf("12".repeat(32)))).to.equal(undefined);
      expect(await w.certs.hashOfShortCode("not-a-code")).to.equal(undefined);
    });

    it("drops a rolled-back certificate and shows it again once re-included", async () => {
      await w.log.rollback({ slot: 12, id: blockId(12) }, 24);
      // Reading the log, the answer changes as soon as the log does; the copy once the consumer meets the marker.
      if (source === "copy") await w.consumer.catchUp();
      expect((await w.certs.byHash(h)).map((r) => r.slot)).to.deep.equal([10, 10, 10, 12]);
      await w.log.rollback({ slot: 10, id: blockId(10) }, 20);
      if (source === "copy") await w.consumer.catchUp();
      expect((await w.certs.byHash(h)).map((r) => r.transactionHash)).to.deep.equal([txId(1), txId(2), txId(1)]);
      expect(await w.certs.byTransaction(txId(3), h)).to.equal(undefined);
      await w.consumer.catchUp();
      expect(await w.certs.hashOfShortCode(shortCodeOf(sameCode))).to.equal(h);

      // The same transaction in a later block: the answer names its new block.
      await w.log.appendBlock(block(13, [{ id: txId(3), facts: [cert(h, 0, { metadata: '{"uv_tid":"diploma"}' }), cert(sameCode, 1)] }]));
      await w.consumer.catchUp();
      const { records, newest } = await w.certs.findByHash(h);
      expect(records.at(-1)).to.deep.equal(expected(h, txId(3), 13, { metadata: '{"uv_tid":"diploma"}' }));
      expect(newest).to.deep.equal({ blockHash: blockId(13), blockNumber: 26, transactionHash: txId(3), position: 0 });
    });

    it("replaying facts (a crash before the cursor was saved) changes no answer", async () => {
      const before = await w.certs.findByHash(h);
      await w.ownStore.collection("consumer_cursors").deleteMany({});
      await new FactConsumer(w.ownStore, w.log, w.certs).catchUp();
      expect(await w.certs.findByHash(h)).to.deep.equal(before);
      expect(await w.certs.count()).to.equal(7);
    });

    it(source === "log" ? "keeps no copy of the certificates" : "keeps the certificate facts in the log's stored form", async () => {
      const copied = await w.ownStore.collection<StoredDocument & Record<string, unknown>>(CERTIFICATE_FACTS_COPY).find({});
      if (source === "log") expect(copied).to.deep.equal([]);
      else {
        expect(copied.map((d) => d._id).sort())
          .to.have.length(7)
          .and.include(`${txId(4)}:0`);
        expect(copied[0]).to.not.have.property("txId");
      }
    });
  });
}

describe("verifier: where the certificate facts are read", () => {
  it("reads the fact log when the indexer shares its store, else keeps a copy", () => {
    expect(certificateFactsSourceFor({ mongoUrl: null, services: null })).to.equal("log");
    expect(certificateFactsSourceFor({ mongoUrl: null, services: ["indexer", "verifier", "library"] })).to.equal("log");
    expect(certificateFactsSourceFor({ mongoUrl: "mongodb://db:27017/anchor", services: ["verifier"] })).to.equal("log");
    expect(certificateFactsSourceFor({ mongoUrl: null, services: ["verifier"] })).to.equal("copy");
    expect(certificateFactsSourceFor({ mongoUrl: null, services: ["gateway", "verifier", "stats"] })).to.equal("copy");
  });
});
