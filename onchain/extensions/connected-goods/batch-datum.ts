/** The batch datum rebuilt as Data, so a datum is compared with it in one `equalsData` (constructor and arity too). */
import { data, pConstrToData, peqData, pListToData, pnil } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "../../lib/term";

/** Whether `datum` (Data) is `Constr 0 [batchId, issuer, hubPolicy, List items]`: the first three as Data, `items` a list. */
export function isBatchDatumOf(datum: AnyTerm, batchId: AnyTerm, issuer: AnyTerm, hubPolicy: AnyTerm, items: AnyTerm): AnyTerm {
  return peqData
    .$(datum)
    .$(pConstrToData.$(0).$(pnil(data).prepend(pListToData.$(items)).prepend(hubPolicy).prepend(issuer).prepend(batchId)));
}
