/**
 * CIP-57 description of the tokenizable extension's validators (the list and its CIP-68 metadata script): their
 * definitions and handler entries, merged into blueprint-schema.ts. Layouts mirror tokenizable/types.ts,
 * lib/cip68.ts and the codecs in shared/protocol (docs/extensions-onchain.md).
 */
import { type Schema, type ValidatorEntrySpec, constr, enumOf, field, ref } from "../blueprint-schema-parts";

export const TOKENIZABLE_DEFINITIONS: Record<string, Schema> = {
  TokenizableConfig: {
    title: "TokenizableConfig",
    anyOf: [
      constr("TokenizableConfig", 0, [
        field("service_validator_hash", "ByteArray"),
        { title: "allowed_inserters", description: "key hashes that may insert; empty = anyone", ...ref("List$ByteArray") },
        field("deployer", "ByteArray"),
        field("cip68_script_hash", "Option$ByteArray", "metadata script hash: None = plain token, Some = CIP-68 pair"),
      ]),
    ],
  },
  RedeemStatus: enumOf("RedeemStatus", ["Available", "Redeemed"]),
  TokenizableDatum: {
    title: "TokenizableDatum",
    anyOf: [
      constr("Head", 0, [field("next", "Option$ByteArray"), field("config", "TokenizableConfig")]),
      constr("Node", 1, [
        field("key", "ByteArray"),
        field("next", "Option$ByteArray"),
        field("owner", "ByteArray"),
        field("asset_name", "ByteArray", "blake2b_224(key): the name of the tokens the node mints"),
        field("status", "RedeemStatus"),
      ]),
    ],
  },
  TokenizableRedeemer: {
    title: "TokenizableRedeemer",
    anyOf: [
      constr("Init", 0, [field("key", "ByteArray")]),
      constr("Insert", 1, [field("key", "ByteArray")]),
      constr("Redeem", 2, [field("key", "ByteArray")]),
    ],
  },
  Cip68Datum: {
    title: "Cip68Datum",
    description: "CIP-68 metadata: a map with name, image, description and certificate_hash; version >= 1",
    anyOf: [constr("Cip68Datum", 0, [field("metadata", "Data"), field("version", "Int"), field("extra", "Data")])],
  },
};

export const TOKENIZABLE_VALIDATOR_SPECS: Record<"tokenizable" | "tokenizable_metadata", ValidatorEntrySpec> = {
  tokenizable: {
    parameters: [{ title: "init_utxo", description: "out-ref spent by the Init; makes the policy unique", ...ref("OutputReference") }],
    handlers: [
      {
        title: "tokenizable.tokenizable.mint",
        description:
          "Validates every transition: Init (HEAD + first node), Insert (sorted, linked node), Redeem (the owner's token, once).",
        redeemer: field("action", "TokenizableRedeemer"),
      },
      {
        title: "tokenizable.tokenizable.spend",
        description: "Accepted only when the list's own mint in the same transaction carries an equal redeemer (never Init).",
        datum: field("datum", "TokenizableDatum"),
        redeemer: field("action", "TokenizableRedeemer"),
      },
    ],
  },
  tokenizable_metadata: {
    parameters: [],
    handlers: [
      {
        title: "tokenizable_metadata.tokenizable_metadata.spend",
        description: "Holds CIP-68 reference tokens; only the deployer of the minting list may replace the metadata datum.",
        datum: field("datum", "Cip68Datum"),
        redeemer: field("redeemer", "Data"),
      },
    ],
  },
};
