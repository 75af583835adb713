/**
 * `web+cardano:` deep links of CIP-158 (Cardano URIs — Browse Application,
 * https://github.com/cardano-foundation/CIPs/tree/master/CIP-0158): `web+cardano://browse/v1?uri=<percent-encoded
 * URI>` asks a wallet that implements it to open the URI in its embedded browser, where its CIP-30 API is available.
 * Version 1 takes only `http` and `https` URIs; nothing else of the scheme is used here.
 */
import { DomainError } from "./errors";

/**
 * The CIP-158 `browse` (version 1) deep link that opens `url` in a wallet's browser.
 * @throws INVALID_BROWSE_URI when `url` is not an absolute http(s) URL
 */
export function browseUri(url: string): string {
  if (!/^https?:\/\/[^/?#\s]+/i.test(url))
    throw new DomainError("INVALID_BROWSE_URI", `a CIP-158 browse link opens an http or https URL only, not ${JSON.stringify(url)}`, {
      url,
    });
  return `web+cardano://browse/v1?uri=${encodeURIComponent(url)}`;
}
