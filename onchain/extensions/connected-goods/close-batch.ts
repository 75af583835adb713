/**
 * Close: once every item is claimed the issuer may retire the batch and take back its ADA. The issuer signs, the
 * item list is empty, this is the only batch input, and the batch token is burned (exactly −1 of it).
 */
import { bs, pisEmpty, PTxInfo, PTxOut } from "@harmoniclabs/plu-ts";
import { requireAll } from "../../rules";
import { isSignedBy } from "../../lib/signatures";
import { holdsOnlyToken, mintsExactly } from "../../lib/values";
import type { GoodsBuild } from "./env";
import { withSpentBatch } from "./spent-batch";
import { handler } from "../../lib/handler";
import type { AnyTerm } from "../../lib/term";

/** (tx, spent batch output, own hash) → bool */
export function makeBatchClose(b: GoodsBuild): AnyTerm {
  const { rule } = b;
  return handler([PTxInfo.type, PTxOut.type, bs], (tx: AnyTerm, spent: AnyTerm, own: AnyTerm) =>
    withSpentBatch(tx, spent, own, ({ datum, batchId, ownInputCount }) =>
      requireAll(rule, [
        ["exactly one batch input", ownInputCount.eq(1)],
        ["spent output holds its batch token", holdsOnlyToken(spent.value, own, batchId)],
        ["issuer signed", isSignedBy(tx.signatories, datum.issuer)],
        ["every item is claimed", pisEmpty.$(datum.items)],
        ["batch token is burned", mintsExactly(tx.mint, own, batchId, -1)],
      ]),
    ),
  );
}
