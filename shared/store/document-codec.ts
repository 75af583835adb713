/**
 * The bytes a stored document takes in the SQLite adapter: one header byte, then either the document's JSON text
 * (header 0) or that text compressed with raw deflate against a dictionary of its collection (header = the
 * dictionary's number, 1–255).
 *
 * A collection's documents repeat their keys and constant values ("certificate.issued", "SHA-256", field names)
 * row after row; a row of a few hundred bytes is too short for deflate to find those repeats within itself, but
 * a preset dictionary made of a few earlier documents gives them to it. The dictionary keeps the documents'
 * structure and drops their long hex and base64 runs (hashes, keys, CBOR), which never repeat across documents.
 *
 * The JSON text is the unit: decoding gives back exactly the text that was encoded, so whatever JSON keeps (key
 * order, unicode, numbers as `JSON.stringify` writes them) is kept.
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { StoreError } from "./errors";

/** Header of a document stored as plain JSON text. */
export const RAW = 0;

/** Documents shorter than this (JSON bytes) are kept as text: deflate's few bytes of saving cost a call each. */
export const COMPRESS_FROM_BYTES = 64;

/** A dictionary is at most this long; deflate reads it for every document, so a longer one costs time. */
export const DICTIONARY_BYTES = 4_096;

/**
 * Deflate's window (2^13 bytes: a dictionary and a row both fit) and hash memory. Each call builds its own stream,
 * so small ones cost less to set up than zlib's defaults (window 2^15, memory level 8), for the same bytes on rows
 * this size.
 */
const DEFLATE_OPTIONS = { windowBits: 13, memLevel: 5 } as const;

/** Runs that never repeat across documents: hex (hashes, keys, CBOR) and base64 of 40 characters or more. */
const UNIQUE_RUNS = /[0-9a-fA-F]{16,}|[A-Za-z0-9+/_-]{40,}={0,2}/g;

export interface Dictionary {
  /** The header byte naming it, 1–255. */
  id: number;
  bytes: Uint8Array;
}

/**
 * A dictionary from sample documents' JSON texts: each with its unique runs removed (a run found in at least half
 * of the samples stays: an issuer's key hash or a state id every document repeats), repeated samples once, the
 * latest samples kept when they exceed `DICTIONARY_BYTES` (deflate reaches the end of a dictionary most cheaply).
 * Any dictionary decodes what it encoded, so unrepresentative samples cost bytes, never correctness.
 */
export function learnDictionary(samples: readonly string[]): Uint8Array {
  const seenIn = new Map<string, number>();
  for (const text of samples) for (const run of new Set(text.match(UNIQUE_RUNS))) seenIn.set(run, (seenIn.get(run) ?? 0) + 1);
  const shared = (run: string): boolean => samples.length > 1 && 2 * (seenIn.get(run) ?? 0) >= samples.length;
  const stripped = [...new Set(samples.map((text) => text.replace(UNIQUE_RUNS, (run) => (shared(run) ? run : ""))))];
  const bytes = Buffer.from(stripped.join(""), "utf8");
  return bytes.length > DICTIONARY_BYTES ? bytes.subarray(bytes.length - DICTIONARY_BYTES) : bytes;
}

/** The stored bytes of a document's JSON text: compressed with the dictionary when that is shorter, else the text. */
export function encodeDocument(json: string, dictionary?: Dictionary): Uint8Array {
  const text = Buffer.from(json, "utf8");
  if (dictionary !== undefined && text.length >= COMPRESS_FROM_BYTES) {
    const packed = deflateRawSync(text, { ...DEFLATE_OPTIONS, dictionary: dictionary.bytes, chunkSize: outputChunk(text.length + 64) });
    if (packed.length < text.length) {
      const out = Buffer.allocUnsafe(packed.length + 1);
      out[0] = dictionary.id;
      packed.copy(out, 1);
      return out;
    }
  }
  const out = Buffer.allocUnsafe(text.length + 1);
  out[0] = RAW;
  text.copy(out, 1);
  return out;
}

/**
 * The JSON text of stored bytes.
 * @param dictionaryOf the collection's dictionary of a header byte, undefined when it has none of that number
 * @throws StoreError `STORE_CORRUPT` for empty bytes, a header naming no dictionary, or bytes that do not inflate
 */
export function decodeDocument(stored: Uint8Array, dictionaryOf: (id: number) => Uint8Array | undefined): string {
  if (stored.length === 0) throw corrupt("a stored document has no header byte", { header: null });
  const header = stored[0] as number;
  const body = Buffer.from(stored.buffer, stored.byteOffset + 1, stored.length - 1);
  if (header === RAW) return body.toString("utf8");
  const dictionary = dictionaryOf(header);
  if (dictionary === undefined)
    throw corrupt(`a stored document names dictionary ${header}, which its collection does not have`, { header });
  try {
    return inflateRawSync(body, { windowBits: DEFLATE_OPTIONS.windowBits, dictionary, chunkSize: outputChunk(4 * body.length) }).toString(
      "utf8",
    );
  } catch (err) {
    throw corrupt(`a stored document does not inflate with dictionary ${header}: ${(err as Error).message}`, { header });
  }
}

/**
 * The output buffer zlib allocates per call, sized to the expected output (more is read in further chunks): the
 * default 16 KiB per call, thousands of times a second, made the process's memory grow by hundreds of MB.
 */
function outputChunk(expected: number): number {
  return Math.min(16_384, Math.max(1_024, expected));
}

function corrupt(message: string, data: Record<string, unknown>): StoreError {
  return new StoreError("STORE_CORRUPT", message, data);
}
