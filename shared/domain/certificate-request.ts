/**
 * Normalises the CertificateData of a build request (docs/api.md#certificate-data):
 * - `hash`: non-empty, even-length hex of at most 64 bytes; stored lowercase.
 * - `algorithm`: defaults from the hash length (32 bytes → SHA-256, 64 bytes → SHA-512), otherwise required; when
 *   given, a non-empty printable name of at most 64 characters.
 * - `metadata`: a JSON string, or a JSON object stored as its JSON text; missing, null or "" → "" (no metadata).
 * Both are written on chain and shown on the certificate pages, so neither may hold a control character or a lone
 * surrogate (printable-text.ts).
 */
import { badRequest } from "./errors";
import { DataHash, HEX_PATTERNS, MAX_DATA_HASH_BYTES } from "./hex";
import { unprintableInMetadata, unprintableProblem } from "./printable-text";

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
  const field = `certificates[${index}].metadata`;
  if (value === undefined || value === null) return "";
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "object" && !Array.isArray(value)) text = JSON.stringify(value);
  else return badRequest(`${field} must be a JSON string or a JSON object`, { index, field });
  const problem = unprintableInMetadata(text, field);
  if (problem !== undefined) badRequest(problem, { index, field });
  return text;
}

/** A certificate's `algorithm` as given: a non-empty printable name of at most 64 characters. */
export function algorithmProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return "must be a non-empty name such as SHA-256 (leave it out for the default)";
  if (value.length > 64) return "must be at most 64 characters";
  const problem = unprintableProblem(value);
  return problem === undefined ? undefined : problem;
}

export function normaliseCertificate(input: CertificateInput, index = 0): Certificate {
  if (input === null || typeof input !== "object") badRequest(`certificates[${index}] must be an object`, { index });
  const hash = normaliseHash(input.hash, `certificates[${index}].hash`);
  let algorithm: string | undefined;
  if (input.algorithm === undefined || input.algorithm === null) {
    algorithm = defaultAlgorithm(hash);
    if (!algorithm)
      badRequest(`certificates[${index}].algorithm is required for a ${hash.length / 2}-byte hash`, {
        index,
        field: `certificates[${index}].algorithm`,
      });
  } else {
    const problem = algorithmProblem(input.algorithm);
    if (problem !== undefined)
      badRequest(`certificates[${index}].algorithm ${problem}`, { index, field: `certificates[${index}].algorithm` });
    algorithm = input.algorithm as string;
  }
  return { hash, algorithm, metadata: normaliseMetadata(input.metadata, index) };
}

/** @throws DomainError BAD_REQUEST when the list is missing, empty or holds an invalid certificate */
export function normaliseCertificates(list: unknown): Certificate[] {
  if (!Array.isArray(list) || list.length === 0) badRequest("certificates must be a non-empty array");
  return list.map((c, i) => normaliseCertificate(c as CertificateInput, i));
}
