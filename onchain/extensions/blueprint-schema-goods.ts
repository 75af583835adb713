/**
 * CIP-57 description of the connected-goods extension's validators (connected_goods, social_hub): their
 * definitions and handler entries, merged into blueprint-schema.ts. Layouts mirror connected-goods/types.ts and
 * the codecs in shared/protocol.
 */
import { PROFILE_FIELDS } from "../../shared/extensions/connected-goods/profile-fields";
import { type Schema, type ValidatorEntrySpec, constr, field, ref } from "../blueprint-schema-parts";

/** The social-hub profile fields in datum order (after owner, batch_id, item_name), named as in the datum. */
const PROFILE_FIELD_TITLES = PROFILE_FIELDS.map((name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

export const GOODS_DEFINITIONS: Record<string, Schema> = {
  BatchItem: {
    title: "BatchItem",
    anyOf: [
      constr("BatchItem", 0, [
        field("token_name", "ByteArray", "1..32 bytes; unique in the batch"),
        field("item_key_hash", "ByteArray", "blake2b-224 of the item key derived from the claiming password"),
      ]),
    ],
  },
  List$BatchItem: { dataType: "list", items: ref("BatchItem") },
  BatchDatum: {
    title: "BatchDatum",
    anyOf: [
      constr("BatchDatum", 0, [
        field("batch_id", "ByteArray", "sha2_256(tx_id ‖ uint16_le(index)) of the seed input; the batch token's name"),
        field("issuer", "ByteArray", "payment key hash of the issuer, who signed the mint"),
        field("hub_policy", "ByteArray", "social_hub script hash the claims mint under"),
        field("items", "List$BatchItem", "unclaimed items, strictly ascending by token_name"),
      ]),
    ],
  },
  GoodsMintRedeemer: {
    title: "GoodsMintRedeemer",
    anyOf: [
      constr("MintBatch", 0, [field("seed", "OutputReference", "an input the transaction spends; names the batch")]),
      constr("BurnBatch", 1, []),
    ],
  },
  GoodsSpendRedeemer: {
    title: "GoodsSpendRedeemer",
    anyOf: [constr("Claim", 0, [field("token_name", "ByteArray")]), constr("Close", 1, [])],
  },
  SocialHubDatum: {
    title: "SocialHubDatum",
    anyOf: [
      constr("SocialHubDatum", 0, [
        field("owner", "ByteArray", "payment key hash of the owner"),
        field("batch_id", "ByteArray"),
        field("item_name", "ByteArray", "the claimed item's token_name"),
        ...PROFILE_FIELD_TITLES.map((name) => field(name, "Option$ByteArray", "AES-256-GCM nonce ‖ ciphertext ‖ tag, 29..664 bytes")),
      ]),
    ],
  },
  HubSpendRedeemer: {
    title: "HubSpendRedeemer",
    anyOf: [constr("Update", 0, []), constr("Transfer", 1, [field("new_owner", "ByteArray", "payment key hash")])],
  },
};

export const GOODS_VALIDATOR_SPECS: Record<"connected_goods" | "social_hub", ValidatorEntrySpec> = {
  connected_goods: {
    parameters: [],
    handlers: [
      {
        title: "connected_goods.connected_goods.mint",
        description: "MintBatch: create a batch named by a spent input, signed by its issuer. BurnBatch: burn only (Close decides).",
        redeemer: field("redeemer", "GoodsMintRedeemer"),
      },
      {
        title: "connected_goods.connected_goods.spend",
        description: "Claim: take one item out, signed by its item key, minting its hub token. Close: the issuer retires an empty batch.",
        datum: field("datum", "BatchDatum"),
        redeemer: field("redeemer", "GoodsSpendRedeemer"),
      },
    ],
  },
  social_hub: {
    parameters: [{ title: "connected_goods_hash", description: "script hash of connected_goods", ...ref("ByteArray") }],
    handlers: [
      {
        title: "social_hub.social_hub.mint",
        description: "A hub is minted only by the Claim of its item in a batch naming this policy.",
        redeemer: field("redeemer", "Data"),
      },
      {
        title: "social_hub.social_hub.spend",
        description: "Update (profile fields) or Transfer (owner) by the owner.",
        datum: field("datum", "SocialHubDatum"),
        redeemer: field("redeemer", "HubSpendRedeemer"),
      },
    ],
  },
};
