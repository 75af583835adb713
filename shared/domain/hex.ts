/**
 * Hex values with a meaning, as branded strings: a `TxHash` is 64 lowercase hex digits and nothing else can be passed
 * where one is expected. Each type has one validating constructor, made where the value enters the service (a
 * request's field, an action's params, a decoded transaction, the configuration), which accepts either case and
 * lowercases; every module inside takes the branded type and neither re-checks nor re-lowercases it.
 *
 * - `TxHash(hex)` throws HexError INVALID_HEX on the wrong length or on non-hex input;
 * - `TxHash.parse(value)` is the same check for a value of any type, answering undefined instead of throwing (an
 *   edge that words its own refusal);
 * - `TxHash.is(value)` is the type guard: true for a value already in the canonical (lowercase) form.
 *
 * `HEX_PATTERNS` is the one set of patterns (either case) that requests are checked against, also the source of the
 * patterns the OpenAPI document and the action params show; `LOWER_HEX_PATTERNS` is the canonical form answers carry.
 */
import { TypedError } from "./errors";

declare const HEX_BRAND: unique symbol;

/** Lowercase, even-length hex; `K` names what it is. Every branded hex type below is a `Hex`. */
export type Hex<K extends string = string> = string & { readonly [HEX_BRAND]: K };

/** Even-length hex of any length, possibly empty (an asset name, CBOR, …). */
export type HexBytes = Hex<"HexBytes">;
/** A transaction id: 32 bytes. */
export type TxHash = Hex<"TxHash">;
/** A certificate's data hash: 1 to 64 bytes (SHA-256 and SHA-512 among others); a Merkle batch's leaves are 32. */
export type DataHash = Hex<"DataHash">;
/** A payment or stake key hash: 28 bytes (blake2b-224 of a verification key). */
export type KeyHash = Hex<"KeyHash">;
/** A script hash: 28 bytes. */
export type ScriptHash = Hex<"ScriptHash">;
/** A minting policy id: the hash of its script. */
export type PolicyId = ScriptHash;
/** A user state's id: the 32-byte name of its state token. */
export type StateId = Hex<"StateId">;
/** A 32-byte hash with no type of its own: a datum hash, a block id, a connected-goods batch or item id. */
export type Hash32 = Hex<"Hash32">;

/** The longest certificate data hash accepted, in bytes. */
export const MAX_DATA_HASH_BYTES = 64;

/** The patterns a request's hex is checked against: either case. */
export const HEX_PATTERNS = {
  /** even-length hex, possibly empty */
  bytes: /^(?:[0-9a-fA-F]{2})*$/,
  /** 32 bytes: a transaction id, a state id, a 32-byte hash */
  hash32: /^[0-9a-fA-F]{64}$/,
  /** 28 bytes: a key hash, a script hash, a policy id */
  hash28: /^[0-9a-fA-F]{56}$/,
  /** 1 to 64 bytes: a certificate's data hash */
  dataHash: /^(?:[0-9a-fA-F]{2}){1,64}$/,
} as const;

/** The canonical form of the same values: lowercase, as the service stores and answers them. */
export const LOWER_HEX_PATTERNS = {
  bytes: /^(?:[0-9a-f]{2})*$/,
  hash32: /^[0-9a-f]{64}$/,
  hash28: /^[0-9a-f]{56}$/,
  dataHash: /^(?:[0-9a-f]{2}){1,64}$/,
} as const;

/** A value refused by a hex type's constructor. */
export class HexError extends TypedError<"INVALID_HEX"> {
  override readonly name = "HexError";
}

export interface HexType<T extends Hex> {
  /** @throws HexError INVALID_HEX when `hex` is not of this type (either case accepted) */
  (hex: string): T;
  /** The value as this type (lowercased), or undefined when it is not a string of this type. */
  parse(value: unknown): T | undefined;
  /** True for a value of this type in canonical (lowercase) form. */
  is(value: unknown): value is T;
}

type PatternName = keyof typeof HEX_PATTERNS;

function hexType<T extends Hex>(what: string, pattern: PatternName): HexType<T> {
  const accepted = HEX_PATTERNS[pattern];
  const canonical = LOWER_HEX_PATTERNS[pattern];
  // The one place hex is lowercased.
  const parse = (value: unknown): T | undefined =>
    typeof value === "string" && accepted.test(value) ? (value.toLowerCase() as T) : undefined;
  const make = (hex: string): T => {
    const v = parse(hex);
    if (v === undefined) throw new HexError("INVALID_HEX", `not ${what}: ${String(hex).slice(0, 140)}`, { what });
    return v;
  };
  const is = (value: unknown): value is T => typeof value === "string" && canonical.test(value);
  return Object.assign(make, { parse, is });
}

export const HexBytes = hexType<HexBytes>("even-length hex", "bytes");
export const TxHash = hexType<TxHash>("a transaction id (64 hex digits)", "hash32");
export const DataHash = hexType<DataHash>(`a data hash (even-length hex of 1 to ${MAX_DATA_HASH_BYTES} bytes)`, "dataHash");
export const KeyHash = hexType<KeyHash>("a key hash (56 hex digits)", "hash28");
export const ScriptHash = hexType<ScriptHash>("a script hash (56 hex digits)", "hash28");
export const PolicyId: HexType<PolicyId> = ScriptHash;
export const StateId = hexType<StateId>("a state id (64 hex digits)", "hash32");
export const Hash32 = hexType<Hash32>("a 32-byte hash (64 hex digits)", "hash32");
