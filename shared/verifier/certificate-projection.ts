/**
 * The verifier's read model. Certificate records, in the shape of docs/decisions.md#certificate-record (`hash`,
 * `address` — enterprise address of the issuer's payment credential, `issuer` — payment credential, 56 hex,
 * `blockHash`, `blockNumber`, `transactionHash`, `slot`, `creationTime` (Unix ms), `metadata` (raw JSON string as
 * issued), `bootstrapTokenName`, `algorithm`), are read from the indexer's certificate facts by data hash
 * (`CertificateFacts`, shared/indexer/fact-log.ts), never copied: the fact log already holds every field, and the
 * address is derived from the issuer when read. Where the fact log is in another store (a verifier process with an
 * embedded store of its own), the projection keeps a copy of the certificate facts in the same stored form
 * (`verifier_certificate_facts`), so one reading path serves both.
 *
 * Short-link codes are read through the same index: a code stands for a 14-hex-digit hash prefix, and belongs to the
 * first certificate in chain order whose hash has it. What the fact log does not hold in that form the projection
 * keeps, applied through its consumer and rolled back by slot: the signed transactions of Merkle batch roots. Given
 * the stored batch trees, it also joins a tree to the leaf index when it sees a certificate anchoring the tree's root
 * (an anchored tree stays there: a rollback only hides it, through the certificate records).
 */
import { enterpriseAddressOfKeyHash } from "../csl/address";
import { BoundedMemo } from "../csl/memo";
import { CERTIFICATE_HASH_INDEX, CertificateFacts, FactLog, type CertificateFact, type FactRecord } from "../indexer/fact-log";
import type { Projection } from "../indexer/fact-consumer";
import { DataHash, HexBytes, TxHash, type Hex } from "../domain/hex";
import { hashPrefixOf, shortCodeOf } from "../domain/short-code";
import { type Collection, type Store, type StoredDocument, type Update } from "../store";
import { batchOfMetadata } from "../merkle/batch-metadata";
import { MERKLE_SCHEME } from "../merkle/merkle-tree";
import type { MerkleTreeStore } from "../merkle/tree-store";

export interface CertificateRecord {
  hash: string;
  address: string;
  issuer: string;
  blockHash: string;
  blockNumber: number;
  transactionHash: TxHash;
  slot: number;
  creationTime: number;
  metadata: string;
  bootstrapTokenName: string | null;
  algorithm: string;
}

/** The signed transaction of a Merkle batch root, as on chain, and the block point before its block. */
export interface AnchorTransaction {
  transactionCbor: string;
  previousBlock?: { slot: number; id: string } | "origin";
  /** the language views that, with its redeemers and datums, give the transaction's script_data_hash, hex */
  languageViews?: string;
}
type AnchorTransactionDoc = StoredDocument & AnchorTransaction & { slot: number };

/**
 * Where the certificate facts are read: `"log"`, the fact log in the same store (one process with the indexer, or
 * a shared MongoDB); `"copy"`, a copy the projection keeps in its own store (the fact log is elsewhere).
 */
export type CertificateFactsSource = "log" | "copy";

/**
 * Where a verifier finds the certificate facts, from its process's configuration: the fact log is in its store when
 * the indexer runs in the same process (`SERVICES` unset or naming it) or every replica shares one MongoDB;
 * otherwise its store (an embedded one of its own) holds no fact log, and the projection keeps the copy.
 */
export function certificateFactsSourceFor(config: {
  readonly mongoUrl: string | null;
  readonly services: readonly string[] | null;
}): CertificateFactsSource {
  return config.mongoUrl !== null || config.services === null || config.services.includes("indexer") ? "log" : "copy";
}

/** The collection of the copy (`"copy"`): fact records in the log's stored form, certificate facts only. */
export const CERTIFICATE_FACTS_COPY = "verifier_certificate_facts";
/** Hashes shorter than this never get a short link: a short hash would be a cheap prefix of someone else's. */
const SHORT_LINK_MIN_HASH_BYTES = 16;

/** Issuer addresses remembered by a projection (each a few hundred bytes at most). */
const ADDRESS_CACHE_SIZE = 10_000;

/** Pending trees read per page when the projection opens. */
const PENDING_TREE_PAGE = 100;

export class CertificateProjection implements Projection {
  readonly name: string;
  private constructor(
    private readonly facts: CertificateFacts,
    /** The copy of the certificate facts (source `"copy"`), written by `apply`; undefined when reading the log. */
    private readonly copy: Collection<FactRecord> | undefined,
    private readonly anchors: Collection<AnchorTransactionDoc>,
    networkId: number,
    private readonly trees: MerkleTreeStore | undefined,
  ) {
    // A copy has a consumer (cursor) of its own, so it is filled from the start of the log, whatever the other read.
    this.name = copy ? "verifier-certificate-facts" : "verifier-certificates";
    this.addresses = new BoundedMemo(ADDRESS_CACHE_SIZE, (issuer) => enterpriseAddressOfKeyHash(issuer, networkId));
  }

