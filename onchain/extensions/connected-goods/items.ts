/**
 * The batch's item list (`list(data)` of BatchItem). Both helpers are closed, hoisted recursions built per
 * validator: a closed function cannot pick up a wrong binding from the surrounding `plet` nest, and a
 * per-build instance keeps the output independent of what else was compiled in the process.
 */
import {
  bool,
  bs,
  data,
  lam,
  list,
  pBool,
  pByteString,
  pfn,
  phoist,
  pif,
  pisEmpty,
  plet,
  precursive,
  punBData,
  punsafeConvertType,
} from "@harmoniclabs/plu-ts";
import { BatchItem } from "./types";
import { CREDENTIAL_HASH_BYTES } from "../../lib/addresses";
import type { AnyTerm } from "../../lib/term";

/** Asset-name limit of the ledger; item names stay within it so they can name assets off chain. */
export const MAX_ITEM_NAME_BYTES = 32;

export interface ItemHelpers {
  /**
   * (items) → bool: every item is exactly `Constr 0 [B name, B key_hash]` with a 1..32-byte name and a 28-byte
   * key hash, and the names are strictly ascending (so distinct, checked in one pass).
   */
  readonly areWellFormedAndSorted: (items: AnyTerm) => AnyTerm;
  /**
   * (name, items) → items with the item called `name` moved to the front, the others in their order; [] when no
   * item has that name. So `head` is the claimed item and `tail` is the list without it.
   */
  readonly moveToFront: AnyTerm;
}

export function makeItemHelpers(): ItemHelpers {
  const sortedFrom = phoist(
    precursive(
      pfn(
        [lam(bs, lam(list(data), bool)), bs, list(data)],
        bool,
      )((self: AnyTerm, prev: AnyTerm, items: AnyTerm) =>
        pif(bool)
          .$(pisEmpty.$(items))
          .then(pBool(true))
          .else(
            plet(punsafeConvertType(items.head, BatchItem.type)).in((item: AnyTerm) =>
              plet(item.raw.fields).in((fields: AnyTerm) =>
                plet(punBData.$(fields.head)).in((name: AnyTerm) =>
                  item.raw.index
                    .eq(0)
                    .and(pisEmpty.$(fields.tail.tail))
                    .and(name.length.gt(0))
                    .and(name.length.ltEq(MAX_ITEM_NAME_BYTES))
                    .and(punBData.$(fields.tail.head).length.eq(CREDENTIAL_HASH_BYTES))
                    .and(prev.lt(name))
                    .and(self.$(name).$(items.tail)),
                ),
              ),
            ),
          ),
      ),
    ),
  );

  const moveToFront = phoist(
    precursive(
      pfn(
        [lam(bs, lam(list(data), list(data))), bs, list(data)],
        list(data),
      )((self: AnyTerm, name: AnyTerm, items: AnyTerm) =>
        pif(list(data))
          .$(pisEmpty.$(items))
          .then(items)
          .else(
            plet(items.head).in((item: AnyTerm) =>
              pif(list(data))
                .$(punsafeConvertType(item, BatchItem.type).tokenName.eq(name))
                .then(items)
                .else(
                  plet(self.$(name).$(items.tail)).in((rest: AnyTerm) =>
                    pif(list(data)).$(pisEmpty.$(rest)).then(rest).else(rest.tail.prepend(item).prepend(rest.head)),
                  ),
                ),
            ),
          ),
      ),
    ),
  );

  return {
    // "" sorts before every non-empty name, so the first item only needs a non-empty name
    areWellFormedAndSorted: (items) => (sortedFrom as AnyTerm).$(pByteString("")).$(items),
    moveToFront,
  };
}
