/**
 * Spend, common to Update and Transfer: the owner named in the hub datum signs; this is the only hub input (so one
 * output cannot serve two spends); the hub's token goes to an output at this script's address (any stake part:
 * the owner's choice) holding nothing but ADA and that token, with at least the spent lovelace (a growing datum may
 * need more, never less). The redeemer-specific rule on the next datum is `nextDatumRule`.
 */
import { plet, pisEmpty, pnot, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { SocialHubDatum } from "../connected-goods/types";
import { hubTokenName } from "../connected-goods/hub-token-name";
import { requireAll, type Rule } from "../../rules";
import { inlineDatumOf } from "../../lib/inline-datum";
import { isScriptAddress } from "../../lib/addresses";
import { isSignedBy } from "../../lib/signatures";
import { holdsOnlyToken } from "../../lib/values";
import type { AnyTerm } from "../../lib/term";

/** (current datum as a SocialHubDatum, its Data, next datum as Data) → the redeemer's rules */
type NextDatumRules = (cur: AnyTerm, nextD: AnyTerm) => AnyTerm;

export function isValidHubSpend(rule: Rule, tx: AnyTerm, spent: AnyTerm, own: AnyTerm, nextDatumRules: NextDatumRules): AnyTerm {
  return plet(punsafeConvertType(inlineDatumOf(spent), SocialHubDatum.type)).in((cur: AnyTerm) =>
    plet(hubTokenName(cur.batchId, cur.itemName)).in((name: AnyTerm) =>
      plet(tx.outputs.filter((o: AnyTerm) => o.value.pamountOf.$(own).$(name).eq(1))).in((outs: AnyTerm) =>
        requireAll(rule, [
          ["exactly one hub input", tx.inputs.filter((i: AnyTerm) => isScriptAddress(i.resolved.address, own)).length.eq(1)],
          ["spent output holds its hub token", holdsOnlyToken(spent.value, own, name)],
          ["owner signed", isSignedBy(tx.signatories, cur.owner)],
          ["hub token is in an output", pnot.$(pisEmpty.$(outs))],
        ]).and(
          plet(outs.head).in((out: AnyTerm) =>
            requireAll(rule, [
              ["hub output is at the hub address", isScriptAddress(out.address, own)],
              [
                "hub output holds only ADA and the hub token, no less ADA",
                holdsOnlyToken(out.value, own, name).and(out.value.lovelaces.gtEq(spent.value.lovelaces)),
              ],
            ]).and(plet(inlineDatumOf(out)).in((nextD: AnyTerm) => nextDatumRules(cur, nextD))),
          ),
        ),
      ),
    ),
  );
}
