/** Answers of the extensions' routes: the list extensions (fractionized, tokenizable) and connected goods. */
import { PROFILE_FIELDS, PROFILE_JSON_NAMES } from "../../extensions/connected-goods/profile-fields";
import { buildTransactionResponse } from "./transactions";
import { HEX, HASH_32, HASH_28, integer, nullable, object, string, type Schema } from "./shapes";

/** The spec form's build answer, the same for both list extensions. */
const listBuild = object({
  unsignedTransaction: { type: "string", pattern: HEX },
  policyId: { type: "string", pattern: HASH_28 },
  initUtxoTxHash: { type: "string", pattern: HASH_32 },
  initUtxoOutputIndex: integer,
  key: { type: "string", pattern: HEX },
});

export const LIST_EXTENSION_SCHEMAS = {
  FractionizedBuild: listBuild,
  TokenizableBuild: listBuild,
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
} satisfies Record<string, Schema>;

export const CONNECTED_GOODS_SCHEMAS = {
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
    // the profile fields, in datum order ("" when unset)
    ...Object.fromEntries(PROFILE_FIELDS.map((f) => [PROFILE_JSON_NAMES[f], string])),
  }),
} satisfies Record<string, Schema>;
