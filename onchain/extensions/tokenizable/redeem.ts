/**
 * Redeem{key}: the single list entry spent is the node of `key`, still Available; the owner signs; the node is
 * re-created as a list output with at least its ADA and a datum equal to the old one except status Redeemed
 * (so a node is redeemed once, for good). `asset_name` below is the name derived from the key, `blake2b_224(key)`,
 * which Init and Insert wrote into the node: the mint follows the key, never the datum field. The config comes
 * from the HEAD, which must be a reference input:
 * - without `cip68_script_hash`: the own-policy mint is exactly one `asset_name`, and an output at the owner's
 *   key credential holds it;
 * - with `Some(h)`: the mint is exactly one `(222)asset_name` and one `(100)asset_name`; an output at the owner's
 *   key credential holds the user token, and an output at the payment credential `Script(h)` holds the
 *   reference token with a CIP-68 metadata datum naming this certificate (lib/cip68.ts).
 */
import {
  bool,
  data,
  pBSToData,
  pByteString,
  pConstrToData,
  pif,
  pisEmpty,
  plet,
  pnil,
  pnot,
  punBData,
  punsafeConvertType,
} from "@harmoniclabs/plu-ts";
import { requireAll } from "../../rules";
import { isKeyAddress, isScriptAddress } from "../../lib/addresses";
import { CIP68_REFERENCE_LABEL, CIP68_USER_LABEL, hasCip68Metadata } from "./cip68";
import { PAnyConstr } from "../../lib/constr-data";
import { inlineDatumOf } from "../../lib/inline-datum";
import { OPTION_SOME } from "../../lib/option";
import { isSignedBy } from "../../lib/signatures";
import type { AnyTerm } from "../../lib/term";
import { headReferencesOf, isValidOnSpentNode, outputsHolding, type ExtensionEnv } from "../sorted-list";
import { AVAILABLE, REDEEMED, TokenizableNode } from "./types";
import { cip68OptionOf, configOf } from "./config";
import { recreatedNodeRules } from "../sorted-list/node-rules";

export function isValidRedeem(env: ExtensionEnv, key: AnyTerm): AnyTerm {
  return isValidOnSpentNode(env, key, TokenizableNode.type, (spent: AnyTerm, node: AnyTerm, nodeName: AnyTerm, assetName: AnyTerm) =>
    redeemRules(env, key, spent, node, nodeName, assetName),
  );
}

function redeemRules(env: ExtensionEnv, key: AnyTerm, spent: AnyTerm, node: AnyTerm, nodeName: AnyTerm, assetName: AnyTerm): AnyTerm {
  const { rule, tx, own, list, signatories } = env;
  return plet(node.raw.fields).in((f: AnyTerm) =>
    plet(node.owner).in((owner: AnyTerm) =>
      plet(outputsHolding(tx.outputs, own, nodeName)).in((nodeOuts: AnyTerm) =>
        plet(headReferencesOf(tx, own, list.names.head)).in((headRefs: AnyTerm) =>
          requireAll(rule, [
            ["node is not redeemed yet", node.status.raw.index.eq(AVAILABLE)],
            ["owner signed", isSignedBy(signatories, owner)],
            ["HEAD is a reference input", pnot.$(pisEmpty.$(headRefs))],
            ["re-created node exists", pnot.$(pisEmpty.$(nodeOuts))],
          ]).and(
            plet(nodeOuts.head).in((nodeOut: AnyTerm) =>
              requireAll(
                rule,
                recreatedNodeRules(env, { output: nodeOut, name: nodeName, spent }, "re-created node only records the redemption", () =>
                  pnil(data)
                    .prepend(pConstrToData.$(REDEEMED).$(pnil(data)))
                    .prepend(f.at(3))
                    .prepend(f.at(2))
                    .prepend(f.at(1))
                    .prepend(f.at(0)),
                ),
              ).and(
                plet(
                  configOf(
                    punsafeConvertType(inlineDatumOf(headRefs.head.resolved), PAnyConstr.type).raw.fields.at(list.layout.head.config),
                  ),
                ).in((config: AnyTerm) =>
                  plet(cip68OptionOf(config)).in((cip68: AnyTerm) =>
                    pif(bool)
                      .$(cip68.raw.index.eq(OPTION_SOME))
                      .then(cip68Mint(env, key, owner, assetName, punBData.$(cip68.raw.fields.head)))
                      .else(plainMint(env, owner, assetName)),
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

/** Whether some output at the owner's key credential holds exactly one `name` token of the own policy. */
function ownerReceives(env: ExtensionEnv, owner: AnyTerm, name: AnyTerm): AnyTerm {
  const { tx, own } = env;
  return tx.outputs.some((o: AnyTerm) => isKeyAddress(o.address, owner).and(o.value.pamountOf.$(own).$(name).eq(1)));
}

function plainMint(env: ExtensionEnv, owner: AnyTerm, assetName: AnyTerm): AnyTerm {
  const { rule, tx, own, minted } = env;
  return plet(assetName).in((name: AnyTerm) =>
    requireAll(rule, [
      ["exactly one token is minted", minted.length.eq(1).and(tx.mint.pamountOf.$(own).$(name).eq(1))],
      ["owner receives the token", ownerReceives(env, owner, name)],
    ]),
  );
}

function cip68Mint(env: ExtensionEnv, key: AnyTerm, owner: AnyTerm, assetName: AnyTerm, metadataScript: AnyTerm): AnyTerm {
  const { rule, tx, own, minted } = env;
  return plet(pByteString(CIP68_USER_LABEL).concat(assetName)).in((userName: AnyTerm) =>
    plet(pByteString(CIP68_REFERENCE_LABEL).concat(assetName)).in((refName: AnyTerm) =>
      plet(tx.outputs.filter((o: AnyTerm) => isScriptAddress(o.address, metadataScript).and(o.value.pamountOf.$(own).$(refName).eq(1)))).in(
        (refOuts: AnyTerm) =>
          requireAll(rule, [
            [
              "exactly one user and one reference token are minted",
              minted.length.eq(2).and(tx.mint.pamountOf.$(own).$(userName).eq(1)).and(tx.mint.pamountOf.$(own).$(refName).eq(1)),
            ],
            ["owner receives the user token", ownerReceives(env, owner, userName)],
            ["reference token goes to the metadata script", pnot.$(pisEmpty.$(refOuts))],
            ["reference token carries the CIP-68 metadata", refOuts.some((o: AnyTerm) => hasCip68Metadata(o, pBSToData.$(key)))],
          ]),
      ),
    ),
  );
}
