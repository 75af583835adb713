/**
 * Claim{key, claimer, amount}: the single list entry spent is the node of `key` with tokens available;
 * 0 < amount ≤ remaining; the claimer signs and is listed (an empty claimants list lets anyone claim); the mint
 * under the own policy is exactly `amount` of the asset named by the key (`blake2b_224(key)`, the name Init and
 * Insert gave the node), and one output at the claimer's key credential carries exactly that amount; the node is
 * re-created as a list output with at least its ADA and a datum equal to the old one except `remaining − amount`
 * and, when that reaches 0, TokensExhausted.
 * One list entry per transaction means one claim per transaction, so one output cannot pay two claims.
 */
import { data, int, pConstrToData, pif, pInt, pIntToData, pisEmpty, plet, pnil, pnot, punBData } from "@harmoniclabs/plu-ts";
import { requireAll } from "../../rules";
import { isKeyAddress } from "../../lib/addresses";
import { isSignedBy } from "../../lib/signatures";
import type { AnyTerm } from "../../lib/term";
import { isValidOnSpentNode, outputsHolding, type ExtensionEnv } from "../sorted-list";
import { FractionizedNode, TOKENS_AVAILABLE, TOKENS_EXHAUSTED } from "./types";
import { recreatedNodeRules } from "../sorted-list/node-rules";

export function isValidClaim(env: ExtensionEnv, key: AnyTerm, claimer: AnyTerm, amount: AnyTerm): AnyTerm {
  return isValidOnSpentNode(env, key, FractionizedNode.type, (spent: AnyTerm, node: AnyTerm, nodeName: AnyTerm, assetName: AnyTerm) =>
    claimRules(env, { key, claimer, amount, spent, node, nodeName, assetName }),
  );
}

interface ClaimTerms {
  readonly key: AnyTerm;
  readonly claimer: AnyTerm;
  readonly amount: AnyTerm;
  /** the spent node's output */
  readonly spent: AnyTerm;
  /** its datum as FractionizedNode */
  readonly node: AnyTerm;
  readonly nodeName: AnyTerm;
  /** the asset name derived from the key */
  readonly assetName: AnyTerm;
}

function claimRules(env: ExtensionEnv, c: ClaimTerms): AnyTerm {
  const { rule, tx, own, minted, signatories } = env;
  const { claimer, amount, spent, node, nodeName, assetName } = c;
  return plet(node.raw.fields).in((f: AnyTerm) =>
    plet(node.remainingAmount).in((remaining: AnyTerm) =>
      plet(node.claimants).in((claimants: AnyTerm) =>
        plet(outputsHolding(tx.outputs, own, nodeName)).in((nodeOuts: AnyTerm) =>
          requireAll(rule, [
            ["tokens are available", node.status.raw.index.eq(TOKENS_AVAILABLE)],
            ["amount is positive", amount.gt(0)],
            ["amount is within the remainder", amount.ltEq(remaining)],
            ["claimer signed", isSignedBy(signatories, claimer)],
            ["claimer is allowed", pisEmpty.$(claimants).or(claimants.some((k: AnyTerm) => punBData.$(k).eq(claimer)))],
            ["exactly the claimed amount is minted", minted.length.eq(1).and(tx.mint.pamountOf.$(own).$(assetName).eq(amount))],
            [
              "claimer receives the claimed tokens",
              tx.outputs.some((o: AnyTerm) => isKeyAddress(o.address, claimer).and(o.value.pamountOf.$(own).$(assetName).eq(amount))),
            ],
            ["re-created node exists", pnot.$(pisEmpty.$(nodeOuts))],
          ]).and(
            plet(nodeOuts.head).in((nodeOut: AnyTerm) =>
              plet(remaining.sub(amount)).in((left: AnyTerm) =>
                requireAll(
                  rule,
                  recreatedNodeRules(env, { output: nodeOut, name: nodeName, spent }, "re-created node only records the claim", () =>
                    pnil(data)
                      .prepend(
                        pConstrToData.$(pif(int).$(left.eq(0)).then(pInt(TOKENS_EXHAUSTED)).else(pInt(TOKENS_AVAILABLE))).$(pnil(data)),
                      )
                      .prepend(f.at(5))
                      .prepend(f.at(4))
                      .prepend(pIntToData.$(left))
                      .prepend(f.at(2))
                      .prepend(f.at(1))
                      .prepend(f.at(0)),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