  /** Issuer key hash → enterprise address; bounded, issuers being far fewer than certificates. */
  private readonly addresses: BoundedMemo<string>;

  /**
   * @param source where the certificate facts are (default `"log"`: the fact log shares this store; its index on
   *   `fact.hash` is declared by `FactLog.open`)
   * @param trees the stored batch trees to keep in step with the chain (anchored trees joined to the leaf index,
   *   expired pending ones dropped); every pending tree is looked at once here, in case its anchor was read before
   */
  static async open(
    store: Store,
    networkId: number,
    source: CertificateFactsSource = "log",
    trees?: MerkleTreeStore,
  ): Promise<CertificateProjection> {
    let copy: Collection<FactRecord> | undefined;
    if (source === "copy") {
      copy = store.collection<FactRecord>(CERTIFICATE_FACTS_COPY);
      await copy.ensureIndexes([CERTIFICATE_HASH_INDEX, { fields: { slot: 1 } }, { fields: { "fact.type": 1 } }]);
    }
    const facts = copy ? new CertificateFacts(copy) : FactLog.certificatesIn(store);
    const anchors = store.collection<AnchorTransactionDoc>("verifier_anchor_transactions");
    await anchors.ensureIndexes([{ fields: { slot: 1 } }]);
    const projection = new CertificateProjection(facts, copy, anchors, networkId, trees);
    await projection.joinAnchoredPendingTrees();
    return projection;
  }

  /** Pending trees whose root a certificate the projection holds already anchors join the leaf index. */
  private async joinAnchoredPendingTrees(): Promise<void> {
    if (!this.trees) return;
    for (let after = ""; ;) {
      const page = await this.trees.pendingTrees(after, PENDING_TREE_PAGE);
      for (const t of page) {
        const named = (await this.facts.byHash(t.root)).some((r) => this.namesBatch(r.fact, t.treeId, t.leafCount));
        if (named) await this.trees.markAnchored(t.treeId, t.root, t.leafCount);
      }
      if (page.length < PENDING_TREE_PAGE) return;
      after = page[page.length - 1]!.treeId;
    }
  }

  private namesBatch(f: CertificateFact["fact"], treeId: string, leafCount: number): boolean {
    if (f.algorithm !== MERKLE_SCHEME) return false;
    const batch = batchOfMetadata(f.metadata);
    return batch?.treeId === treeId && batch.leafCount === leafCount;
  }

  /** A batch certificate joins its stored tree (if any: root, id and size must match) to the leaf index. */
  private async followTrees(facts: FactRecord[]): Promise<void> {
    if (!this.trees) return;
    for (const r of facts) {
      if (r.kind !== "fact" || r.fact.type !== "certificate.issued" || r.fact.algorithm !== MERKLE_SCHEME) continue;
      const batch = batchOfMetadata(r.fact.metadata);
      // a hash of more than 64 bytes (a chain may carry one) is no tree's root
      const root = DataHash.parse(r.fact.hash);
      if (batch && root) await this.trees.markAnchored(batch.treeId, root, batch.leafCount);
    }
  }

  async apply(facts: FactRecord[]): Promise<void> {
    for (const r of facts) {
      if (r.kind !== "fact" || r.fact.type !== "certificate.issued") continue;
      const f = r.fact;
      if (this.copy) {
        // The log's stored form: the transaction id is the prefix of `_id` (an upsert: facts may be replayed).
        const { _id, txId: _inId, ...fields } = r;
        await this.copy.updateOne({ _id }, { $set: fields as unknown as NonNullable<Update["$set"]> }, { upsert: true });
      }
      if (f.anchor) {
        const anchor = {
          transactionCbor: f.anchor.transactionCbor,
          slot: r.slot,
          ...(f.anchor.previousBlock ? { previousBlock: f.anchor.previousBlock } : {}),
          ...(f.anchor.languageViews ? { languageViews: f.anchor.languageViews } : {}),
        };
        await this.anchors.updateOne({ _id: r.txId }, { $set: anchor }, { upsert: true });
      }
    }
    await this.followTrees(facts);
  }

  /** Certificates (and so their short codes) leave with the fact log's own rollback (or the copy's, here). */
  async rollback(slot: number): Promise<void> {
    if (this.copy) await this.copy.deleteMany({ slot: { $gt: slot } });
    await this.anchors.deleteMany({ slot: { $gt: slot } });
  }

  /** The stored transaction of a Merkle batch root's certificate (undefined when chain-sync carried no CBOR). */
  async anchorTransaction(transactionHash: TxHash): Promise<AnchorTransaction | undefined> {
    const doc = await this.anchors.findOne({ _id: transactionHash });
    return (
      doc && {
        transactionCbor: doc.transactionCbor,
        ...(doc.previousBlock ? { previousBlock: doc.previousBlock } : {}),
        ...(doc.languageViews ? { languageViews: doc.languageViews } : {}),
      }
    );
  }

