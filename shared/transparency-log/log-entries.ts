/**
 * What the log holds for a submitted hash (docs/transparency-log.md#entries): a fresh 16-byte random nonce is drawn
 * per hash, the log entry is SHA-256(nonce ‖ hash) (32 bytes), and its leaf hash is RFC 9162's SHA-256(0x00 ‖ entry).
 * The public log (tiles, entry bundles) shows entries only: a hash cannot be confirmed from it without its nonce,
 * which goes back to the submitter in its proof (the tlog-proof `extra` line). The service keeps each record
 * (nonce ‖ hash, 48 bytes) to answer receipts and lookups.
 */
import { createHash, randomBytes } from "node:crypto";

export const NONCE_BYTES = 16;
export const HASH_BYTES = 32;
/** nonce ‖ hash */
export const RECORD_BYTES = NONCE_BYTES + HASH_BYTES;

/** `count` fresh nonces, packed. */
export const newNonces = (count: number): Buffer => randomBytes(count * NONCE_BYTES);

/** The log entry of a record (nonce ‖ hash): SHA-256(nonce ‖ hash). */
export function entryOfRecord(record: Uint8Array): Buffer {
  return createHash("sha256").update(record).digest();
}

/** The entry of a nonce and a hash. */
export function entryOf(nonce: Uint8Array, hash: Uint8Array): Buffer {
  return createHash("sha256").update(nonce).update(hash).digest();
}

const LEAF_PREFIX = Buffer.from([0]);

/** RFC 9162 §2.1.1 leaf hash of an entry. */
export function leafOfEntry(entry: Uint8Array): Buffer {
  return createHash("sha256").update(LEAF_PREFIX).update(entry).digest();
}

/** The records packed in `packed` (a multiple of RECORD_BYTES), one by one. */
export function recordsOf(packed: Buffer): Buffer[] {
  return Array.from({ length: packed.length / RECORD_BYTES }, (_, i) => packed.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES));
}
