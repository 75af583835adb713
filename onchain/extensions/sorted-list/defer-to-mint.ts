/**
 * Spending a HEAD or node, for any list whose redeemer has Init as constructor 0. Every transition mints under
 * the list's own policy and the mint handler validates the whole transition, so a spend only has to prove that
 * the mint handler runs on the same action: the own policy's mint redeemer in this transaction must equal this
 * spend's redeemer. That closes redeemer confusion (a node spent with Insert while the mint claims or redeems,
 * or the reverse). Init never spends a list entry.
 */
import { pBool, peqData, plet, pmatch, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { requireAll, type Rule } from "../../rules";
import { PAnyConstr } from "../../lib/constr-data";
import type { AnyTerm } from "../../lib/term";

const INIT = 0;

export function isValidListSpend(rule: Rule, tx: AnyTerm, utxoRef: AnyTerm, redeemer: AnyTerm): AnyTerm {
  return plet(tx.inputs.filter((i: AnyTerm) => i.utxoRef.eq(utxoRef)).head.resolved.address.credential.hash).in((own: AnyTerm) =>
    requireAll(rule, [
      ["spend is not an init", punsafeConvertType(redeemer, PAnyConstr.type).raw.index.gt(INIT)],
      [
        "list policy mints with the same redeemer",
        tx.redeemers.some((r: AnyTerm) =>
          (pmatch(r.fst) as AnyTerm)
            .onMinting(({ currencySym }: AnyTerm) => currencySym.eq(own))
            ._((_: AnyTerm) => pBool(false))
            .and(peqData.$(r.snd).$(redeemer)),
        ),
      ],
    ]),
  );
}
