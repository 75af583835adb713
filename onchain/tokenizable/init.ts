/**
 * Init{key}: creates the list with its first node. The sorted list checks the one-shot input, the HEAD
 * (linking to key) and the node outputs; here: the config is well formed, the deployer it names signs, the mint
 * under the own policy is exactly one HEAD and one node token (so the node's asset name is not minted), the key
 * is anchored by the core protocol in this transaction, and the node's own fields are valid.
 */
import { plet } from "@harmoniclabs/plu-ts";
import { requireAll } from "../rules";
import { isSignedBy } from "../lib/signatures";
import type { AnyTerm } from "../lib/term";
import { initList, type NewNode } from "../sorted-list";
import { configOf, isWellFormedConfig } from "./config";
import { isValidNewNode } from "./new-node";
import type { TokenizableEnv } from "./env";

export function isValidInit(env: TokenizableEnv, initRef: AnyTerm, key: AnyTerm): AnyTerm {
  const { rule, tx, own, list, minted, signatories } = env;
  return initList(list, env, initRef, key, (node: NewNode) =>
    plet(configOf(node.config)).in((config: AnyTerm) =>
      requireAll(rule, [
        ["config is well formed", isWellFormedConfig(config)],
        ["deployer signed", isSignedBy(signatories, config.deployer)],
        [
          "exactly HEAD and the first node are minted",
          minted.length.eq(2).and(tx.mint.pamountOf.$(own).$(list.names.head).eq(1)).and(tx.mint.pamountOf.$(own).$(node.name).eq(1)),
        ],
        ["certificate is anchored", list.isCertificateAnchored.$(tx.redeemers).$(config.serviceValidatorHash).$(key)],
      ]).and(isValidNewNode(env, node, key, config)),
    ),
  );
}
