/**
 * The fractionized-certificate extension as the list kit sees it (docs/api.md#fractionized-certificates): its name
 * and marker, its list (prefix `FRN`) and codecs, and its refusals — the list's and the claim ones, each naming what
 * to do.
 */
import { defineListExtension } from "../list-kit/list-extension";
import { FRACTIONIZED_NAMES, FRACTIONIZED_REFUSALS } from "./names";
import { decodeFractionizedDatum, encodeFractionizedHead, encodeFractionizedNode, FRACTIONIZED_LIST } from "./datum";
import { encodeFractionizedRedeemer } from "./redeemer";

export const FRACTIONIZED = defineListExtension({
  name: FRACTIONIZED_NAMES.service,
  marker: FRACTIONIZED_NAMES.id,
  errors: FRACTIONIZED_REFUSALS,
  list: FRACTIONIZED_LIST,
  decode: decodeFractionizedDatum,
  encodeHead: encodeFractionizedHead,
  encodeNode: encodeFractionizedNode,
  encodeIssueRedeemer: (action, key) => encodeFractionizedRedeemer({ action, key }),
});

export const FractionizedError = FRACTIONIZED.errors.ErrorClass;
export type FractionizedError = InstanceType<typeof FractionizedError>;
/** @throws FractionizedError */
export const refuseFractionized = FRACTIONIZED.refuse;
