/**
 * Building and submitting a client's transactions: the build of certificates (and of a Merkle batch's anchoring),
 * the dedicated collateral, the submission and its confirmation.
 */
import { BATCH_BINARY_BODY_LIMIT_BYTES, BATCH_JSON_BODY_LIMIT_BYTES } from "../../merkle/batch-limits";
import { BUILD_FAILURE_CODES } from "../http-status";
import { TX_HASH, type RouteSpec } from "./route-spec";

const BATCH_BODY_LIMITS = { json: BATCH_JSON_BODY_LIMIT_BYTES, binary: BATCH_BINARY_BODY_LIMIT_BYTES } as const;

export const TRANSACTION_ROUTES = [
  {
    method: "POST",
    path: "/transaction/build",
    requiresProtocol: true,
    action: "tx-builder.build",
    tag: "transaction",
    summary: "Build an unsigned transaction (certificates, bootstrap, init, burn, deploy)",
    request: "BuildTransactionRequest { type, address, certificates[], bootstrapDatum?, stateId? }",
    response: "BuildTransactionResponse { unsignedTransaction, type, status { code, message } }",
    statuses: { 409: "PENDING_TRANSACTION (BuildTransactionResponse)" },
    responseSchema: "BuildTransactionResponse",
    errors: BUILD_FAILURE_CODES,
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "POST",
    path: "/batch/build",
    requiresProtocol: true,
    action: "tx-builder.buildBatch",
    tag: "batch",
    summary: "Build the anchoring of a Merkle batch of up to 1,000,000 hashes (one certificate: the tree's root)",
    request:
      "BatchBuildRequest { address, hashes: [64-hex…], algorithm?: merkle-sha256-rfc9162, metadata?, stateId? } as JSON, or the hashes as application/octet-stream (32 bytes each, back to back) with address, metadata and stateId in the query string",
    response: "BuildTransactionResponse plus merkleRoot, treeId, leafCount",
    statuses: {
      400: "malformed hashes, empty batch, more than 1,000,000 hashes (maxHashes), or a refused build",
      409: "PENDING_TRANSACTION",
      429: "BATCH_QUOTA_EXCEEDED: this client has BATCH_LEAVES_PER_CLIENT leaves hashed and waiting (leavesPerClient, retryAfterSeconds)",
    },
    query: [
      { name: "address", required: false, description: "with an application/octet-stream body: the wallet address that pays and signs" },
      {
        name: "metadata",
        required: false,
        description: "with an application/octet-stream body: the certificate metadata (JSON object text)",
      },
      { name: "stateId", required: false, description: "with an application/octet-stream body: the state to use" },
    ],
    responseSchema: "BatchBuildResponse",
    errors: BUILD_FAILURE_CODES,
    failureSchema: "BuildFailure",
    plainErrors: ["BATCH_QUOTA_EXCEEDED"],
    binaryBodyAs: "hashes",
    bodyLimitBytes: BATCH_BODY_LIMITS,
    implemented: true,
  },
  {
    method: "POST",
    path: "/transaction/submit",
    action: "submitter.submit",
    tag: "transaction",
    summary: "Submit a signed transaction (optionally merging a witness set)",
    request: "SubmitTransactionRequest { transaction (CBOR hex), witnessSet? }",
    response: "{ transactionHash }",
    statuses: {
      400: "malformed CBOR (INVALID_TRANSACTION) or rejected by the ledger (LEDGER_REJECTED: the reason in `message`, the Ogmios `code`)",
      409: "an input is already spent by a transaction still in flight (INPUTS_IN_FLIGHT), or a confirmed one took the list entry an extension transaction spends (ENTRY_TAKEN); for extension transactions that lost a race the body carries rebuiltTransaction",
    },
    responseSchema: "SubmitResponse",
    errors: ["INVALID_TRANSACTION", "LEDGER_REJECTED", "INPUTS_IN_FLIGHT", "ENTRY_TAKEN", "CHAIN_UNAVAILABLE"],
    implemented: true,
  },
  {
    method: "POST",
    path: "/transaction/prepare-collateral",
    requiresProtocol: true,
    action: "tx-builder.prepareCollateral",
    tag: "transaction",
    summary: "Build a transaction creating a dedicated 5 ADA collateral UTxO",
    request: "PrepareCollateralRequest { senderAddress }",
    response: "BuildTransactionResponse (COLLATERAL_ALREADY_AVAILABLE when nothing is to be signed)",
    statuses: { 409: "all UTxOs locked by in-flight transactions" },
    responseSchema: "BuildTransactionResponse",
    errors: BUILD_FAILURE_CODES,
    failureSchema: "BuildFailure",
    implemented: true,
  },
  {
    method: "GET",
    path: "/transaction/confirm/{hash}",
    action: "submitter.confirm",
    tag: "transaction",
    summary: "Is the transaction on chain?",
    response: "200 once included",
    statuses: { 404: "not (yet) on chain" },
    pathPatterns: { hash: TX_HASH },
    responseSchema: "Confirmation",
    errors: ["NOT_FOUND"],
    implemented: true,
  },
] as const satisfies readonly RouteSpec[];
