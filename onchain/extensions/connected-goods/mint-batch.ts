/**
 * MintBatch{seed}: the issuer creates a batch. The batch id is derived from an input this transaction spends
 * (`sha2_256(tx_id ‖ uint16_le(index))` of `seed`), so no two batches share it. Exactly one batch token, named by
 * the id, is minted and sent to this script's address (any stake part: the issuer's choice) holding nothing but
 * ADA and that token, with an inline, well-formed datum naming the id, signed by its issuer, with a non-empty,
 * well-formed item list sorted by name.
 */
import { bs, pBSToData, pisEmpty, plet, pnot, psha2_256, PTxInfo, PTxOutRef, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { BatchDatum } from "./types";
import { isBatchDatumOf } from "./batch-datum";
import { requireAll } from "../../rules";
import { inlineDatumOf } from "../../lib/inline-datum";
import { CREDENTIAL_HASH_BYTES, isScriptAddress } from "../../lib/addresses";
import { isSignedBy } from "../../lib/signatures";
import { holdsOnlyToken } from "../../lib/values";
import type { GoodsBuild } from "./env";
import { handler } from "../../lib/handler";
import type { AnyTerm } from "../../lib/term";

/** `Constr 0 [B id, B issuer, B hub_policy, List items]` rebuilt from its own fields: pins constructor and arity. */
function isWellFormedBatchDatum(datum: AnyTerm, d: AnyTerm): AnyTerm {
  return isBatchDatumOf(datum, pBSToData.$(d.batchId), pBSToData.$(d.issuer), pBSToData.$(d.hubPolicy), d.items)
    .and(d.issuer.length.eq(CREDENTIAL_HASH_BYTES))
    .and(d.hubPolicy.length.eq(CREDENTIAL_HASH_BYTES));
}

/** (tx, own policy, seed) → bool */
export function makeBatchMint(b: GoodsBuild): AnyTerm {
  const { rule } = b;
  return handler([PTxInfo.type, bs, PTxOutRef.type], (tx: AnyTerm, own: AnyTerm, seed: AnyTerm) =>
    plet(tx.mint.filter((e: AnyTerm) => e.fst.eq(own)).head.snd).in((assets: AnyTerm) =>
      plet(assets.head.fst).in((name: AnyTerm) =>
        plet(tx.outputs.filter((o: AnyTerm) => o.value.pamountOf.$(own).$(name).eq(1))).in((outs: AnyTerm) =>
          requireAll(rule, [
            ["seed input is spent", tx.inputs.some((i: AnyTerm) => i.utxoRef.eq(seed))],
            ["exactly one batch token is minted", assets.length.eq(1).and(assets.head.snd.eq(1))],
            ["batch token is named by the seed", name.eq(psha2_256.$(seed.id.concat(b.uint16Le.$(seed.index))))],
            ["batch token is in an output", pnot.$(pisEmpty.$(outs))],
          ]).and(
            plet(outs.head).in((out: AnyTerm) =>
              plet(inlineDatumOf(out)).in((datum: AnyTerm) =>
                plet(punsafeConvertType(datum, BatchDatum.type)).in((d: AnyTerm) =>
                  plet(d.items).in((items: AnyTerm) =>
                    requireAll(rule, [
                      ["batch output is at the batch address", isScriptAddress(out.address, own)],
                      ["batch output holds only ADA and the batch token", holdsOnlyToken(out.value, own, name)],
                      ["batch datum is well formed", isWellFormedBatchDatum(datum, d)],
                      ["batch datum names its token", d.batchId.eq(name)],
                      ["issuer signed", isSignedBy(tx.signatories, d.issuer)],
                      ["items are present", pnot.$(pisEmpty.$(items))],
                      ["items are well formed and sorted", b.items.areWellFormedAndSorted(items)],
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
