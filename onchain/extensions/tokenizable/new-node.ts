/**
 * The fields of a node created by Init or Insert that the sorted list does not know about: the whole datum is
 * rebuilt and compared as Data (which pins the constructor, the arity, the key, the `next` handed over by the
 * list and the status Available), then the owner and the asset name are checked. The asset name must be the one
 * derived from the key (`blake2b_224(key)`, 28 bytes): keys are unique in the list, so no two nodes can redeem a
 * token (or a CIP-68 pair) of the same name, and the 4-byte CIP-68 label still fits in front of it.
 */
import { data, pConstrToData, pnil } from "@harmoniclabs/plu-ts";
import { CREDENTIAL_HASH_BYTES } from "../../lib/addresses";
import type { AnyTerm } from "../../lib/term";
import type { ExtensionEnv, NewNode } from "../sorted-list";
import { isValidNewNodeDatum } from "../sorted-list/node-rules";
import { AVAILABLE, TokenizableNode } from "./types";

export function isValidNewNode(env: ExtensionEnv, node: NewNode, key: AnyTerm): AnyTerm {
  return isValidNewNodeDatum(
    env,
    node,
    key,
    TokenizableNode.type,
    // [owner, asset_name, Available]
    (f: AnyTerm) =>
      pnil(data)
        .prepend(pConstrToData.$(AVAILABLE).$(pnil(data)))
        .prepend(f.at(3))
        .prepend(f.at(2)),
    (n: AnyTerm) => [
      ["owner is a key hash", n.owner.length.eq(CREDENTIAL_HASH_BYTES)],
      ["asset name is derived from the key", n.assetName.eq(node.assetName)],
    ],
  );
}
