/**
 * `POST /batch/build` (docs/api.md#batch-build): the Merkle tree of up to MAX_BATCH_HASHES submitted 32-byte hashes
 * (shared/merkle), anchored as ONE ordinary certificate whose hash is the tree's root and whose `algorithm` names
 * the tree scheme; its metadata records the tree id and leaf count. The build itself is the `default` build
 * (certificate-issuance.ts), so the validators see a one-certificate update or fork like any other. The tree is
 * stored, pending, once the transaction is built: it joins the lookups when the root is seen on chain and is dropped
 * when the transaction expires unsubmitted. What a client may have hashed and kept pending is bounded (BatchQuota).
 */
import { unprintableInJson } from "../domain/printable-text";
import { DataHash, StateId } from "../domain/hex";
import { MAX_BATCH_HASHES } from "../merkle/batch-limits";
import { MERKLE_SCHEME, NODE_BYTES } from "../merkle/merkle-tree";
import { hashListAnswer, packedLengthProblem, parseHashList, type HashListProblem, type HashListWords } from "../merkle/hash-list";
import type { BatchQuota } from "../merkle/batch-quota";
import { buildTree, type MerkleTreeStore } from "../merkle/tree-store";
import { BuildRefusal, isBuildRefusal, refusalResponse, refuse, successResponse, type BuildTransactionResponse } from "./build-outcome";
import { buildCertificateTransaction } from "./certificate-issuance";
import type { IssuanceEnv } from "./issuance-env";

/** Metadata a caller may add to the anchoring certificate (JSON text; it goes on chain, within the transaction size limit). */
const MAX_BATCH_METADATA_BYTES = 2048;

export interface BatchBuildResponse extends BuildTransactionResponse {
  merkleRoot?: string;
  treeId?: string;
  leafCount?: number;
  /** refusals of the batch itself: the limit */
  maxHashes?: number;
}

export interface ParsedBatch {
  address: string | undefined;
  leaves: Buffer;
  metadata: Record<string, unknown>;
  stateId?: StateId;
}

type Body = Record<string, unknown>;

/** How a refused batch words the problems of its hashes. */
const BATCH_WORDS: HashListWords = {
  empty: "The batch is empty: send at least one 32-byte hash.",
  tooMany: (count) => `A batch holds at most ${MAX_BATCH_HASHES.toLocaleString("en")} hashes (got ${count}).`,
};

function refuseHashes(problem: HashListProblem): never {
  const { message, data } = hashListAnswer(problem, BATCH_WORDS);
  return refuse("ERROR", message, data);
}

/**
 * The packed hashes of a body: a JSON array of hex strings, or the raw bytes of an application/octet-stream body.
 * @throws BuildRefusal ERROR naming the problem (empty, too many, not hex, not a multiple of 32 bytes)
 */
export function packedHashes(raw: unknown): Buffer {
  const parsed = parseHashList(raw, { maxHashes: MAX_BATCH_HASHES, acceptBytes: true });
  return parsed.problem ? refuseHashes(parsed.problem) : parsed.packed;
}

function userMetadata(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === "") return {};
  let value: unknown = raw;
  if (typeof raw === "string") {
    if (Buffer.byteLength(raw) > MAX_BATCH_METADATA_BYTES) refuse("ERROR", `metadata is larger than ${MAX_BATCH_METADATA_BYTES} bytes`);
    try {
      value = JSON.parse(raw);
    } catch {
      return refuse("ERROR", "metadata must be a JSON object (or its JSON text)");
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return refuse("ERROR", "metadata must be a JSON object");
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_BATCH_METADATA_BYTES)
    refuse("ERROR", `metadata is larger than ${MAX_BATCH_METADATA_BYTES} bytes`);
  if ("merkle" in value) refuse("ERROR", "metadata.merkle is reserved: the service writes the tree id and leaf count there");
  const unprintable = unprintableInJson(value, "metadata");
  if (unprintable !== undefined) refuse("ERROR", `${unprintable[0]} ${unprintable[1]}`, { field: unprintable[0] });
  return value as Record<string, unknown>;
}

