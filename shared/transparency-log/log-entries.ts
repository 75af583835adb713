/**
 * What the log holds for a submitted hash (docs/transparency-log.md#entries): a fresh 16-byte random nonce is drawn
 * per hash, the log entry is SHA-256(nonce ‖ hash) (32 bytes), and its leaf hash is RFC 9162's SHA-256(0x00 ‖ entry).
 * The public log (tiles, entry bundles) shows entries only: a hash cannot be confirmed from it without its nonce,
 * which goes back to the submitter in its proof (the tlog-proof `extra` line). The service keeps each record
 * (nonce ‖ hash, 48 bytes) to answer receipts and lookups.
 */
import { sha256 } from "@noble/hashes/sha2";
import { randomBytes } from "node:crypto";
import { leafHash } from "../tlog/rfc9162";

/** The `algorithm` of the certificate that anchors a checkpoint's root on Cardano (its metadata: origin and size). */
export const TLOG_CHECKPOINT_SCHEME = "tlog-checkpoint-rfc9162-sha256";

export const NONCE_BYTES = 16;
export const HASH_BYTES = 32;
/** nonce ‖ hash */
export const RECORD_BYTES = NONCE_BYTES + HASH_BYTES;

/** `count` fresh nonces, packed. */
export const newNonces = (count: number): Buffer => randomBytes(count * NONCE_BYTES);

/** The `i`-th record of packed records. */
export const recordAt = (packed: Buffer, i: number): Buffer => packed.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES);

/** The log entry of a record (nonce ‖ hash): SHA-256(nonce ‖ hash). */
export const entryOfRecord = (record: Uint8Array): Uint8Array => sha256(record);

/** The Merkle leaf of a record: the RFC 9162 leaf hash of its entry. */
export const leafOfRecord = (record: Uint8Array): Uint8Array => leafHash(entryOfRecord(record));
