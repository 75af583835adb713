/**
 * The tokenizable-certificate extension as the list kit sees it (docs/api.md#tokenizable-certificates): its name
 * and marker, its list (prefix `TCN`) and codecs, and its refusals — the list's and the redeem ones, each naming
 * what to do.
 */
import { defineListExtension } from "../list-kit/list-extension";
import { TOKENIZABLE_NAMES, TOKENIZABLE_REFUSALS } from "./names";
import { decodeTokenizableDatum, encodeTokenizableHead, encodeTokenizableNode, TOKENIZABLE_LIST } from "./datum";
import { encodeTokenizableRedeemer } from "./redeemer";

export const TOKENIZABLE = defineListExtension({
  name: TOKENIZABLE_NAMES.service,
  marker: TOKENIZABLE_NAMES.id,
  errors: TOKENIZABLE_REFUSALS,
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
