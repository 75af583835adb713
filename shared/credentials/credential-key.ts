/** What `/credential/{paymentCredential}` accepts: a 56-hex payment credential or a bech32 address holding one. */
import { isBech32Address, paymentCredentialOf } from "../csl/address";

/** The payment credential (lowercase hex) named by the input, or undefined when it names none. */
export function paymentCredentialFromInput(input: string): string | undefined {
  if (/^[0-9a-fA-F]{56}$/.test(input)) return input.toLowerCase();
  if (!isBech32Address(input)) return undefined;
  return paymentCredentialOf(input)?.hash;
}
