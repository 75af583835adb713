/** Credential tests on a ledger address (0 = key credential, 1 = script credential). */
import type { AnyTerm } from "./term";

/** Key hashes and script hashes (policy ids) are blake2b-224: 28 bytes. */
export const CREDENTIAL_HASH_BYTES = 28;

export function isScriptAddress(address: AnyTerm, scriptHash: AnyTerm): AnyTerm {
  return address.credential.raw.index.eq(1).and(address.credential.hash.eq(scriptHash));
}

export function isKeyAddress(address: AnyTerm, keyHash: AnyTerm): AnyTerm {
  return address.credential.raw.index.eq(0).and(address.credential.hash.eq(keyHash));
}
