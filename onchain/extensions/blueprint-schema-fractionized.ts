/**
 * CIP-57 description of the fractionized extension's validator: its definitions and handler entries, merged into
 * blueprint-schema.ts. Layouts mirror fractionized/types.ts and the codecs in shared/protocol
 * (docs/extensions-onchain.md).
 */
import { type Schema, type ValidatorEntrySpec, constr, enumOf, field, ref } from "../blueprint-schema-parts";

export const FRACTIONIZED_DEFINITIONS: Record<string, Schema> = {
  FractionizedConfig: {
    title: "FractionizedConfig",
    anyOf: [
      constr("FractionizedConfig", 0, [
        field("service_validator_hash", "ByteArray"),
        { title: "allowed_inserters", description: "key hashes that may insert; empty = anyone", ...ref("List$ByteArray") },
        field("deployer", "ByteArray"),
      ]),
    ],
  },
  TokensStatus: enumOf("TokensStatus", ["TokensAvailable", "TokensExhausted"]),
  FractionizedDatum: {
    title: "FractionizedDatum",
    anyOf: [
      constr("Head", 0, [field("next", "Option$ByteArray"), field("config", "FractionizedConfig")]),
      constr("Node", 1, [
        field("key", "ByteArray"),
        field("next", "Option$ByteArray"),
        field("total_amount", "Int"),
        field("remaining_amount", "Int"),
        { title: "claimants", description: "key hashes that may claim; empty = anyone", ...ref("List$ByteArray") },
        field("asset_name", "ByteArray", "blake2b_224(key): the name of the tokens the node mints"),
        field("status", "TokensStatus"),
      ]),
    ],
  },
  FractionizedRedeemer: {
    title: "FractionizedRedeemer",
    anyOf: [
      constr("Init", 0, [field("key", "ByteArray")]),
      constr("Insert", 1, [field("key", "ByteArray")]),
      constr("Claim", 2, [field("key", "ByteArray"), field("claimer", "ByteArray"), field("amount", "Int")]),
    ],
  },
};

export const FRACTIONIZED_VALIDATOR_SPECS: Record<"fractionized", ValidatorEntrySpec> = {
  fractionized: {
    parameters: [{ title: "init_utxo", description: "out-ref spent by the Init; makes the policy unique", ...ref("OutputReference") }],
    handlers: [
      {
        title: "fractionized.fractionized.mint",
        description: "Validates every transition: Init (HEAD + first node), Insert (sorted, linked node), Claim (mint the node's asset).",
        redeemer: field("action", "FractionizedRedeemer"),
      },
      {
        title: "fractionized.fractionized.spend",
        description: "Accepted only when the list's own mint in the same transaction carries an equal redeemer (never Init).",
        datum: field("datum", "FractionizedDatum"),
        redeemer: field("action", "FractionizedRedeemer"),
      },
    ],
  },
};
