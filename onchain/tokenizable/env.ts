/** What every handler of the tokenizable list works with in one script evaluation. */
import type { Rule } from "../rules";
import type { AnyTerm } from "../lib/term";
import type { ListEnv, SortedList } from "../sorted-list";

export interface TokenizableEnv extends ListEnv {
  readonly rule: Rule;
  readonly list: SortedList;
  readonly signatories: AnyTerm;
  /** the assets minted under the own policy: list of (name, quantity) */
  readonly minted: AnyTerm;
}
