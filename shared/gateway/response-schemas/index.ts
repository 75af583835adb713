/**
 * JSON Schemas of the API's answers (docs/api.md), the `components.schemas` of the OpenAPI document. Routes name
 * theirs in the route table (`responseSchema`, `failureSchema`); test/support/openapi-conformance.ts validates
 * every answer the test suite sees against them. Objects allow more properties than they list (clients must
 * ignore unknown fields), so adding a field is never a breaking change of the document.
 */
import { BUILD_STATUS_CODES } from "../../domain/build-status";

type Schema = Record<string, unknown>;

const HEX = "^[0-9a-f]*$";
const HASH_32 = "^[0-9a-f]{64}$";
const HASH_28 = "^[0-9a-f]{56}$";

const string = { type: "string" } as const;
const nullable = (schema: Schema): Schema => ({ ...schema, nullable: true });
const integer = { type: "integer" } as const;
const object = (properties: Record<string, Schema>, required: readonly string[] = Object.keys(properties)): Schema => ({
  type: "object",
  required: [...required],
  properties,
});
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The profile fields of a SocialHub, in datum order ("" when unset). */
const SOCIAL_HUB_FIELDS = [
  "picture",
  "name",
  "subtitle",
  "x",
  "telegram",
  "discord",
  "youtube",
  "website",
  "email",
  "ada_handle",
  "reddit",
  "instagram",
  "github",
  "linkedin",
] as const;

const buildTransactionResponse = object(
  {
    unsignedTransaction: nullable({ type: "string", pattern: HEX }),
    type: nullable(string),
    status: object({ code: { type: "string", enum: [...BUILD_STATUS_CODES] }, message: string }),
    proxyTxHash: { type: "string", pattern: HASH_32 },
    proxyOutputIndex: integer,
  },
  ["unsignedTransaction", "type", "status"],
);

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
/** A hash anchored inside a Merkle batch: the anchoring certificate's record (its `hash` is the root) plus these. */
const batchFields = {
  merkleRoot: { type: "string", pattern: HASH_32 },
  treeId: { type: "string", pattern: "^[0-9a-f]{32}$" },
  leafIndex: integer,
  treeSize: integer,
  proof: { type: "array", items: { type: "string", pattern: HASH_32 } },
};
const certificateRecord = object({ ...certificateFields, ...batchFields }, Object.keys(certificateFields));

const batchProof = object(
  {
    scheme: { type: "string", enum: ["merkle-sha256-rfc9162"] },
    leaf: { type: "string", pattern: HASH_32 },
    leafIndex: integer,
    treeSize: integer,
    path: { type: "array", items: { type: "string", pattern: HASH_32 } },
    root: { type: "string", pattern: HASH_32 },
    treeId: { type: "string", pattern: "^[0-9a-f]{32}$" },
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
  },
  [
    "scheme",
    "leaf",
    "leafIndex",
    "treeSize",
    "path",
    "root",
    "treeId",
    "transactionHash",
    "blockHash",
    "blockNumber",
    "slot",
    "creationTime",
  ],
);

const credential = object(
  {
    authHash: { type: "string", pattern: HEX },
    credentialType: string,
    keriAid: nullable(string),
    txHash: { type: "string", pattern: HASH_32 },
    active: { type: "boolean" },
    keriVerified: { type: "boolean" },
    paymentCredential: { type: "string", pattern: HASH_28 },
    schema: nullable(string),
    oobi: nullable(string),
    slot: integer,
    creationTime: integer,
    revokedTxHash: nullable({ type: "string", pattern: HASH_32 }),
  },
  ["authHash", "credentialType", "txHash", "active", "paymentCredential"],
);

const scriptType = { type: "string", enum: ["timelock", "plutusV1", "plutusV2", "plutusV3"] };
const typeStats = object({ count: integer, totalExecutions: integer, totalErrors: integer }, ["count", "totalExecutions", "totalErrors"]);
const isoTime = nullable({ type: "string", format: "date-time" });
const number = { type: "number" } as const;

