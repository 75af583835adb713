/**
 * Claim{token_name}: the holder of an item's key takes the item out of the batch. The item key (its hash is in
 * the batch datum) signs; this is the only batch input (one continuing output can then never satisfy two claims);
 * the batch is recreated at the same address (stake part included) with the same value and the same datum minus
 * exactly this item (rebuilt and compared as Data, so no other entry can change); and the transaction mints
 * exactly one token under the batch's hub policy, named `sha2_256(batch_id ‖ token_name)`.
 */
import { bs, pisEmpty, plet, pnot, PTxInfo, PTxOut, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { BatchItem } from "./types";
import { isBatchDatumOf } from "./batch-datum";
import { hubTokenName } from "./hub-token-name";
import { requireAll } from "../../rules";
import { inlineDatumOf } from "../../lib/inline-datum";
import { isSignedBy } from "../../lib/signatures";
import { holdsOnlyToken, mintsExactly } from "../../lib/values";
import type { GoodsBuild } from "./env";
import { withSpentBatch } from "./spent-batch";
import { handler } from "../../lib/handler";
import type { AnyTerm } from "../../lib/term";

/** (tx, spent batch output, own hash, claimed token name) → bool */
export function makeItemClaim(b: GoodsBuild): AnyTerm {
  const { rule } = b;
  return handler([PTxInfo.type, PTxOut.type, bs, bs], (tx: AnyTerm, spent: AnyTerm, own: AnyTerm, tokenName: AnyTerm) =>
    withSpentBatch(tx, spent, own, ({ datum: cur, batchId, ownInputCount }) =>
      plet(b.items.moveToFront.$(tokenName).$(cur.items)).in((moved: AnyTerm) =>
        requireAll(rule, [
          ["exactly one batch input", ownInputCount.eq(1)],
          ["spent output holds its batch token", holdsOnlyToken(spent.value, own, batchId)],
          ["claimed item is in the batch", pnot.$(pisEmpty.$(moved))],
        ]).and(
          plet(tx.outputs.filter((o: AnyTerm) => o.value.pamountOf.$(own).$(batchId).eq(1))).in((outs: AnyTerm) =>
            requireAll(rule, [
              ["item key signed", isSignedBy(tx.signatories, punsafeConvertType(moved.head, BatchItem.type).itemKeyHash)],
              ["one hub token is minted for the item", mintsExactly(tx.mint, cur.hubPolicy, hubTokenName(batchId, tokenName), 1)],
              ["batch is recreated", pnot.$(pisEmpty.$(outs))],
            ]).and(
              plet(outs.head).in((out: AnyTerm) =>
                plet(cur.raw.fields).in((f: AnyTerm) =>
                  requireAll(rule, [
                    ["batch stays at its address", out.address.eq(spent.address)],
                    [
                      "batch value is unchanged",
                      holdsOnlyToken(out.value, own, batchId).and(out.value.lovelaces.eq(spent.value.lovelaces)),
                    ],
                    [
                      "batch datum loses exactly the claimed item",
                      isBatchDatumOf(inlineDatumOf(out), f.at(0), f.at(1), f.at(2), moved.tail),
                    ],
                  ]),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
