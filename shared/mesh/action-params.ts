/**
 * fastest-validator schemas of the path and query parameters several services share, defined once so every
 * route names a bad value the same way.
 */

/** A transaction id: 64 hex digits. */
export const TX_HASH_PARAM = {
  type: "string",
  pattern: /^[0-9a-fA-F]{64}$/,
  messages: { stringPattern: "'{field}' must be 64 hex digits" },
} as const;

/** A certificate (data) hash: even-length hex of at most 64 bytes. */
export const DATA_HASH_PARAM = {
  type: "string",
  pattern: /^([0-9a-fA-F]{2}){1,64}$/,
  messages: { stringPattern: "'{field}' must be even-length hex of at most 64 bytes" },
} as const;

/** A script hash: 56 hex digits. */
export const SCRIPT_HASH_PARAM = {
  type: "string",
  pattern: /^[0-9a-fA-F]{56}$/,
  messages: { stringPattern: "'{field}' must be a 56-hex script hash" },
} as const;
