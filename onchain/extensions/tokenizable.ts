/**
 * Tokenizable-certificate validator: one Plutus V3 script for mint and spend, parameterised by the one-shot
 * init out-ref (Data). Its hash is the policy of the list's tokens (HEAD "TCN", nodes `TCN ‖ blake2b_224(key)`,
 * and each node's redeemed token, named by its key: `blake2b_224(key)`, or the CIP-68 pair `(222)` / `(100)` of it) and
 * the payment credential of the address holding the HEAD and the nodes. The mint handler validates every
 * transition (Init, Insert, Redeem); the spend handler defers to it (sorted-list/extension-validator.ts: the
 * validator every list extension shares).
 * The datums, the rules and the metadata script are described in docs/extensions-onchain.md.
 */
import type { BuildOptions } from "../rules";
import { makeListExtensionValidator } from "./sorted-list";
import { TOKENIZABLE_LAYOUT, TokenizableRedeemer } from "./tokenizable/types";
import { configOf, isWellFormedConfig } from "./tokenizable/config";
import { isValidNewNode } from "./tokenizable/new-node";
import { isValidRedeem } from "./tokenizable/redeem";
import type { AnyTerm } from "../lib/term";

export function makeTokenizableValidator(opts: BuildOptions): AnyTerm {
  return makeListExtensionValidator(opts, {
    layout: TOKENIZABLE_LAYOUT,
    redeemerType: TokenizableRedeemer.type,
    issueRules: (env) => ({ configOf, isWellFormedConfig, isValidNewNode: (node, key) => isValidNewNode(env, node, key) }),
    onOwnTransition: (match, env) => match.onRedeem(({ key }: AnyTerm) => isValidRedeem(env, key)),
  });
}
