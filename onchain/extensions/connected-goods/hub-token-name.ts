/**
 * The social-hub token of an item: `sha2_256(batch_id ‖ token_name)`. Batch ids are 32 bytes, so the
 * concatenation is unambiguous and names differ across batches and items; the readable item name is in the hub
 * datum. Shared by both validators (a plain term builder, nothing hoisted).
 */
import { psha2_256 } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "../../lib/term";

export function hubTokenName(batchId: AnyTerm, tokenName: AnyTerm): AnyTerm {
  return psha2_256.$(batchId.concat(tokenName));
}