  /**
   * The hash a short-link code stands for: the first certificate in chain order whose hash (of at least
   * SHORT_LINK_MIN_HASH_BYTES) has that code; a later hash with the same code never takes it over.
   */
  async hashOfShortCode(code: string): Promise<Hex | undefined> {
    const prefix = hashPrefixOf(code);
    if (prefix === undefined) return undefined;
    const first = (await this.facts.byHashPrefix(prefix)).find(
      (r) => r.fact.hash.length >= SHORT_LINK_MIN_HASH_BYTES * 2 && shortCodeOf(r.fact.hash) === code,
    );
    // the hash as the chain carried it: any length (a request's DataHash is at most 64 bytes)
    return first && HexBytes(first.fact.hash);
  }

  /**
   * The short-link code of a hash, when the code is bound to it: the hash is anchored, at least
   * SHORT_LINK_MIN_HASH_BYTES long, and no earlier hash has the same code. Otherwise why not (`taken` names the
   * hash the code leads to), so no page shows a code that resolves to another certificate.
   */
  async shortCodeOfHash(h: DataHash): Promise<ShortCodeOfHash> {
    if (h.length < SHORT_LINK_MIN_HASH_BYTES * 2) return { kind: "too-short" };
    const code = shortCodeOf(h);
    const holder = await this.hashOfShortCode(code);
    if (holder === h) return { kind: "bound", code };
    if (holder === undefined || (await this.facts.byHash(h)).length === 0) return { kind: "not-anchored" };
    return { kind: "taken", code, holder };
  }

  /** Every certificate of a hash (a request's DataHash, or one the chain carried), oldest first. */
  async byHash(hash: Hex): Promise<CertificateRecord[]> {
    return (await this.findByHash(hash)).records;
  }

  /** Every certificate of a hash, oldest first, and the chain position of the newest (its validator). */
  async findByHash(hash: Hex): Promise<{ records: CertificateRecord[]; newest: ChainPosition | undefined }> {
    const facts = await this.facts.byHash(hash);
    const last = facts[facts.length - 1];
    return { records: facts.map((r) => this.toRecord(r)), newest: last && positionOf(last) };
  }

  async byTransaction(transactionHash: TxHash, hash: DataHash): Promise<CertificateRecord | undefined> {
    return (await this.findByTransaction(transactionHash, hash))?.record;
  }

  /** The first certificate of a data hash in a transaction, and its chain position. */
  async findByTransaction(
    transactionHash: TxHash,
    hash: DataHash,
  ): Promise<{ record: CertificateRecord; position: ChainPosition } | undefined> {
    const facts = (await this.facts.byHash(hash)).filter((r) => r.txId === transactionHash);
    const first = facts.reduce<CertificateFact | undefined>((a, r) => (a && a.fact.position <= r.fact.position ? a : r), undefined);
    return first ? { record: this.toRecord(first), position: positionOf(first) } : undefined;
  }

  /** How many certificates are anchored (every certificate fact read, not distinct hashes). */
  async count(): Promise<number> {
    return this.facts.count();
  }

  private toRecord(r: CertificateFact): CertificateRecord {
    const f = r.fact;
    return {
      hash: f.hash,
      address: this.addresses.get(f.issuer),
      issuer: f.issuer,
      blockHash: r.blockId,
      blockNumber: r.height,
      // a certificate fact's transaction id, as the chain gave it (the typed read of the stored fact)
      transactionHash: TxHash(r.txId),
      slot: r.slot,
      creationTime: r.time,
      metadata: f.metadata,
      bootstrapTokenName: f.bootstrapName,
      algorithm: f.algorithm,
    };
  }
}

/** Whether a hash has a short-link code of its own (CertificateProjection.shortCodeOfHash). */
export type ShortCodeOfHash =
  { kind: "bound"; code: string } | { kind: "too-short" } | { kind: "not-anchored" } | { kind: "taken"; code: string; holder: string };

/** Why a hash has no short-link code of its own, in words (the 404 of `GET /short-link/{hash}`). */
export function whyNoShortCode(hash: string, found: Exclude<ShortCodeOfHash, { kind: "bound" }>): string {
  switch (found.kind) {
    case "too-short":
      return `the hash ${hash} is shorter than ${SHORT_LINK_MIN_HASH_BYTES} bytes: it gets no short link`;
    case "not-anchored":
      return `no certificate anchors the hash ${hash}`;
    case "taken":
      return `the hash ${hash} has no short link: its code ${found.code} belongs to the hash ${found.holder}, anchored earlier`;
  }
}

/** Where a certificate sits on the chain: block, transaction and position in it (shared/gateway/read-caching.ts). */
export interface ChainPosition {
  blockHash: string;
  blockNumber: number;
  transactionHash: string;
  position: number;
}

function positionOf(r: CertificateFact): ChainPosition {
  return { blockHash: r.blockId, blockNumber: r.height, transactionHash: r.txId, position: r.fact.position };
}
