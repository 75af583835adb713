/** What `/credential/{paymentCredential}` accepts: a 56-hex payment credential or a bech32 address holding one. */
import { isBech32Address, paymentCredentialOf } from "../csl/address";
import { KeyHash, type ScriptHash } from "../domain/hex";

/**
 * The payment credential named by the input, or undefined when it names none: 56 hex digits name a key hash (the
 * credentials are registered by issuers, who sign), an address names its own credential.
 */
export function paymentCredentialFromInput(input: string): KeyHash | ScriptHash | undefined {
  const hex = KeyHash.parse(input);
  if (hex !== undefined) return hex;
  if (!isBech32Address(input)) return undefined;
  return paymentCredentialOf(input)?.hash;
}
