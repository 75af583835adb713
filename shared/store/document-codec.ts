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

/** A sample is at most this many characters from the start of a document: a dictionary is shorter than that. */
export const SAMPLE_CHARS = 4_096;

/** The samples read, latest first, add up to at most this many characters (32 samples of `SAMPLE_CHARS`). */
const SAMPLES_CHARS = 32 * SAMPLE_CHARS;

export interface Dictionary {
  /** The header byte naming it, 1–255. */
  id: number;
  bytes: Uint8Array;
}

/**
 * A dictionary from sample documents' JSON texts: each sample cut to its first `SAMPLE_CHARS` characters (the
 * latest samples up to `SAMPLES_CHARS` in all), its unique runs removed (a run found in at least half of the
 * samples stays: an issuer's key hash or a state id every document repeats), repeated samples once, the latest
 * samples kept when they exceed `DICTIONARY_BYTES` (deflate reaches the end of a dictionary most cheaply).
 * The work is linear in the bounded samples whatever a document holds: a document of one 16-million-character
 * hex run once overflowed the regular expression's backtracking stack here, and failed the write that learned.
 * Any dictionary decodes what it encoded, so unrepresentative samples cost bytes, never correctness.
 */
export function learnDictionary(samples: readonly string[]): Uint8Array {
  const cut: string[] = [];
  for (let i = samples.length - 1, budget = SAMPLES_CHARS; i >= 0 && budget > 0; i--) {
    const sample = samplePrefix(samples[i] as string, Math.min(SAMPLE_CHARS, budget));
    cut.unshift(sample);
    budget -= Math.max(1, sample.length);
  }
  const runsOf = cut.map(uniqueRuns);
  const seenIn = new Map<string, number>();
  cut.forEach((text, i) => {
    for (const run of new Set((runsOf[i] as Run[]).map(([from, to]) => text.slice(from, to)))) seenIn.set(run, (seenIn.get(run) ?? 0) + 1);
  });
  const shared = (run: string): boolean => cut.length > 1 && 2 * (seenIn.get(run) ?? 0) >= cut.length;
  const stripped = new Set<string>();
  cut.forEach((text, i) => {
    let kept = "";
    let at = 0;
    for (const [from, to] of runsOf[i] as Run[]) {
      const run = text.slice(from, to);
      kept += text.slice(at, from) + (shared(run) ? run : "");
      at = to;
    }
    stripped.add(kept + text.slice(at));
  });
  const bytes = Buffer.from([...stripped].join(""), "utf8");
  return bytes.length > DICTIONARY_BYTES ? bytes.subarray(bytes.length - DICTIONARY_BYTES) : bytes;
}

/** A run of a text, `[from, to)`. */
type Run = readonly [number, number];

/** The first `chars` characters of a text, one fewer when the cut would split a surrogate pair. */
function samplePrefix(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const last = text.charCodeAt(chars - 1);
  return text.slice(0, last >= 0xd800 && last < 0xdc00 ? chars - 1 : chars);
}

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
/** Base64 and base64url characters (hex digits among them), without the `=` padding. */
const isBase64 = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 43 || c === 47 || c === 95 || c === 45;

/**
 * The runs of a text that never repeat across documents, in order: base64 runs of 40 characters or more (with
 * their `=` padding) and, in shorter base64 runs, hex runs of 16 or more (hashes, keys, CBOR). One pass over the
 * characters, no regular expression: its cost and stack do not depend on how long a run is.
 */
function uniqueRuns(text: string): Run[] {
  const runs: Run[] = [];
  let i = 0;
  while (i < text.length) {
    if (!isBase64(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i;
    while (end < text.length && isBase64(text.charCodeAt(end))) end++;
    if (end - i >= 40) {
      let padded = end;
      while (padded < text.length && padded - end < 2 && text.charCodeAt(padded) === 61) padded++;
      runs.push([i, padded]);
      i = padded;
      continue;
    }
    for (let at = i; at < end;) {
      let hexEnd = at;
      while (hexEnd < end && isHex(text.charCodeAt(hexEnd))) hexEnd++;
      if (hexEnd - at >= 16) runs.push([at, hexEnd]);
      at = Math.max(hexEnd, at + 1);
    }
    i = end;
  }
  return runs;
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
