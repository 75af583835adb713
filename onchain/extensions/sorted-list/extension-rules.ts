/**
 * The Init and Insert rules both list extensions (fractionized, tokenizable) add to the sorted list's own
 * (initList, insertLink): the HEAD config is well formed (Init) and its deployer signs (Init) or an allowed inserter
 * signs (Insert; an empty list lets anyone insert), the mint under the own policy is exactly the list's new tokens
 * (so no asset name is minted), the key is anchored by the core protocol in this transaction, and the new node's own
 * fields are valid — among them its asset name, which must be the one derived from its key (NewNode.assetName).
 * The extension gives how to read its config and the rules of its node's fields.
 */
import { pisEmpty, plet, punBData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { requireAll, type Rule } from "../../rules";
import { inlineDatumOf } from "../../lib/inline-datum";
import { isSignedBy } from "../../lib/signatures";
import type { AnyTerm } from "../../lib/term";
import type { ListEnv, NewNode } from "./env";
import type { SortedList } from "./sorted-list";
import { initList } from "./init-list";
import { insertLink } from "./insert-link";
import { listInputsOf } from "./list-utxos";

/** What every handler of a list extension works with in one script evaluation. */
export interface ExtensionEnv extends ListEnv {
  readonly rule: Rule;
  readonly list: SortedList;
  readonly signatories: AnyTerm;
  /** the assets minted under the own policy: list of (name, quantity) */
  readonly minted: AnyTerm;
}

/** An extension's part of the Init and Insert rules. */
export interface ExtensionIssueRules {
  /** the HEAD config (Data) as the extension's config type */
  configOf(config: AnyTerm): AnyTerm;
  /** the config's own well-formedness (checked at Init) */
  isWellFormedConfig(config: AnyTerm): AnyTerm;
  /** the new node's fields the list does not know about */
  isValidNewNode(node: NewNode, key: AnyTerm, config: AnyTerm): AnyTerm;
}

/** Init{key}: the list with its first node (docs/extensions-onchain.md). */
export function isValidListInit(env: ExtensionEnv, ext: ExtensionIssueRules, initRef: AnyTerm, key: AnyTerm): AnyTerm {
  const { rule, tx, own, list, minted, signatories } = env;
  return initList(list, env, initRef, key, (node: NewNode) =>
    plet(ext.configOf(node.config)).in((config: AnyTerm) =>
      requireAll(rule, [
        ["config is well formed", ext.isWellFormedConfig(config)],
        ["deployer signed", isSignedBy(signatories, config.deployer)],
        [
          "exactly HEAD and the first node are minted",
          minted.length.eq(2).and(tx.mint.pamountOf.$(own).$(list.names.head).eq(1)).and(tx.mint.pamountOf.$(own).$(node.name).eq(1)),
        ],
        ["certificate is anchored", list.isCertificateAnchored.$(tx.redeemers).$(config.serviceValidatorHash).$(key)],
      ]).and(ext.isValidNewNode(node, key, config)),
    ),
  );
}

/** Insert{key}: a node after its predecessor, the single list entry spent (the sorted list's insert-link rule). */
export function isValidListInsert(env: ExtensionEnv, ext: ExtensionIssueRules, key: AnyTerm): AnyTerm {
  const { rule, tx, own, list, minted, signatories } = env;
  return plet(listInputsOf(tx, own)).in((ins: AnyTerm) =>
    requireAll(rule, [["exactly one list entry is spent", ins.length.eq(1)]]).and(
      insertLink(list, env, ins.head.resolved, key, (node: NewNode) =>
        plet(ext.configOf(node.config)).in((config: AnyTerm) =>
          plet(config.allowedInserters).in((allowed: AnyTerm) =>
            requireAll(rule, [
              ["an allowed inserter signed", pisEmpty.$(allowed).or(allowed.some((k: AnyTerm) => isSignedBy(signatories, punBData.$(k))))],
              ["exactly the new node token is minted", minted.length.eq(1).and(tx.mint.pamountOf.$(own).$(node.name).eq(1))],
              ["certificate is anchored", list.isCertificateAnchored.$(tx.redeemers).$(config.serviceValidatorHash).$(key)],
            ]).and(ext.isValidNewNode(node, key, config)),
          ),
        ),
      ),
    ),
  );
}

/**
 * A transition of one node (Claim, Redeem): exactly one list entry is spent, and it is the node of `key` (its
 * constructor, key and token are checked alone first: the node's fields are only read once the entry is known to
 * be that node). `then` gets the spent output, its datum as the extension's node type, the node's token name and
 * the asset name derived from `key`: what the transition mints is named by the key, never by a datum field.
 */
export function isValidOnSpentNode(
  env: ExtensionEnv,
  key: AnyTerm,
  nodeType: AnyTerm,
  then: (spent: AnyTerm, node: AnyTerm, nodeName: AnyTerm, assetName: AnyTerm) => AnyTerm,
): AnyTerm {
  const { rule, tx, own, list } = env;
  return plet(listInputsOf(tx, own)).in((ins: AnyTerm) =>
    requireAll(rule, [["exactly one list entry is spent", ins.length.eq(1)]]).and(
      plet(ins.head.resolved).in((spent: AnyTerm) =>
        plet(punsafeConvertType(inlineDatumOf(spent), nodeType)).in((node: AnyTerm) =>
          plet(list.names.asset(key)).in((assetName: AnyTerm) =>
            plet(list.names.nodeOfAsset(assetName)).in((nodeName: AnyTerm) =>
              requireAll(rule, [
                [
                  "spent entry is the node of the key",
                  node.raw.index.eq(list.layout.node.constr).and(node.key.eq(key)).and(spent.value.pamountOf.$(own).$(nodeName).eq(1)),
                ],
              ]).and(then(spent, node, nodeName, assetName)),
            ),
          ),
        ),
      ),
    ),
  );
}
