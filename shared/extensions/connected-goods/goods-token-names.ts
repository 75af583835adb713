/**
 * Asset names of the connected-goods extension:
 * - batch id (= the batch token's name under the connected_goods policy): `sha2_256(tx_id ‖ uint16_le(index))` of
 *   the seed input the batch mint spends, the same derivation as a state id, so it is unique per spent input;
 * - hub token (under the social_hub policy): `sha2_256(batch_id ‖ token_name)`; batch ids are 32 bytes, so the
 *   pair is read back unambiguously and names never repeat across batches or items.
 */
import { createHash } from "node:crypto";
import { fromHex } from "../../csl/hex";
import { ProtocolError } from "../../protocol/errors";
import type { OutRef } from "../../domain/out-ref";
import { stateIdOf } from "../../protocol/token-names";

export const BATCH_ID_BYTES = 32;
/** Item token names are 1..32 bytes, like ledger asset names. */
export const MAX_ITEM_NAME_BYTES = 32;

/** @throws ProtocolError INVALID_FIELD when the index does not fit in uint16 */
export function batchIdOf(seed: OutRef): string {
  return stateIdOf(seed);
}

/** @throws ProtocolError INVALID_FIELD for a batch id that is not 32 bytes or an item name outside 1..32 bytes */
export function hubTokenNameOf(batchId: string, tokenName: string): string {
  const id = Buffer.from(fromHex(batchId, "batch id"));
  const name = Buffer.from(fromHex(tokenName, "token name"));
  if (id.length !== BATCH_ID_BYTES) throw new ProtocolError("INVALID_FIELD", "batch id must be 32 bytes", { batchId });
  if (name.length === 0 || name.length > MAX_ITEM_NAME_BYTES) {
    throw new ProtocolError("INVALID_FIELD", "item token name must be 1..32 bytes", { tokenName });
  }
  return createHash("sha256")
    .update(Buffer.concat([id, name]))
    .digest("hex");
}
