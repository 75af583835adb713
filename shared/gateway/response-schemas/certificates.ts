/** Answers about anchored certificates: the verify lookups, the calendar's receipts, inclusion proofs, short links. */
import { MERKLE_SCHEME } from "../../merkle/merkle-tree";
import { TLOG_CHECKPOINT_SCHEME } from "../../transparency-log/log-entries";
import { HEX, HASH_32, HASH_28, ID_16, integer, nullable, object, string, type Schema } from "./shapes";

const certificateFields = {
  hash: { type: "string", pattern: HEX },
  address: string,
  issuer: { type: "string", pattern: HASH_28 },
  blockHash: { type: "string", pattern: HASH_32 },
  blockNumber: integer,
  transactionHash: { type: "string", pattern: HASH_32 },
  slot: integer,
  creationTime: integer,
  metadata: string,
  bootstrapTokenName: nullable(string),
  algorithm: string,
};
/**
 * A hash anchored inside a Merkle batch, or in an anchored checkpoint of the calendar's transparency log: the
 * anchoring certificate's record (its `hash` is the root) plus these (`treeId` for a batch; `nonce`, `origin` and
 * `checkpoint` for the log).
 */
const NONCE_HEX = "^[0-9a-f]{32}$";
const batchFields = {
  merkleRoot: { type: "string", pattern: HASH_32 },
  treeId: { type: "string", pattern: ID_16 },
  leafIndex: integer,
  treeSize: integer,
  proof: { type: "array", items: { type: "string", pattern: HASH_32 } },
  nonce: { type: "string", pattern: NONCE_HEX },
  origin: string,
  checkpoint: string,
};
const certificateRecord = object({ ...certificateFields, ...batchFields }, Object.keys(certificateFields));

const proofFields = {
  leaf: { type: "string", pattern: HASH_32 },
  leafIndex: integer,
  treeSize: integer,
  path: { type: "array", items: { type: "string", pattern: HASH_32 } },
  root: { type: "string", pattern: HASH_32 },
};
const anchorFields = {
  transactionHash: { type: "string", pattern: HASH_32 },
  blockHash: { type: "string", pattern: HASH_32 },
  blockNumber: integer,
  slot: integer,
  creationTime: integer,
  transactionCbor: { type: "string", pattern: HEX },
  previousBlock: {
    oneOf: [{ type: "string", enum: ["origin"] }, object({ slot: integer, id: { type: "string", pattern: HASH_32 } })],
  },
  languageViews: { type: "string", pattern: HEX },
  proxyPolicyId: { type: "string", pattern: HASH_28 },
};
const requiredAnchorFields = ["transactionHash", "blockHash", "blockNumber", "slot", "creationTime"];
const batchProof = object(
  { scheme: { type: "string", enum: [MERKLE_SCHEME] }, ...proofFields, treeId: { type: "string", pattern: ID_16 }, ...anchorFields },
  ["scheme", ...Object.keys(proofFields), "treeId", ...requiredAnchorFields],
);
const logProof = object(
  {
    scheme: { type: "string", enum: [TLOG_CHECKPOINT_SCHEME] },
    ...proofFields,
    nonce: { type: "string", pattern: NONCE_HEX },
    origin: string,
    checkpoint: string,
    ...anchorFields,
  },
  ["scheme", ...Object.keys(proofFields), "nonce", "origin", "checkpoint", ...requiredAnchorFields],
);

export const CERTIFICATE_SCHEMAS = {
  CalendarReceipt: object(
    {
      receiptId: { type: "string", pattern: ID_16 },
      hash: { type: "string", pattern: HASH_32 },
      status: { type: "string", enum: ["pending", "submitted", "anchored"] },
      submittedAt: integer,
      statusUrl: string,
      expectedAnchorBy: integer,
      merkleRoot: { type: "string", pattern: HASH_32 },
      transactionHash: { type: "string", pattern: HASH_32 },
      proofUrl: string,
      log: object(
        {
          status: { type: "string", enum: ["waiting", "checkpointed", "anchored"] },
          index: integer,
          nonce: { type: "string", pattern: "^[A-Za-z0-9+/]{22}==$" },
          checkpointSize: integer,
          proof: string,
          proofUrl: string,
          anchored: object({
            size: integer,
            transactionHash: { type: "string", pattern: HASH_32 },
            checkpoint: string,
            proof: string,
            verifyUrl: string,
          }),
        },
        ["status"],
      ),
    },
    ["receiptId", "hash", "status", "submittedAt", "statusUrl", "log"],
  ),
  CalendarSubmitResponse: object({
    status: { type: "string", enum: ["pending"] },
    submittedAt: integer,
    expectedAnchorBy: integer,
    receiptUrl: string,
    receipts: {
      type: "array",
      items: object({ receiptId: { type: "string", pattern: ID_16 }, hash: { type: "string", pattern: HASH_32 } }),
    },
    pending: integer,
  }),
  CertificateRecord: certificateRecord,
  CertificateRecords: { type: "array", minItems: 1, items: certificateRecord },
  BatchProofs: { type: "array", minItems: 1, items: { oneOf: [batchProof, logProof] } },
  ShortLink: object({ hash: { type: "string", pattern: HEX }, code: { type: "string", pattern: "^[0-9A-Za-z]{10}$" }, url: string }),
} satisfies Record<string, Schema>;
