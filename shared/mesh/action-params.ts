/**
 * fastest-validator schemas of the path and query parameters several services share, defined once so every
 * route names a bad value the same way. A hex parameter reaches its handler as its branded type (lowercased by the
 * type's constructor, shared/domain/hex.ts): the validator runs a rule's `custom` after the rule's own checks, and
 * `hexParam` turns the value into the type there.
 */
import { DataHash, Hash32, HEX_PATTERNS, ScriptHash, TxHash, type Hex, type HexType } from "../domain/hex";

/** A rule's `custom`: the value as `type` once it is one (a value that failed the rule's pattern is left as it is). */
export function hexParam<T extends Hex>(type: HexType<T>): (value: unknown) => unknown {
  return (value) => type.parse(value) ?? value;
}

/** A transaction id: 64 hex digits. */
export const TX_HASH_PARAM = {
  type: "string",
  pattern: HEX_PATTERNS.hash32,
  messages: { stringPattern: "'{field}' must be 64 hex digits" },
  custom: hexParam(TxHash),
} as const;

/** A certificate (data) hash: even-length hex of at most 64 bytes. */
export const DATA_HASH_PARAM = {
  type: "string",
  pattern: HEX_PATTERNS.dataHash,
  messages: { stringPattern: "'{field}' must be even-length hex of at most 64 bytes" },
  custom: hexParam(DataHash),
} as const;

/** A 32-byte data hash (a Merkle batch's leaf): 64 hex digits. */
export const LEAF_HASH_PARAM = { ...TX_HASH_PARAM, custom: hexParam(DataHash) } as const;

/** A datum hash: 64 hex digits. */
export const DATUM_HASH_PARAM = { ...TX_HASH_PARAM, custom: hexParam(Hash32) } as const;

/** A script hash: 56 hex digits. */
export const SCRIPT_HASH_PARAM = {
  type: "string",
  pattern: HEX_PATTERNS.hash28,
  messages: { stringPattern: "'{field}' must be a 56-hex script hash" },
  custom: hexParam(ScriptHash),
} as const;
