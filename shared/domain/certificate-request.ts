/**
 * Normalises the CertificateData of a build request (docs/api.md#certificate-data):
 * - `hash`: non-empty, even-length hex of at most 64 bytes; stored lowercase.
 * - `algorithm`: defaults from the hash length (32 bytes → SHA-256, 64 bytes → SHA-512), otherwise required.
 * - `metadata`: a JSON string, or a JSON object stored as its JSON text; missing → "".
 */
import { badRequest } from "./errors";
import { DataHash, HEX_PATTERNS, MAX_DATA_HASH_BYTES } from "./hex";

export interface CertificateInput {
  hash?: unknown;
  algorithm?: unknown;
  metadata?: unknown;
}

export interface Certificate {
  hash: DataHash;
  algorithm: string;
  metadata: string;
}

export const MAX_HASH_BYTES = MAX_DATA_HASH_BYTES;

export function normaliseHash(value: unknown, field = "hash"): DataHash {
  if (typeof value !== "string" || value.length === 0) badRequest(`${field} must be a non-empty hex string`, { field });
  if (!HEX_PATTERNS.bytes.test(value)) badRequest(`${field} must be even-length hexadecimal`, { field });
  if (value.length / 2 > MAX_HASH_BYTES) badRequest(`${field} is longer than ${MAX_HASH_BYTES} bytes`, { field, bytes: value.length / 2 });
  return DataHash(value);
}

function defaultAlgorithm(hashHex: DataHash): string | undefined {
  if (hashHex.length === 64) return "SHA-256";
  if (hashHex.length === 128) return "SHA-512";
  return undefined;
}

function normaliseMetadata(value: unknown, index: number): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object" && !Array.isArray(value)) return JSON.stringify(value);
  return badRequest(`certificates[${index}].metadata must be a JSON string or a JSON object`, { index });
}

export function normaliseCertificate(input: CertificateInput, index = 0): Certificate {
  if (input === null || typeof input !== "object") badRequest(`certificates[${index}] must be an object`, { index });
  const hash = normaliseHash(input.hash, `certificates[${index}].hash`);
  let algorithm: string | undefined;
  if (input.algorithm === undefined || input.algorithm === null || input.algorithm === "") {
    algorithm = defaultAlgorithm(hash);
    if (!algorithm) badRequest(`certificates[${index}].algorithm is required for a ${hash.length / 2}-byte hash`, { index });
  } else if (typeof input.algorithm === "string" && input.algorithm.length <= 64) {
    algorithm = input.algorithm;
  } else {
    badRequest(`certificates[${index}].algorithm must be a string of at most 64 characters`, { index });
  }
  return { hash, algorithm, metadata: normaliseMetadata(input.metadata, index) };
}

/** @throws DomainError BAD_REQUEST when the list is missing, empty or holds an invalid certificate */
export function normaliseCertificates(list: unknown): Certificate[] {
  if (!Array.isArray(list) || list.length === 0) badRequest("certificates must be a non-empty array");
  return list.map((c, i) => normaliseCertificate(c as CertificateInput, i));
}
