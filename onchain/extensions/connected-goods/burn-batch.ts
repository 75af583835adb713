/**
 * BurnBatch: the batch policy only burns. Which batch may be burned is the spend handler's decision (Close), which
 * runs for every batch UTxO spent; a batch token cannot leave its UTxO any other way.
 */
import { bs, plet, PTxInfo } from "@harmoniclabs/plu-ts";
import type { GoodsBuild } from "./env";
import { handler } from "../../lib/handler";
import type { AnyTerm } from "../../lib/term";

/** (tx, own policy) → bool */
export function makeBatchBurn(b: GoodsBuild): AnyTerm {
  return handler([PTxInfo.type, bs], (tx: AnyTerm, own: AnyTerm) =>
    plet(tx.mint.filter((e: AnyTerm) => e.fst.eq(own)).head.snd).in((assets: AnyTerm) =>
      b.rule(
        "batch tokens are only burned",
        assets.every((a: AnyTerm) => a.snd.lt(0)),
      ),
    ),
  );
}
