/** Scripts, datums and transactions as the indexer saw them. */
import { HEX, HASH_32, HASH_28, integer, nullable, object, string, type Schema } from "./shapes";

const scriptType = { type: "string", enum: ["timelock", "plutusV1", "plutusV2", "plutusV3"] };

export const SCRIPT_SCHEMAS = {
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
} satisfies Record<string, Schema>;
