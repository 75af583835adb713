/**
 * Fractionized-certificate validator: one Plutus V3 script for mint and spend, parameterised by the one-shot
 * init out-ref (Data). Its hash is the policy of the list's tokens (HEAD "FRN", nodes `FRN ‖ blake2b_224(key)`,
 * and each node's fungible asset, named `blake2b_224(key)`) and the payment credential of the address holding the
 * HEAD and the nodes.
 * The mint handler validates every transition (Init, Insert, Claim); the spend handler defers to it
 * (sorted-list/extension-validator.ts: the validator every list extension shares).
 * The datums, the rules and the sorted-list contract are described in docs/extensions-onchain.md.
 */
import type { BuildOptions } from "../rules";
import { makeListExtensionValidator } from "./sorted-list";
import { FRACTIONIZED_LAYOUT, FractionizedRedeemer } from "./fractionized/types";
import { configOf, isWellFormedConfig } from "./fractionized/config";
import { isValidNewNode } from "./fractionized/new-node";
import { isValidClaim } from "./fractionized/claim";
import type { AnyTerm } from "../lib/term";

export function makeFractionizedValidator(opts: BuildOptions): AnyTerm {
  return makeListExtensionValidator(opts, {
    layout: FRACTIONIZED_LAYOUT,
    redeemerType: FractionizedRedeemer.type,
    issueRules: (env) => ({ configOf, isWellFormedConfig, isValidNewNode: (node, key) => isValidNewNode(env, node, key) }),
    onOwnTransition: (match, env) => match.onClaim(({ key, claimer, amount }: AnyTerm) => isValidClaim(env, key, claimer, amount)),
  });
}
