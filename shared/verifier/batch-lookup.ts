/**
 * Hashes anchored inside Merkle batches (docs/merkle-batches.md): an anchored stored tree holds the hash, AND a
 * certificate on chain anchors that tree's root with the tree scheme and the tree's id in its metadata. The second condition
 * comes from the certificate projection, which follows rollbacks: while the anchoring transaction is rolled back,
 * the hash is simply not anchored.
 */
import type { DataHash } from "../domain/hex";
import { batchOfMetadata } from "../merkle/batch-metadata";
import { MERKLE_SCHEME } from "../merkle/merkle-tree";
import type { InclusionProof } from "../merkle/inclusion-proof";
import type { MerkleTreeStore } from "../merkle/tree-store";
import type { AnchorTransaction, CertificateProjection, CertificateRecord } from "./certificate-projection";

/** The anchoring certificate's record (its `hash` is the root) and where the hash sits in the tree. */
export interface BatchRecord extends CertificateRecord {
  merkleRoot: string;
  treeId: string;
  leafIndex: number;
  treeSize: number;
  /** the inclusion path, bottom first (RFC 9162 §2.1.3.1) */
  proof: string[];
}

/** Where a proof's root is anchored: the certificate's transaction and block, and what checks it offline. */
export interface AnchorFields {
  transactionHash: string;
  blockHash: string;
  blockNumber: number;
  slot: number;
  creationTime: number;
  /** the signed anchoring transaction as on chain, hex (absent when the chain-sync feed carried no CBOR) */
  transactionCbor?: string;
  /**
   * the ledger's encoding of the cost models the transaction's `script_data_hash` covers, hex (absent when the
   * indexer could not reproduce that hash from the chain's protocol parameters)
   */
  languageViews?: string;
  /** the deployment whose state output anchors the root: its proxy policy id (absent without a configured deployment) */
  proxyPolicyId?: string;
  /** the point of the block before `blockHash` (or "origin"), where a chain-sync reaches the anchoring block */
  previousBlock?: { slot: number; id: string } | "origin";
}

/** A proof that needs nothing but SHA-256 to check, plus where its root is anchored. */
export interface AnchoredProof extends InclusionProof, AnchorFields {
  treeId: string;
}

/** Every anchored batch holding this 32-byte hash, oldest anchoring first. */
export async function findInBatches(certificates: CertificateProjection, trees: MerkleTreeStore, hash: DataHash): Promise<BatchRecord[]> {
  const found: BatchRecord[] = [];
  for (const inclusion of await trees.findLeaf(hash)) {
    for (const record of await certificates.byHash(inclusion.root)) {
      const batch = record.algorithm === MERKLE_SCHEME ? batchOfMetadata(record.metadata) : undefined;
      // The certificate must name this very tree: same id, and the size the path is checked against.
      if (batch?.treeId !== inclusion.treeId || batch.leafCount !== inclusion.treeSize) continue;
      found.push({
        ...record,
        merkleRoot: inclusion.root,
        treeId: inclusion.treeId,
        leafIndex: inclusion.leafIndex,
        treeSize: inclusion.treeSize,
        proof: inclusion.path,
      });
    }
  }
  return found.sort((a, b) => a.slot - b.slot);
}

/**
 * The proof of `leaf` in a batch record, with the anchoring transaction when the projection holds it, and the
 * deployment (`proxyPolicyId`) the verifier reads.
 */
export function proofOfRecord(leaf: DataHash, r: BatchRecord, anchor?: AnchorTransaction, proxyPolicyId?: string): AnchoredProof {
  return {
    scheme: MERKLE_SCHEME,
    leaf,
    leafIndex: r.leafIndex,
    treeSize: r.treeSize,
    path: r.proof,
    root: r.merkleRoot,
    treeId: r.treeId,
    ...anchorFieldsOf(r, anchor, proxyPolicyId),
  };
}

/** The anchor fields of a proof whose root `r` anchors, with its transaction when the projection holds it. */
export function anchorFieldsOf(r: CertificateRecord, anchor?: AnchorTransaction, proxyPolicyId?: string): AnchorFields {
  return {
    transactionHash: r.transactionHash,
    blockHash: r.blockHash,
    blockNumber: r.blockNumber,
    slot: r.slot,
    creationTime: r.creationTime,
    ...(anchor ? { transactionCbor: anchor.transactionCbor } : {}),
    ...(anchor?.previousBlock ? { previousBlock: anchor.previousBlock } : {}),
    ...(anchor?.languageViews ? { languageViews: anchor.languageViews } : {}),
    ...(proxyPolicyId ? { proxyPolicyId } : {}),
  };
}