export const RESPONSE_SCHEMAS = {
  /** Every error: a stable code and a sentence; routes add their own fields. */
  Error: {
    type: "object",
    required: ["error", "message"],
    properties: {
      error: { type: "string", description: "stable SCREAMING_SNAKE code, e.g. VALIDATION_ERROR" },
      message: { type: "string", description: "what is wrong, in words" },
    },
  },
  OpenApiDocument: object({ openapi: string, info: { type: "object" }, paths: { type: "object" } }),
  Extensions: { type: "object", additionalProperties: { type: "boolean" } },
  FractionizedBuild: object({
    unsignedTransaction: { type: "string", pattern: HEX },
    policyId: { type: "string", pattern: HASH_28 },
    initUtxoTxHash: { type: "string", pattern: HASH_32 },
    initUtxoOutputIndex: integer,
    key: { type: "string", pattern: HEX },
  }),
  TokenizableBuild: object({
    unsignedTransaction: { type: "string", pattern: HEX },
    policyId: { type: "string", pattern: HASH_28 },
    initUtxoTxHash: { type: "string", pattern: HASH_32 },
    initUtxoOutputIndex: integer,
    key: { type: "string", pattern: HEX },
  }),
  TokenizableMetadataScript: object({ scriptHash: { type: "string", pattern: HASH_28 }, address: string }),
  TokenizableStatus: object({
    key: { type: "string", pattern: HEX },
    exists: { type: "boolean" },
    claimed: { type: "boolean" },
    status: nullable({ type: "string", enum: ["Available", "Redeemed", null] }),
    owner: nullable(string),
    ownerPubKeyHash: nullable({ type: "string", pattern: HASH_28 }),
    assetName: nullable({ type: "string", pattern: HEX }),
    next: nullable({ type: "string", pattern: HEX }),
    policyId: nullable({ type: "string", pattern: HASH_28 }),
    initUtxoTxHash: nullable({ type: "string", pattern: HASH_32 }),
    initUtxoOutputIndex: nullable(integer),
    certificate: object({ transactionHash: nullable({ type: "string", pattern: HASH_32 }) }),
  }),
  FractionizedPending: object({ rebuiltTransaction: { type: "string", pattern: HEX } }),
  FractionizedStatus: object(
    {
      key: { type: "string", pattern: HEX },
      exists: { type: "boolean" },
      policyId: nullable({ type: "string", pattern: HASH_28 }),
      initUtxoTxHash: nullable({ type: "string", pattern: HASH_32 }),
      initUtxoOutputIndex: nullable(integer),
      totalAmount: integer,
      remainingAmount: integer,
      exhausted: { type: "boolean" },
      status: nullable({ type: "string", enum: ["TokensAvailable", "TokensExhausted", null] }),
      claimants: { type: "array", items: { type: "string", pattern: HASH_28 } },
      assetName: nullable({ type: "string", pattern: HEX }),
      next: nullable({ type: "string", pattern: HEX }),
      certificate: object({ transactionHash: nullable({ type: "string", pattern: HASH_32 }), blockNumber: nullable(integer) }),
      keys: { type: "array", items: { type: "string", pattern: HEX } },
    },
    [
      "key",
      "exists",
      "policyId",
      "initUtxoTxHash",
      "initUtxoOutputIndex",
      "totalAmount",
      "remainingAmount",
      "exhausted",
      "status",
      "claimants",
      "assetName",
      "next",
      "certificate",
    ],
  ),
  BuildTransactionResponse: buildTransactionResponse,
  BatchBuildResponse: {
    allOf: [
      buildTransactionResponse,
      object({
        merkleRoot: { type: "string", pattern: HASH_32 },
        treeId: { type: "string", pattern: "^[0-9a-f]{32}$" },
        leafCount: integer,
      }),
    ],
  },
  CalendarReceipt: object(
    {
      receiptId: { type: "string", pattern: "^[0-9a-f]{32}$" },
      hash: { type: "string", pattern: HASH_32 },
      status: { type: "string", enum: ["pending", "submitted", "anchored"] },
      submittedAt: integer,
      statusUrl: string,
      expectedAnchorBy: integer,
      merkleRoot: { type: "string", pattern: HASH_32 },
      treeId: { type: "string", pattern: "^[0-9a-f]{32}$" },
      transactionHash: { type: "string", pattern: HASH_32 },
      proofUrl: string,
    },
    ["receiptId", "hash", "status", "submittedAt", "statusUrl"],
  ),
  CalendarSubmitResponse: object({
    status: { type: "string", enum: ["pending"] },
    submittedAt: integer,
    expectedAnchorBy: integer,
    receiptUrl: string,
    receipts: {
      type: "array",
      items: object({ receiptId: { type: "string", pattern: "^[0-9a-f]{32}$" }, hash: { type: "string", pattern: HASH_32 } }),
    },
    pending: integer,
  }),
  MintConnectedGoodsResponse: {
    allOf: [
      buildTransactionResponse,
      object(
        {
          batch_id: { type: "string", pattern: HASH_32 },
          batchId: { type: "string", pattern: HASH_32 },
          items: integer,
          token_name: string,
        },
        ["batch_id", "batchId", "items"],
      ),
    ],
  },
  SocialHub: object({
    owner: string,
    batch_id: { type: "string", pattern: HASH_32 },
    item_name: string,
    ...Object.fromEntries(SOCIAL_HUB_FIELDS.map((f) => [f, string])),
  }),
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
  CertificateRecord: certificateRecord,
  CertificateRecords: { type: "array", minItems: 1, items: certificateRecord },
  BatchProofs: { type: "array", minItems: 1, items: batchProof },
  ShortLink: object({ hash: { type: "string", pattern: HEX }, code: { type: "string", pattern: "^[0-9A-Za-z]{10}$" }, url: string }),
  UserActionChallenge: object(
    {
      address: string,
      action: string,
      message: string,
      signature: { type: "string", pattern: HEX },
      timestamp: integer,
      status: { type: "string", enum: ["200 OK"] },
    },
    ["address", "action", "message", "signature", "timestamp", "status"],
  ),
  UserActionResult: object(
    {
      state: nullable({ type: "object" }),
      unsignedTransaction: nullable({ type: "string", pattern: HEX }),
      status: { type: "string", enum: ["200 OK"] },
    },
    ["state", "unsignedTransaction", "status"],
  ),
  /** A refused user action or faucet step: the route's fields (nulls), `error`, `message` and `status` ("401 UNAUTHORIZED"…). */
  UserActionFailure: { allOf: [ref("Error"), object({ status: { type: "string", pattern: "^[45][0-9]{2} [A-Z_]+$" } })] },
  Boolean: { type: "boolean" },
  FaucetChallenge: object(
    { address: string, message: string, signature: { type: "string", pattern: HEX }, timestamp: integer, status: string },
    ["address", "message", "signature", "timestamp", "status"],
  ),
  FaucetClaim: object(
    {
      txHash: { type: "string", pattern: HASH_32 },
      transactionHash: { type: "string", pattern: HASH_32 },
      lovelace: { type: "string", pattern: "^[0-9]+$" },
      status: string,
    },
    ["txHash", "transactionHash", "status"],
  ),
  Credential: credential,
  /** A refused by-hash lookup; AMBIGUOUS_CREDENTIAL carries the hash and every issuer that registered it. */
  CredentialLookupFailure: {
    allOf: [
      ref("Error"),
      object(
        {
          authHash: { type: "string", pattern: HEX },
          issuers: { type: "array", minItems: 2, items: { type: "string", pattern: HASH_28 } },
        },
        [],
      ),
    ],
  },
  /** One credential when `type` is given, else all of them. */
  Credentials: { oneOf: [credential, { type: "array", items: credential }] },
  LibraryDeploymentResponse: object({
    address: string,
    entries: {
      type: "array",
      items: object({
        transactionHash: { type: "string", pattern: HASH_32 },
        outputIndex: integer,
        scriptHash: { type: "string", pattern: HASH_28 },
        isActiveContract: { type: "boolean" },
      }),
    },
    stakeRegistered: { type: "boolean" },
  }),
  Lovelace: { type: "integer", minimum: 0 },
  CertificatesByCategory: object(
    Object.fromEntries(
      ["Identity", "Connected Goods", "Notary", "Student Certification", "Cross-Chain Attestation"].map((k) => [
        k,
        { type: "integer", minimum: 0 },
      ]),
    ),
  ),
  ScriptDto: object({ script_hash: { type: "string", pattern: HASH_28 }, type: scriptType, serialised_size: nullable(integer) }),
  ScriptJsonDto: object({ json: nullable({ type: "object" }) }),
  ScriptDetailDto: object({ script_hash: { type: "string", pattern: HASH_28 }, script_type: scriptType, content: {} }),
  CborDto: object({ cbor: nullable({ type: "string", pattern: HEX }) }),
  DatumJson: object({ json_value: { type: "object" } }),
  TxContractDetails: {
    type: "array",
    items: object({
      tx_hash: { type: "string", pattern: HASH_32 },
      script_hash: nullable({ type: "string", pattern: HASH_28 }),
      script_content: nullable({ type: "string", pattern: HEX }),
      type: nullable(string),
      redeemer: object({
        tag: string,
        index: integer,
        data: { type: "string", pattern: HEX },
        ex_units: object({ mem: integer, steps: integer }),
      }),
      datum: nullable({ type: "string", pattern: HEX }),
      datum_hash: nullable({ type: "string", pattern: HASH_32 }),
    }),
  },
  TxRedeemers: {
    type: "array",
    items: object({
      tx_index: integer,
      purpose: string,
      script_hash: nullable({ type: "string", pattern: HASH_28 }),
      datum_hash: { type: "string", pattern: HASH_32 },
      redeemer_data_hash: { type: "string", pattern: HASH_32 },
      unit_mem: { type: "string", pattern: "^[0-9]+$" },
      unit_steps: { type: "string", pattern: "^[0-9]+$" },
    }),
  },
  PluginOverview: object({
    totalPlugins: integer,
    activePlugins: integer,
    filters: typeStats,
    preActions: typeStats,
    postActions: typeStats,
    eventHandlers: typeStats,
    schedulers: typeStats,
    initPlugins: typeStats,
  }),
  PluginList: object({
    pluginType: string,
    totalPlugins: integer,
    totalExecutions: integer,
    totalErrors: integer,
    plugins: {
      type: "array",
      items: object({
        name: string,
        language: string,
        executionCount: integer,
        successCount: integer,
        errorCount: integer,
        lastExecutionTime: isoTime,
        lastDuration: nullable(number),
        itemsProcessed: nullable(integer),
      }),
    },
  }),
  PluginDetail: object({
    name: string,
    type: string,
    language: string,
    executionMetrics: object({
      totalExecutions: integer,
      successfulExecutions: integer,
      failedExecutions: integer,
      successRate: number,
      lastExecutionTime: isoTime,
    }),
    itemMetrics: object({ totalItemsProcessed: integer }),
    durationMetrics: object({
      lastDuration: nullable(number),
      minDuration: nullable(number),
      maxDuration: nullable(number),
      averageDuration: nullable(number),
    }),
  }),
  SchedulerList: object({
    totalSchedulers: integer,
    runningSchedulers: integer,
    failedSchedulers: integer,
    schedulers: {
      type: "array",
      items: object({
        name: string,
        status: string,
        scheduleType: string,
        scheduleValue: string,
        totalExecutions: integer,
        lastExecutionTime: nullable(integer),
      }),
    },
  }),
  SchedulerStatus: object({
    name: string,
    status: string,
    scheduleType: string,
    scheduleValue: string,
    statistics: object(
      {
        totalExecutions: integer,
        successfulExecutions: integer,
        failedExecutions: integer,
        lastExecutionTime: nullable(integer),
        lastExecutionDuration: nullable(number),
        averageExecutionDuration: nullable(number),
        lastError: nullable(string),
      },
      ["totalExecutions", "successfulExecutions", "failedExecutions"],
    ),
  }),
} satisfies Record<string, Schema>;

export type SchemaName = keyof typeof RESPONSE_SCHEMAS;
