/** The building blocks of the answer schemas: hex patterns and the JSON Schema shapes they compose. */
import { LOWER_HEX_PATTERNS } from "../../domain/hex";

export type Schema = Record<string, unknown>;

export const HEX = "^[0-9a-f]*$";
/** Hashes as the service answers them: lowercase. */
export const HASH_32 = LOWER_HEX_PATTERNS.hash32.source;
export const HASH_28 = LOWER_HEX_PATTERNS.hash28.source;
/** A 16-byte id in hex: a Merkle tree's, a calendar receipt's. */
export const ID_16 = "^[0-9a-f]{32}$";

export const string = { type: "string" } as const;
export const nullable = (schema: Schema): Schema => ({ ...schema, nullable: true });
export const integer = { type: "integer" } as const;
export const object = (properties: Record<string, Schema>, required: readonly string[] = Object.keys(properties)): Schema => ({
  type: "object",
  required: [...required],
  properties,
});
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const number = { type: "number" } as const;
