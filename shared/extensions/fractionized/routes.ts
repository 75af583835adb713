/** The fractionized-certificate routes (docs/api.md#fractionized-certificates), the extension's slice of the route table. */
import { BUILD_REFUSAL_TYPES } from "../extension-module";
import { listPendingRoute } from "../list-kit/list-routes";
import { FRACTIONIZED_REFUSALS } from "./names";

export const FRACTIONIZED_ROUTES = [
  {
    method: "POST",
    path: "/extension/fractionized-certificate/build",
    requiresProtocol: true,
    action: "fractionized.build",
    tag: "fractionized-certificate",
    summary: "Build an issue (Init/Insert) or a Claim of fractionized tokens",
    request:
      "spec form { type: Init|Insert|Claim, address, policyId?, certificate { hash, metadata?, algorithm? }, tokenAmount, assetName?, claimants, claimer, amount, key } or reference form { type: CREATE|REDEEM, senderAddress, initUtxoTxHash, initUtxoOutputIndex, config?, key, totalAmount, claimants, assetName?, bootstrapTokenName?, amount }",
    response:
      "reference form: the unsigned transaction as raw hex text; spec form: { unsignedTransaction, policyId, initUtxoTxHash, initUtxoOutputIndex, key }; header X-Policy-Id",
    responseType: "text/plain",
    alsoJson: "FractionizedBuild",
    errors: [...FRACTIONIZED_REFUSALS.types, ...BUILD_REFUSAL_TYPES],
    statuses: { 409: "PENDING_TRANSACTION: an output the build needs was just taken by a transaction in flight; retry in a few seconds" },
    implemented: true,
  },
  {
    method: "GET",
    path: "/extension/fractionized-certificate/status/{key}",
    action: "fractionized.status",
    tag: "fractionized-certificate",
    summary: "On-chain state of a fractionized certificate node",
    response: "FractionizedStatus: the node as the indexer recorded it; exists false with zeros and nulls for an unknown list or key",
    responseSchema: "FractionizedStatus",
    errors: ["INVALID_FIELD"],
    query: [
      { name: "policyId", required: false, description: "policy id of the list" },
      { name: "initUtxoTxHash", required: false, description: "init UTxO transaction hash (reference form)" },
      { name: "initUtxoOutputIndex", required: false, description: "init UTxO output index (reference form)" },
    ],
    implemented: true,
  },
  listPendingRoute("fractionized", "fractionized-certificate", "fractionized"),
] as const;
