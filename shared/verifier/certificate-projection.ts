/**
 * The verifier's projection: one record per anchored certificate, in the shape of docs/decisions.md#certificate-record:
 * `hash`, `address` (enterprise address of the issuer's payment credential), `issuer` (payment credential, 56 hex),
 * `blockHash`, `blockNumber`, `transactionHash`, `slot`, `creationTime` (Unix ms), `metadata` (raw JSON string as
 * issued), `bootstrapTokenName`, `algorithm`.
 *
 * Stored lean (the embedded store's footprint): the address is not stored but derived from the issuer when read
 * (documents written before carry it and it is ignored: the same issuer and network give the same address), nor the
 * transaction hash, which is the prefix of the record's `_id` (the fact's `<transactionHash>:<n>`); the only indexes
 * are `hash` (every read names it; a transaction read filters the few records of a hash) and `slot` (rollbacks).
 */
import { enterpriseAddressOfKeyHash } from "../csl/address";
import type { FactRecord } from "../indexer/fact-log";
import type { Projection } from "../indexer/fact-consumer";
import { shortCodeOf } from "../domain/short-code";
import { isDuplicateKeyError, type Collection, type Store, type StoredDocument } from "../store";

export interface CertificateRecord {
  hash: string;
  address: string;
  issuer: string;
  blockHash: string;
  blockNumber: number;
  transactionHash: string;
  slot: number;
  creationTime: number;
  metadata: string;
  bootstrapTokenName: string | null;
  algorithm: string;
}

/** `_id` is the fact's (`<transactionHash>:<n>`); documents stored before carry `address` and `transactionHash`. */
type CertificateDoc = StoredDocument &
  Omit<CertificateRecord, "address" | "transactionHash"> & { position: number; transactionHash?: string; address?: string };
/** The signed transaction of a Merkle batch root, as on chain, and the block point before its block. */
export interface AnchorTransaction {
  transactionCbor: string;
  previousBlock?: { slot: number; id: string } | "origin";
}
type AnchorTransactionDoc = StoredDocument & AnchorTransaction & { slot: number };
/** A short-link code bound to the first hash anchored with it (in chain order). */
type ShortCodeDoc = StoredDocument & { hash: string; slot: number };

/** Hashes shorter than this never get a short link: a short hash would be a cheap prefix of someone else's. */
export const SHORT_LINK_MIN_HASH_BYTES = 16;

/** Issuer addresses remembered by a projection (each a few hundred bytes at most). */
const ADDRESS_CACHE_SIZE = 10_000;

export class CertificateProjection implements Projection {
  readonly name = "verifier-certificates";
  private constructor(
    private readonly certs: Collection<CertificateDoc>,
    private readonly codes: Collection<ShortCodeDoc>,
    private readonly anchors: Collection<AnchorTransactionDoc>,
    private readonly networkId: number,
  ) {}

  static async open(store: Store, networkId: number): Promise<CertificateProjection> {
    const certs = store.collection<CertificateDoc>("verifier_certificates");
    // Single-field indexes: NeDB uses an index only when the query names exactly its fields (MongoDB would also
    // use a compound prefix, NeDB would scan every document).
    await certs.ensureIndexes([{ fields: { hash: 1 } }, { fields: { slot: 1 } }]);
    const codes = store.collection<ShortCodeDoc>("verifier_short_codes");
    await codes.ensureIndexes([{ fields: { slot: 1 } }]);
    const anchors = store.collection<AnchorTransactionDoc>("verifier_anchor_transactions");
    await anchors.ensureIndexes([{ fields: { slot: 1 } }]);
    return new CertificateProjection(certs, codes, anchors, networkId);
  }

  async apply(facts: FactRecord[]): Promise<void> {
    for (const r of facts) {
      if (r.kind !== "fact" || r.fact.type !== "certificate.issued") continue;
      const f = r.fact;
      const doc: CertificateDoc = {
        _id: r._id,
        hash: f.hash,
        issuer: f.issuer,
        blockHash: r.blockId,
        blockNumber: r.height,
        slot: r.slot,
        creationTime: r.time,
        metadata: f.metadata,
        bootstrapTokenName: f.bootstrapName,
        algorithm: f.algorithm,
        position: f.position,
      };
      const { _id, ...fields } = doc;
      await this.certs.updateOne({ _id }, { $set: fields }, { upsert: true });
      if (f.hash.length >= SHORT_LINK_MIN_HASH_BYTES * 2) await this.bindShortCode(shortCodeOf(f.hash), f.hash, r.slot);
      if (f.anchor) {
        const anchor = {
          transactionCbor: f.anchor.transactionCbor,
          slot: r.slot,
          ...(f.anchor.previousBlock ? { previousBlock: f.anchor.previousBlock } : {}),
        };
        await this.anchors.updateOne({ _id: r.txId }, { $set: anchor }, { upsert: true });
      }
    }
  }

