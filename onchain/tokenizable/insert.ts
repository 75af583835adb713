/**
 * Insert{key}: adds a node after its predecessor, the single list entry spent (the sorted list's insert-link
 * rule). Here: an allowed inserter signs (an empty list lets anyone insert), the mint under the own policy is
 * exactly the new node token (so the node's asset name is not minted), the key is anchored by the core protocol
 * in this transaction, and the node's own fields are valid.
 */
import { pisEmpty, plet, punBData } from "@harmoniclabs/plu-ts";
import { requireAll } from "../rules";
import { isSignedBy } from "../lib/signatures";
import type { AnyTerm } from "../lib/term";
import { insertLink, listInputsOf, type NewNode } from "../sorted-list";
import { configOf } from "./config";
import { isValidNewNode } from "./new-node";
import type { TokenizableEnv } from "./env";

export function isValidInsert(env: TokenizableEnv, key: AnyTerm): AnyTerm {
  const { rule, tx, own, list, minted, signatories } = env;
  return plet(listInputsOf(tx, own)).in((ins: AnyTerm) =>
    requireAll(rule, [["exactly one list entry is spent", ins.length.eq(1)]]).and(
      insertLink(list, env, ins.head.resolved, key, (node: NewNode) =>
        plet(configOf(node.config)).in((config: AnyTerm) =>
          plet(config.allowedInserters).in((allowed: AnyTerm) =>
            requireAll(rule, [
              ["an allowed inserter signed", pisEmpty.$(allowed).or(allowed.some((k: AnyTerm) => isSignedBy(signatories, punBData.$(k))))],
              ["exactly the new node token is minted", minted.length.eq(1).and(tx.mint.pamountOf.$(own).$(node.name).eq(1))],
              ["certificate is anchored", list.isCertificateAnchored.$(tx.redeemers).$(config.serviceValidatorHash).$(key)],
            ]).and(isValidNewNode(env, node, key, config)),
          ),
        ),
      ),
    ),
  );
}
