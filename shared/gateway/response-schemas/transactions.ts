/** Answers of the routes that build, submit and confirm a client's transactions. */
import { BUILD_STATUS_CODES } from "../../domain/build-status";
import { HEX, HASH_32, ID_16, integer, nullable, object, ref, string, type Schema } from "./shapes";

/** The answer of every build: the unsigned transaction, or the status saying why there is none. */
export const buildTransactionResponse = object(
  {
    unsignedTransaction: nullable({ type: "string", pattern: HEX }),
    type: nullable(string),
    status: object({ code: { type: "string", enum: [...BUILD_STATUS_CODES] }, message: string }),
    proxyTxHash: { type: "string", pattern: HASH_32 },
    proxyOutputIndex: integer,
  },
  ["unsignedTransaction", "type", "status"],
);

export const TRANSACTION_SCHEMAS = {
  BuildTransactionResponse: buildTransactionResponse,
  BatchBuildResponse: {
    allOf: [
      buildTransactionResponse,
      object({
        merkleRoot: { type: "string", pattern: HASH_32 },
        treeId: { type: "string", pattern: ID_16 },
        leafCount: integer,
      }),
    ],
  },
  /** A build that produced no transaction: the build response plus `error` and `message`. */
  BuildFailure: { allOf: [ref("Error"), buildTransactionResponse] },
  SubmitResponse: object({ transactionHash: { type: "string", pattern: HASH_32 } }),
  Confirmation: object({
    transactionHash: { type: "string", pattern: HASH_32 },
    confirmed: { type: "boolean", enum: [true] },
    blockHash: { type: "string", pattern: HASH_32 },
    blockNumber: integer,
    slot: integer,
    valid: { type: "boolean" },
  }),
} satisfies Record<string, Schema>;
