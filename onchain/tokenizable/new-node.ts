/**
 * The fields of a node created by Init or Insert that the sorted list does not know about: the whole datum is
 * rebuilt and compared as Data (which pins the constructor, the arity, the key, the `next` handed over by the
 * list and the status Available), then the owner and the asset name are checked. The asset name must not start
 * with the list's prefix (a plain Redeem mints it under the list's own policy, where a prefixed name could pose
 * as a HEAD or node token) and must leave room for the 4-byte CIP-68 label when the list mints CIP-68 tokens.
 */
import { data, int, pBSToData, pConstrToData, peqData, pif, pInt, plet, pnil, pnot, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { requireAll } from "../rules";
import { CREDENTIAL_HASH_BYTES } from "../lib/addresses";
import { OPTION_SOME } from "../lib/option";
import type { AnyTerm } from "../lib/term";
import type { NewNode } from "../sorted-list";
import { AVAILABLE, MAX_ASSET_NAME_BYTES, MAX_CIP68_BASE_NAME_BYTES, TokenizableNode } from "./types";
import { cip68OptionOf } from "./config";
import type { TokenizableEnv } from "./env";

export function isValidNewNode(env: TokenizableEnv, node: NewNode, key: AnyTerm, config: AnyTerm): AnyTerm {
  const { rule, list } = env;
  return plet(punsafeConvertType(node.datum, TokenizableNode.type)).in((n: AnyTerm) =>
    plet(n.raw.fields).in((f: AnyTerm) =>
      requireAll(rule, [
        [
          "new node datum is well formed",
          peqData.$(node.datum).$(
            pConstrToData.$(list.layout.node.constr).$(
              pnil(data)
                .prepend(pConstrToData.$(AVAILABLE).$(pnil(data)))
                .prepend(f.at(3))
                .prepend(f.at(2))
                .prepend(node.next)
                .prepend(pBSToData.$(key)),
            ),
          ),
        ],
        ["owner is a key hash", n.owner.length.eq(CREDENTIAL_HASH_BYTES)],
        [
          "asset name is valid",
          plet(n.assetName).in((name: AnyTerm) =>
            name.length
              .ltEq(
                pif(int)
                  .$(cip68OptionOf(config).raw.index.eq(OPTION_SOME))
                  .then(pInt(MAX_CIP68_BASE_NAME_BYTES))
                  .else(pInt(MAX_ASSET_NAME_BYTES)),
              )
              .and(pnot.$(list.names.isReserved(name))),
          ),
        ],
      ]),
    ),
  );
}
