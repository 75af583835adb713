/** The tokenizable-certificate routes (docs/api.md#tokenizable-certificates), the extension's slice of the route table. */
import { BUILD_REFUSAL_TYPES } from "../extension-module";
import { listPendingRoute } from "../list-kit/list-routes";
import { TOKENIZABLE_REFUSALS } from "./names";

export const TOKENIZABLE_ROUTES = [
  {
    method: "POST",
    path: "/extension/tokenizable-certificate/build",
    requiresProtocol: true,
    action: "tokenizable.build",
    tag: "tokenizable-certificate",
    summary: "Build an issue (Init/Insert) or a Redeem of a tokenizable certificate",
    request:
      "reference form { type: CREATE|REDEEM, senderAddress, certificate { hash, metadata? }, ownerPubKeyHash | ownerAddress, assetName?, initUtxoTxHash, initUtxoOutputIndex, bootstrapTokenName?, config? { deployer, allowedInserters, cip68ScriptAddress } } or spec form { type: Init|Insert|Redeem, address, policyId?, certificate { hash, metadata?, algorithm? }, owner, assetName?, config?, key }",
    response:
      "reference form: the unsigned transaction as raw hex text; spec form: { unsignedTransaction, policyId, initUtxoTxHash, initUtxoOutputIndex, key }; header X-Policy-Id",
    responseType: "text/plain",
    alsoJson: "TokenizableBuild",
    errors: [...TOKENIZABLE_REFUSALS.types, ...BUILD_REFUSAL_TYPES],
    statuses: { 409: "PENDING_TRANSACTION: an output the build needs was just taken by a transaction in flight; retry in a few seconds" },
    implemented: true,
  },
  {
    method: "GET",
    path: "/extension/tokenizable-certificate/status/{key}",
    action: "tokenizable.status",
    tag: "tokenizable-certificate",
    summary: "On-chain state of a tokenizable certificate node",
    response: "TokenizableStatus: the node as the indexer recorded it; exists false with nulls for an unknown list or key",
    responseSchema: "TokenizableStatus",
    errors: ["INVALID_FIELD"],
    query: [
      { name: "initUtxoTxHash", required: false, description: "init UTxO transaction hash" },
      { name: "initUtxoOutputIndex", required: false, description: "init UTxO output index" },
      { name: "policyId", required: false, description: "policy id of the list" },
    ],
    implemented: true,
  },
  {
    method: "GET",
    path: "/extension/tokenizable-certificate/metadata-script",
    action: "tokenizable.metadataScript",
    tag: "tokenizable-certificate",
    summary: "The CIP-68 metadata script holding the reference tokens (its hash goes in config.cip68ScriptAddress)",
    response: "{ scriptHash, address }",
    responseSchema: "TokenizableMetadataScript",
    implemented: true,
  },
  listPendingRoute("tokenizable", "tokenizable-certificate", "tokenizable"),
] as const;