  /** The first hash anchored with a code keeps it; a later hash with the same code never takes it over. */
  private async bindShortCode(code: string, hash: string, slot: number): Promise<void> {
    try {
      await this.codes.insertOne({ _id: code, hash, slot });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  async rollback(slot: number): Promise<void> {
    await this.certs.deleteMany({ slot: { $gt: slot } });
    await this.codes.deleteMany({ slot: { $gt: slot } });
    await this.anchors.deleteMany({ slot: { $gt: slot } });
  }

  /** The stored transaction of a Merkle batch root's certificate (undefined when chain-sync carried no CBOR). */
  async anchorTransaction(transactionHash: string): Promise<AnchorTransaction | undefined> {
    const doc = await this.anchors.findOne({ _id: transactionHash.toLowerCase() });
    return doc && { transactionCbor: doc.transactionCbor, ...(doc.previousBlock ? { previousBlock: doc.previousBlock } : {}) };
  }

  /** The hash a short-link code is bound to, or undefined. */
  async hashOfShortCode(code: string): Promise<string | undefined> {
    return (await this.codes.findOne({ _id: code }))?.hash;
  }

  /** Every certificate of a data hash, oldest first. */
  async byHash(hash: string): Promise<CertificateRecord[]> {
    return (await this.findByHash(hash)).records;
  }

  /** Every certificate of a data hash, oldest first, and the chain position of the newest (its validator). */
  async findByHash(hash: string): Promise<{ records: CertificateRecord[]; newest: ChainPosition | undefined }> {
    const docs = await this.certs.find({ hash: hash.toLowerCase() }, { sort: { slot: 1, position: 1 } });
    const last = docs[docs.length - 1];
    return { records: docs.map((d) => this.toRecord(d)), newest: last && positionOf(last) };
  }

  async byTransaction(transactionHash: string, hash: string): Promise<CertificateRecord | undefined> {
    return (await this.findByTransaction(transactionHash, hash))?.record;
  }

  /** The first certificate of a data hash in a transaction, and its chain position. */
  async findByTransaction(
    transactionHash: string,
    hash: string,
  ): Promise<{ record: CertificateRecord; position: ChainPosition } | undefined> {
    const tx = transactionHash.toLowerCase();
    const docs = await this.certs.find({ hash: hash.toLowerCase() }, { sort: { position: 1 } });
    const doc = docs.find((d) => transactionOf(d) === tx);
    return doc ? { record: this.toRecord(doc), position: positionOf(doc) } : undefined;
  }

  async count(): Promise<number> {
    return this.certs.count({});
  }

  /** Issuer key hash → enterprise address; bounded (cleared when full), issuers being far fewer than certificates. */
  private readonly addresses = new Map<string, string>();

  private addressOf(issuer: string): string {
    let address = this.addresses.get(issuer);
    if (address === undefined) {
      if (this.addresses.size >= ADDRESS_CACHE_SIZE) this.addresses.clear();
      address = enterpriseAddressOfKeyHash(issuer, this.networkId);
      this.addresses.set(issuer, address);
    }
    return address;
  }

  private toRecord(d: CertificateDoc): CertificateRecord {
    return {
      hash: d.hash,
      address: this.addressOf(d.issuer),
      issuer: d.issuer,
      blockHash: d.blockHash,
      blockNumber: d.blockNumber,
      transactionHash: transactionOf(d),
      slot: d.slot,
      creationTime: d.creationTime,
      metadata: d.metadata,
      bootstrapTokenName: d.bootstrapTokenName,
      algorithm: d.algorithm,
    };
  }
}

/** Where a certificate sits on the chain: block, transaction and position in it (shared/mesh/read-caching.ts). */
export interface ChainPosition {
  blockHash: string;
  blockNumber: number;
  transactionHash: string;
  position: number;
}

function positionOf(d: CertificateDoc): ChainPosition {
  return { blockHash: d.blockHash, blockNumber: d.blockNumber, transactionHash: transactionOf(d), position: d.position };
}

function transactionOf(d: CertificateDoc): string {
  return d.transactionHash ?? d._id.slice(0, d._id.lastIndexOf(":"));
}
