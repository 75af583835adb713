/**
 * The fields of a node created by Init or Insert that the sorted list does not know about: the whole datum is
 * rebuilt and compared as Data (which pins the constructor, the arity, the key, the `next` handed over by the
 * list, `remaining == total` and TokensAvailable), then the amount, asset name and claimants are checked.
 * The asset name must be the one derived from the key (`blake2b_224(key)`): keys are unique in the list, so no two
 * nodes can name the same fungible token, and a supply fixed at insert stays fixed.
 */
import { data, pConstrToData, pnil, punBData } from "@harmoniclabs/plu-ts";
import { CREDENTIAL_HASH_BYTES } from "../../lib/addresses";
import type { AnyTerm } from "../../lib/term";
import type { ExtensionEnv, NewNode } from "../sorted-list";
import { isValidNewNodeDatum } from "../sorted-list/node-rules";
import { FractionizedNode, TOKENS_AVAILABLE } from "./types";

export function isValidNewNode(env: ExtensionEnv, node: NewNode, key: AnyTerm): AnyTerm {
  return isValidNewNodeDatum(
    env,
    node,
    key,
    FractionizedNode.type,
    // [total, remaining = total, claimants, asset_name, TokensAvailable]
    (f: AnyTerm) =>
      pnil(data)
        .prepend(pConstrToData.$(TOKENS_AVAILABLE).$(pnil(data)))
        .prepend(f.at(5))
        .prepend(f.at(4))
        .prepend(f.at(2))
        .prepend(f.at(2)),
    (n: AnyTerm) => [
      ["total amount is positive", n.totalAmount.gt(0)],
      ["asset name is derived from the key", n.assetName.eq(node.assetName)],
      ["claimants are key hashes", n.claimants.every((c: AnyTerm) => punBData.$(c).length.eq(CREDENTIAL_HASH_BYTES))],
    ],
  );
}
