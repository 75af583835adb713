/** What every handler of the fractionized list works with in one script evaluation. */
import type { Rule } from "../rules";
import type { AnyTerm } from "../lib/term";
import type { ListEnv, SortedList } from "../sorted-list";

export interface FractionizedEnv extends ListEnv {
  readonly rule: Rule;
  readonly list: SortedList;
  readonly signatories: AnyTerm;
  /** the assets minted under the own policy: list of (name, quantity) */
  readonly minted: AnyTerm;
}
