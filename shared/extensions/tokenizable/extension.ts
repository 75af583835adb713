/**
 * The tokenizable-certificate extension as the list kit sees it (docs/api.md#tokenizable-certificates): its name
 * and marker, its list (prefix `TCN`) and codecs, and its refusals — the list's and the redeem ones, each naming
 * what to do.
 */
import { defineListExtension } from "../list-kit/list-extension";
import { decodeTokenizableDatum, encodeTokenizableHead, encodeTokenizableNode, TOKENIZABLE_LIST } from "./datum";
import { encodeTokenizableRedeemer } from "./redeemer";

export const TOKENIZABLE = defineListExtension({
  name: "tokenizable",
  marker: "tokenizable-certificate",
  errorName: "TokenizableError",
  ownErrors: [
    /** the node was redeemed already (Redeem happens once) */
    "ALREADY_REDEEMED",
    /** the redeemer is not the node's owner */
    "NOT_OWNER",
    /** the certificate's metadata does not fit the CIP-68 reference datum */
    "METADATA_TOO_LARGE",
  ],
  list: TOKENIZABLE_LIST,
  decode: decodeTokenizableDatum,
  encodeHead: encodeTokenizableHead,
  encodeNode: encodeTokenizableNode,
  encodeIssueRedeemer: (action, key) => encodeTokenizableRedeemer({ action, key }),
});

export const TokenizableError = TOKENIZABLE.errors.ErrorClass;
export type TokenizableError = InstanceType<typeof TokenizableError>;
/** @throws TokenizableError */
export const refuseTokenizable = TOKENIZABLE.refuse;
