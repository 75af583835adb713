/** Bounds of one Merkle batch (docs/merkle-batches.md#limits), shared by the route table and the batch builder. */

/** The most hashes one batch may hold. */
export const MAX_BATCH_HASHES = 1_000_000;
/** The largest JSON body the batch route needs: MAX_BATCH_HASHES quoted hex hashes, a separator and a space each. */
export const BATCH_JSON_BODY_LIMIT_BYTES = MAX_BATCH_HASHES * (64 + 4) + 64 * 1024;
/** The largest application/octet-stream body: the hashes, packed. */
export const BATCH_BINARY_BODY_LIMIT_BYTES = MAX_BATCH_HASHES * 32;
