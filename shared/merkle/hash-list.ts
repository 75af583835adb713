/**
 * A list of 32-byte hashes as a request carries it (`POST /batch/build`, `POST /batch/submit`): a JSON array of
 * 64-hex-digit strings in any case, or, where the route takes bytes, the hashes back to back (a Buffer in one
 * process; `{ type: "Buffer", data }` once the broker's JSON serializer has carried it). Parsed once, into the
 * packed hashes or the problem that stops them; each route words the problem in its own answer (hashListAnswer).
 */
import { HEX_PATTERNS } from "../domain/hex";
import { NODE_BYTES } from "./merkle-tree";

export type HashListProblem =
  | { kind: "missing" }
  | { kind: "not-a-list" }
  | { kind: "empty" }
  | { kind: "too-many"; count: number; maxHashes: number }
  | { kind: "not-a-hash"; index: number }
  /** bytes that are not a whole number of hashes */
  | { kind: "ragged-bytes"; length: number };

type HashListParse = { packed: Buffer; problem?: undefined } | { problem: HashListProblem };

interface HashListOptions {
  maxHashes: number;
  /** the route takes raw bytes too (an application/octet-stream body) */
  acceptBytes: boolean;
}

/**
 * Lists up to this long are checked as one joined string (one scan, the calendar's requests); longer ones (batches
 * of up to a million) are packed hash by hash, so no second copy of their text is ever held.
 */
const JOINED_CHECK_MAX = 8192;

/** The problem of `length` packed bytes, if any: empty, not whole hashes, or more than `maxHashes`. */
export function packedLengthProblem(length: number, maxHashes: number): HashListProblem | undefined {
  if (length === 0) return { kind: "empty" };
  if (length % NODE_BYTES !== 0) return { kind: "ragged-bytes", length };
  if (length / NODE_BYTES > maxHashes) return { kind: "too-many", count: length / NODE_BYTES, maxHashes };
  return undefined;
}

/** Raw bytes: a Buffer in one process; across NATS the JSON serializer turns it into { type: "Buffer", data }. */
function bytesOf(raw: unknown): Buffer | undefined {
  if (Buffer.isBuffer(raw)) return raw;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const o = raw as { type?: unknown; data?: unknown };
  return o.type === "Buffer" && Array.isArray(o.data) ? Buffer.from(o.data as number[]) : undefined;
}

/** The packed hashes of `raw`, or the first problem found. */
export function parseHashList(raw: unknown, opts: HashListOptions): HashListParse {
  if (raw === undefined || raw === null) return { problem: { kind: "missing" } };
  const bytes = opts.acceptBytes ? bytesOf(raw) : undefined;
  if (bytes !== undefined) {
    const problem = packedLengthProblem(bytes.length, opts.maxHashes);
    return problem ? { problem } : { packed: bytes };
  }
  if (!Array.isArray(raw)) return { problem: { kind: "not-a-list" } };
  if (raw.length === 0) return { problem: { kind: "empty" } };
  if (raw.length > opts.maxHashes) return { problem: { kind: "too-many", count: raw.length, maxHashes: opts.maxHashes } };
  if (raw.length <= JOINED_CHECK_MAX && raw.every((h: unknown) => typeof h === "string" && h.length === 64)) {
    const joined = (raw as string[]).join("");
    if (HEX_PATTERNS.bytes.test(joined)) return { packed: Buffer.from(joined, "hex") };
  }
  const packed = Buffer.allocUnsafe(raw.length * NODE_BYTES);
  for (let i = 0; i < raw.length; i++) {
    const h: unknown = raw[i];
    if (typeof h !== "string" || !HEX_PATTERNS.hash32.test(h)) return { problem: { kind: "not-a-hash", index: i } };
    packed.write(h, i * NODE_BYTES, "hex");
  }
  return { packed };
}

/** How a route words the two problems whose answer is its own. */
export interface HashListWords {
  empty: string;
  tooMany(count: number, maxHashes: number): string;
}

/** The message and the answer's extra fields (`maxHashes`, `field`) of a problem, in the route's words. */
export function hashListAnswer(problem: HashListProblem, words: HashListWords): { message: string; data: Record<string, unknown> } {
  switch (problem.kind) {
    case "missing":
      return { message: "hashes is required: an array of 32-byte hashes as 64 hex digits", data: {} };
    case "not-a-list":
      return { message: "hashes must be an array of 32-byte hashes as 64 hex digits", data: {} };
    case "empty":
      return { message: words.empty, data: {} };
    case "too-many":
      return { message: words.tooMany(problem.count, problem.maxHashes), data: { maxHashes: problem.maxHashes } };
    case "not-a-hash":
      return { message: `hashes[${problem.index}] must be a 32-byte hash as 64 hex digits`, data: { field: `hashes[${problem.index}]` } };
    case "ragged-bytes":
      return {
        message: `An application/octet-stream body is 32-byte hashes back to back; ${problem.length} bytes is not a multiple of 32.`,
        data: {},
      };
  }
}
