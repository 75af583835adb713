/**
 * What the fractionized-certificate extension is called and how it refuses: light (no codecs, no CSL), so the registry,
 * the route table and the gateway read them without loading the extension.
 */
import { listRefusals } from "../list-kit/list-errors";

/** its identifier in `GET /extensions` and its service */
export const FRACTIONIZED_NAMES = { id: "fractionized-certificate", service: "fractionized" } as const;

/** its refusals: the list's, then its own */
export const FRACTIONIZED_REFUSALS = listRefusals("FractionizedError", [
  /** the claimer is not among the node's claimants */
  "CLAIMER_NOT_LISTED",
  /** amount ≤ 0 or above what remains */
  "AMOUNT_OUT_OF_RANGE",
  /** every token of the node is claimed */
  "TOKENS_EXHAUSTED",
] as const);
