/**
 * What the social-hub handlers are built from. Each handler is a closed, hoisted function of the transaction
 * and the values it needs (see connected-goods.ts for why).
 */
import type { Rule } from "../../rules";
import type { AnyTerm } from "../../lib/term";

export interface HubBuild {
  readonly rule: Rule;
  /** hoisted data → bool, see profile.ts */
  readonly isValidProfileField: AnyTerm;
}