/** @throws BuildRefusal ERROR naming the problem */
export function parseBatchRequest(body: Body): ParsedBatch {
  const algorithm = body["algorithm"];
  if (algorithm !== undefined && algorithm !== null && algorithm !== MERKLE_SCHEME)
    refuse("ERROR", `algorithm names the tree scheme; the only one is ${MERKLE_SCHEME}`);
  const address = body["address"];
  if (address !== undefined && typeof address !== "string") refuse("ERROR", "address must be a bech32 string");
  const rawStateId = body["stateId"];
  const stateId = StateId.parse(rawStateId);
  if (rawStateId !== undefined && stateId === undefined) refuse("ERROR", "stateId must be 64 hexadecimal digits (a state token name)");
  const parsed: ParsedBatch = { address: address?.trim(), leaves: packedHashes(body["hashes"]), metadata: userMetadata(body["metadata"]) };
  if (stateId !== undefined) parsed.stateId = stateId;
  return parsed;
}

/**
 * The packed hashes a Moleculer stream carries (scale mode: the gateway streams them over NATS in chunks, since one
 * message holds at most the server's max_payload). Bytes past the limit are read and dropped, so the sender is never
 * left waiting, and the refusal counts them.
 * @throws BuildRefusal ERROR, as packedHashes for a byte body
 */
export async function readStreamedHashes(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += bytes.length;
    if (total <= MAX_BATCH_HASHES * NODE_BYTES) chunks.push(bytes);
  }
  const problem = packedLengthProblem(total, MAX_BATCH_HASHES);
  if (problem) refuseHashes(problem);
  return Buffer.concat(chunks, total);
}

/** The answer to a refused batch, as the route gives it (400 with `maxHashes` for the limit). */
export function batchRefusalAnswer(err: unknown): BatchBuildResponse {
  const refusal = isBuildRefusal(err)
    ? err
    : new BuildRefusal("UNKNOWN_ERROR", `The batch could not be built: ${err instanceof Error ? err.message : String(err)}`);
  const answer: BatchBuildResponse = refusalResponse("default", refusal);
  if (typeof refusal.data["maxHashes"] === "number") answer.maxHashes = refusal.data["maxHashes"];
  return answer;
}

/**
 * How long past its transaction's validity a pending tree is kept: the chain time a sweep compares it with is
 * that of blocks, which may run a little behind the slot clock the validity came from.
 */
const PENDING_TREE_GRACE_MS = 10 * 60_000;

/** What the route stores with: the trees, the client's budget, and whose build it is. */
export interface BatchBuildContext {
  trees: MerkleTreeStore;
  quota: BatchQuota;
  /** the client key the pending tree counts against (the gateway's: an IPv4 address or an IPv6 /64) */
  client: string;
}

/**
 * The whole route: parse, check the client's budget, build the tree, build the anchoring transaction, store the tree
 * (pending). Answers a refused build; throws only the budget's DomainError (429 BATCH_QUOTA_EXCEEDED). With a
 * `stream` (scale mode), the hashes are read from it instead of `body.hashes`.
 */
export async function handleBatchBuild(
  env: IssuanceEnv,
  batch: BatchBuildContext,
  body: Body,
  stream?: AsyncIterable<unknown>,
): Promise<BatchBuildResponse> {
  let req: ParsedBatch;
  try {
    req = parseBatchRequest(stream === undefined ? body : { ...body, hashes: await readStreamedHashes(stream) });
  } catch (err) {
    return batchRefusalAnswer(err);
  }
  await batch.quota.reserve(batch.client, req.leaves.length / NODE_BYTES);
  try {
    const tree = buildTree(req.leaves);
    const root = DataHash(tree.root.toString("hex"));
    const metadata = JSON.stringify({ ...req.metadata, merkle: { treeId: tree.treeId, leafCount: tree.leafCount } });
    const built = await buildCertificateTransaction(env, {
      type: "default",
      address: req.address,
      certificates: [{ hash: root, algorithm: MERKLE_SCHEME, metadata }],
      ...(req.stateId ? { stateId: req.stateId } : {}),
    });
    await batch.trees.save(tree, { expiresAt: built.expiresAtMs + PENDING_TREE_GRACE_MS, owner: batch.client });
    return {
      ...successResponse(
        "default",
        built.cborHex,
        `Batch of ${tree.leafCount} hashes: root ${root} in ${built.kind === "fork" ? `new state ${built.stateId}` : `state ${built.stateId}`}; sign and submit.`,
      ),
      merkleRoot: root,
      treeId: tree.treeId,
      leafCount: tree.leafCount,
    };
  } catch (err) {
    return batchRefusalAnswer(err);
  }
}
