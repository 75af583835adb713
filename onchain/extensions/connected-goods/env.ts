/**
 * What the connected-goods handlers are built from. Each handler is a closed, hoisted function of the
 * transaction and the values it needs (see connected-goods.ts for why).
 */
import type { Rule } from "../../rules";
import type { AnyTerm } from "../../lib/term";
import type { ItemHelpers } from "./items";

export interface GoodsBuild {
  readonly rule: Rule;
  readonly items: ItemHelpers;
  /** hoisted int → uint16 little-endian bytes */
  readonly uint16Le: AnyTerm;
}
