/**
 * Mint: a hub is created only by claiming its item. The transaction spends exactly one connected-goods input, with
 * a Claim{token_name} redeemer, whose batch names this script as its hub policy; exactly one token is minted under
 * this policy, named `sha2_256(batch_id ‖ token_name)`, and sent to this script's address holding nothing but ADA
 * and that token, with a valid datum for that batch and item, signed by the owner it names.
 * (The connected-goods spend handler checks the rest of the claim: item key, batch recreated, one hub token.)
 */
import { bs, pBool, pisEmpty, plet, pmatch, pnot, PTxInfo, punBData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { BatchDatum, GoodsSpendRedeemer, SocialHubDatum } from "../connected-goods/types";
import { hubTokenName } from "../connected-goods/hub-token-name";
import { requireAll } from "../../rules";
import { inlineDatumOf } from "../../lib/inline-datum";
import { isScriptAddress } from "../../lib/addresses";
import { isSignedBy } from "../../lib/signatures";
import { holdsOnlyToken } from "../../lib/values";
import { isValidHubDatum } from "./profile";
import type { HubBuild } from "./env";
import { handler } from "../../lib/handler";
import type { AnyTerm } from "../../lib/term";

/** The redeemer the transaction gives for spending `utxoRef` (the ledger guarantees there is one). */
function spendRedeemerOf(tx: AnyTerm, utxoRef: AnyTerm): AnyTerm {
  return tx.redeemers.filter((r: AnyTerm) =>
    (pmatch(r.fst) as AnyTerm).onSpending(({ utxoRef: ref }: AnyTerm) => ref.eq(utxoRef))._((_: AnyTerm) => pBool(false)),
  ).head.snd;
}

/** (tx, own policy, the claimed batch's id, the claimed item's token name) → the rules on the new hub */
function isValidNewHub(b: HubBuild, tx: AnyTerm, own: AnyTerm, batchIdTerm: AnyTerm, tokenNameTerm: AnyTerm): AnyTerm {
  const { rule } = b;
  return plet(batchIdTerm).in((batchId: AnyTerm) =>
    plet(tokenNameTerm).in((tokenName: AnyTerm) =>
      plet(tx.mint.filter((e: AnyTerm) => e.fst.eq(own)).head.snd).in((minted: AnyTerm) =>
        plet(minted.head.fst).in((name: AnyTerm) =>
          plet(tx.outputs.filter((o: AnyTerm) => o.value.pamountOf.$(own).$(name).eq(1))).in((outs: AnyTerm) =>
            requireAll(rule, [
              ["exactly one hub token is minted", minted.length.eq(1).and(minted.head.snd.eq(1))],
              ["hub token is named by the batch and item", name.eq(hubTokenName(batchId, tokenName))],
              ["hub token is in an output", pnot.$(pisEmpty.$(outs))],
            ]).and(
              plet(outs.head).in((out: AnyTerm) =>
                plet(inlineDatumOf(out)).in((datum: AnyTerm) =>
                  plet(punsafeConvertType(datum, SocialHubDatum.type)).in((hub: AnyTerm) =>
                    requireAll(rule, [
                      ["hub output is at the hub address", isScriptAddress(out.address, own)],
                      ["hub output holds only ADA and the hub token", holdsOnlyToken(out.value, own, name)],
                      ["hub datum is valid", isValidHubDatum(datum, b.isValidProfileField)],
                      ["hub datum names the batch and item", hub.batchId.eq(batchId).and(hub.itemName.eq(tokenName))],
                      ["owner signed", isSignedBy(tx.signatories, hub.owner)],
                    ]),
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

/** (tx, own policy, connected-goods hash) → bool */
export function makeHubClaim(b: HubBuild): AnyTerm {
  const { rule } = b;
  return handler([PTxInfo.type, bs, bs], (tx: AnyTerm, own: AnyTerm, goods: AnyTerm) =>
    plet(tx.inputs.filter((i: AnyTerm) => isScriptAddress(i.resolved.address, goods))).in((batchIns: AnyTerm) =>
      rule("exactly one batch input", batchIns.length.eq(1)).and(
        plet(batchIns.head).in((batchIn: AnyTerm) =>
          plet(punsafeConvertType(spendRedeemerOf(tx, batchIn.utxoRef), GoodsSpendRedeemer.type)).in((claim: AnyTerm) =>
            rule("batch input is spent with Claim", claim.raw.index.eq(0)).and(
              plet(punsafeConvertType(inlineDatumOf(batchIn.resolved), BatchDatum.type)).in((batch: AnyTerm) =>
                rule("batch names this hub policy", batch.hubPolicy.eq(own)).and(
                  isValidNewHub(b, tx, own, batch.batchId, punBData.$(claim.raw.fields.head)),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
