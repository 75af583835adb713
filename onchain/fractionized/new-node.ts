/**
 * The fields of a node created by Init or Insert that the sorted list does not know about: the whole datum is
 * rebuilt and compared as Data (which pins the constructor, the arity, the key, the `next` handed over by the
 * list, `remaining == total` and TokensAvailable), then the amount, asset name and claimants are checked.
 * The asset name must be the one derived from the key (`blake2b_224(key)`): keys are unique in the list, so no two
 * nodes can name the same fungible token, and a supply fixed at insert stays fixed.
 */
import { data, pBSToData, pConstrToData, peqData, plet, pnil, punBData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { requireAll } from "../rules";
import { CREDENTIAL_HASH_BYTES } from "../lib/addresses";
import type { AnyTerm } from "../lib/term";
import type { NewNode } from "../sorted-list";
import { FractionizedNode, TOKENS_AVAILABLE } from "./types";
import type { FractionizedEnv } from "./env";

export function isValidNewNode(env: FractionizedEnv, node: NewNode, key: AnyTerm): AnyTerm {
  const { rule, list } = env;
  return plet(punsafeConvertType(node.datum, FractionizedNode.type)).in((n: AnyTerm) =>
    plet(n.raw.fields).in((f: AnyTerm) =>
      requireAll(rule, [
        [
          "new node datum is well formed",
          peqData.$(node.datum).$(
            pConstrToData.$(list.layout.node.constr).$(
              pnil(data)
                .prepend(pConstrToData.$(TOKENS_AVAILABLE).$(pnil(data)))
                .prepend(f.at(5))
                .prepend(f.at(4))
                .prepend(f.at(2))
                .prepend(f.at(2))
                .prepend(node.next)
                .prepend(pBSToData.$(key)),
            ),
          ),
        ],
        ["total amount is positive", n.totalAmount.gt(0)],
        ["asset name is derived from the key", n.assetName.eq(node.assetName)],
        ["claimants are key hashes", n.claimants.every((c: AnyTerm) => punBData.$(c).length.eq(CREDENTIAL_HASH_BYTES))],
      ]),
    ),
  );
}
