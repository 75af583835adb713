/**
 * The CIP-57 description of our validators: titles, parameter and datum/redeemer schemas, and the shared
 * definitions. Pure data (no plu-ts), used by scripts/build-onchain.ts to write onchain/plutus.json.
 * Layouts mirror onchain/types.ts and shared/protocol. The extensions' definitions and entries are in
 * blueprint-schema-fractionized.ts, blueprint-schema-tokenizable.ts and blueprint-schema-goods.ts; the helpers in blueprint-schema-parts.ts.
 */
import type { ValidatorName } from "./validator-names";
import { type Schema, type ValidatorEntrySpec, constr, enumOf, field, ref } from "./blueprint-schema-parts";
import { FRACTIONIZED_DEFINITIONS, FRACTIONIZED_VALIDATOR_SPECS } from "./extensions/blueprint-schema-fractionized";
import { TOKENIZABLE_DEFINITIONS, TOKENIZABLE_VALIDATOR_SPECS } from "./extensions/blueprint-schema-tokenizable";
import { GOODS_DEFINITIONS, GOODS_VALIDATOR_SPECS } from "./extensions/blueprint-schema-goods";

export const DEFINITIONS: Record<string, Schema> = {
  ByteArray: { dataType: "bytes" },
  Int: { dataType: "integer" },
  Data: { title: "Data", description: "Any Plutus data." },
  Bool: enumOf("Bool", ["False", "True"]),
  List$ByteArray: { dataType: "list", items: ref("ByteArray") },
  List$Data: { dataType: "list", items: ref("Data") },
  List$Certificate: { dataType: "list", items: ref("Certificate") },
  Option$ByteArray: {
    title: "Option",
    anyOf: [constr("Some", 0, [ref("ByteArray")]), constr("None", 1, [])],
  },
  OutputReference: {
    title: "OutputReference",
    anyOf: [constr("OutputReference", 0, [field("transactionId", "ByteArray"), field("outputIndex", "Int")])],
  },
  ProxyRedeemer: enumOf("ProxyRedeemer", ["ADMIN", "USER"]),
  ProxyDatum: {
    title: "ProxyDatum",
    anyOf: [constr("ProxyDatum", 0, [field("script_pointer", "ByteArray"), field("script_owner", "ByteArray")])],
  },
  StatePurpose: enumOf("StatePurpose", ["BURN_BOOTSTRAP", "BURN_STATE", "UPDATE_STATE", "MINT_STATE", "MINT_BOOTSTRAP"]),
  Certificate: {
    title: "Certificate",
    anyOf: [
      constr("Certificate", 0, [
        field("hash", "ByteArray"),
        field("algorithm", "ByteArray"),
        field("issuer", "ByteArray"),
        { title: "extra", description: "metadata as UTF-8 chunks of at most 64 bytes", ...ref("List$ByteArray") },
      ]),
    ],
  },
  StateRedeemer: {
    title: "StateRedeemer",
    anyOf: [constr("StateRedeemer", 0, [field("purpose", "StatePurpose"), field("certificates", "List$Certificate")])],
  },
  BootstrapDatum: {
    title: "BootstrapDatum",
    anyOf: [
      constr("BootstrapDatum", 0, [
        field("allowed_credentials", "List$ByteArray"),
        field("token_name", "ByteArray"),
        field("fee", "Int"),
        field("fee_interval", "Int"),
        field("fee_receivers", "List$ByteArray"),
        field("ttl", "Int"),
        field("transaction_limit", "Int"),
        field("batch_size", "Int"),
      ]),
    ],
  },
  StateDatum: {
    title: "StateDatum",
    anyOf: [
      constr("StateDatum", 0, [
        field("id", "ByteArray"),
        field("owner", "ByteArray"),
        field("fee", "Int"),
        field("fee_interval", "Int"),
        field("fee_receivers", "List$ByteArray"),
        field("ttl", "Int"),
        field("countdown", "Int"),
        field("certificate_data_hash", "ByteArray"),
        field("batch_size", "Int"),
        field("bootstrap_datum_name", "ByteArray"),
        field("keep_as_oracle", "Bool"),
      ]),
    ],
  },
  ProtocolDatum: {
    title: "ProtocolDatum",
    description: "Datums held at the proxy address: the pointer, bootstraps and states.",
    anyOf: [ref("ProxyDatum"), ref("BootstrapDatum"), ref("StateDatum")],
  },
  ...FRACTIONIZED_DEFINITIONS,
  ...TOKENIZABLE_DEFINITIONS,
  ...GOODS_DEFINITIONS,
};

export const VALIDATOR_SPECS: Record<ValidatorName, ValidatorEntrySpec> = {
  proxy: {
    parameters: [
      { title: "one_shot", description: "out-ref spent by the pointer mint; names the pointer token", ...ref("OutputReference") },
    ],
    handlers: [
      {
        title: "proxy.proxy.mint",
        description: "ADMIN: mint the pointer (init). USER: delegated to the state script's withdrawal.",
        redeemer: field("action", "ProxyRedeemer"),
      },
      {
        title: "proxy.proxy.spend",
        description: "ADMIN: upgrade the pointer. USER: delegated to the state script's withdrawal.",
        datum: field("datum", "ProtocolDatum"),
        redeemer: field("action", "ProxyRedeemer"),
      },
    ],
  },
  state: {
    parameters: [
      { title: "proxy_policy_id", ...ref("ByteArray") },
      { title: "pointer_token_name", ...ref("ByteArray") },
      { title: "bootstrap_administrators", ...ref("List$ByteArray") },
    ],
    handlers: [
      {
        title: "state.state.withdraw",
        description: "All business rules, selected by the purpose.",
        redeemer: field("redeemer", "StateRedeemer"),
      },
      {
        title: "state.state.publish",
        description: "Only the registration of the script's stake credential.",
        redeemer: field("redeemer", "Data"),
      },
    ],
  },
  library: {
    parameters: [{ title: "administrator", ...ref("ByteArray") }],
    handlers: [
      {
        title: "library.library.spend",
        description: "Any spend needs the administrator's signature.",
        datum: field("datum", "Data"),
        redeemer: field("redeemer", "Data"),
      },
    ],
  },
  ...FRACTIONIZED_VALIDATOR_SPECS,
  ...TOKENIZABLE_VALIDATOR_SPECS,
  ...GOODS_VALIDATOR_SPECS,
};
