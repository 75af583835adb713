/**
 * What the tokenizable-certificate extension is called and how it refuses: light (no codecs, no CSL), so the registry,
 * the route table and the gateway read them without loading the extension.
 */
import { listRefusals } from "../list-kit/list-errors";

/** its identifier in `GET /extensions` and its service */
export const TOKENIZABLE_NAMES = { id: "tokenizable-certificate", service: "tokenizable" } as const;

/** its refusals: the list's, then its own */
export const TOKENIZABLE_REFUSALS = listRefusals("TokenizableError", [
  /** the node was redeemed already (Redeem happens once) */
  "ALREADY_REDEEMED",
  /** the redeemer is not the node's owner */
  "NOT_OWNER",
  /** the certificate's metadata does not fit the CIP-68 reference datum */
  "METADATA_TOO_LARGE",
] as const);
