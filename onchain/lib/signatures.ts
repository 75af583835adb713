/** Whether a key hash is among the transaction's required signers. */
import type { AnyTerm } from "./term";

export function isSignedBy(signatories: AnyTerm, keyHash: AnyTerm): AnyTerm {
  return signatories.some((s: AnyTerm) => s.eq(keyHash));
}
