/**
 * Derivations of the proxy policy's asset names (docs/protocol.md#tokens-and-names):
 * - pointer token: `sha3_256(tx_id ‖ ascii(decimal(index)))` of the proxy's one-shot out-ref;
 * - state id (= state token name): `sha2_256(tx_id ‖ uint16_le(index))` of an input the fork spends.
 */
import { createHash } from "node:crypto";
import { fromHex } from "../csl/hex";
import type { OutRef } from "../domain/out-ref";
import { ProtocolError } from "./errors";

function txIdBytes(ref: OutRef): Buffer {
  const b = Buffer.from(fromHex(ref.txHash, "tx hash"));
  if (b.length !== 32) throw new ProtocolError("INVALID_FIELD", "tx hash must be 32 bytes", { txHash: ref.txHash });
  if (!Number.isInteger(ref.index) || ref.index < 0)
    throw new ProtocolError("INVALID_FIELD", "output index must be a natural number", { index: ref.index });
  return b;
}

export function pointerTokenName(ref: OutRef): string {
  return createHash("sha3-256")
    .update(Buffer.concat([txIdBytes(ref), Buffer.from(String(ref.index), "ascii")]))
    .digest("hex");
}

/** @throws ProtocolError INVALID_FIELD when index does not fit in uint16 */
export function stateIdOf(ref: OutRef): string {
  const id = txIdBytes(ref);
  if (ref.index > 0xffff) throw new ProtocolError("INVALID_FIELD", "output index does not fit in uint16", { index: ref.index });
  const le = Buffer.from([ref.index & 0xff, ref.index >> 8]);
  return createHash("sha256")
    .update(Buffer.concat([id, le]))
    .digest("hex");
}
