/** The batch UTxO a spend handler runs for, with what every spend rule reads from it. */
import { plet, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { BatchDatum } from "./types";
import { inlineDatumOf } from "../../lib/inline-datum";
import { isScriptAddress } from "../../lib/addresses";
import type { AnyTerm } from "../../lib/term";

interface SpentBatch {
  /** the spent PTxOut */
  readonly spent: AnyTerm;
  /** its BatchDatum */
  readonly datum: AnyTerm;
  readonly batchId: AnyTerm;
  /** how many inputs of this transaction sit at this script's address */
  readonly ownInputCount: AnyTerm;
}

export function withSpentBatch(tx: AnyTerm, spent: AnyTerm, own: AnyTerm, k: (batch: SpentBatch) => AnyTerm): AnyTerm {
  return plet(punsafeConvertType(inlineDatumOf(spent), BatchDatum.type)).in((datum: AnyTerm) =>
    plet(datum.batchId).in((batchId: AnyTerm) =>
      plet(tx.inputs.filter((i: AnyTerm) => isScriptAddress(i.resolved.address, own)).length).in((ownInputCount: AnyTerm) =>
        k({ spent, datum, batchId, ownInputCount }),
      ),
    ),
  );
}
