/**
 * What a batch certificate's metadata says of its tree (docs/merkle-batches.md#the-anchoring-certificate): the
 * service writes `"merkle": { "treeId", "leafCount" }` into the metadata of every root it anchors.
 */
import { parseMetadataObject } from "../domain/certificate-metadata";

/** The tree id and leaf count a batch certificate's metadata records, if it is one. */
export function batchOfMetadata(metadata: string): { treeId: string; leafCount: number } | undefined {
  const merkle = parseMetadataObject(metadata)?.["merkle"];
  if (merkle === null || typeof merkle !== "object" || Array.isArray(merkle)) return undefined;
  const { treeId, leafCount } = merkle as Record<string, unknown>;
  return typeof treeId === "string" && typeof leafCount === "number" ? { treeId, leafCount } : undefined;
}
