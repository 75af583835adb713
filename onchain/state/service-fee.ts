/**
 * The service fee (docs/protocol.md#service-fee): due unless `fee == 0`,
 * `feeInterval == 0` or `(next.countdown + 1) % feeInterval != 0`; when due every receiver gets an ADA-only
 * output of exactly `fee / len(receivers)` lovelace at its key credential.
 */
import { bool, pBool, pif, plet } from "@harmoniclabs/plu-ts";
import { isKeyAddress } from "../lib/addresses";
import type { AnyTerm } from "../lib/term";

export interface FeeTermsTerms {
  readonly fee: AnyTerm;
  readonly feeInterval: AnyTerm;
  readonly feeReceivers: AnyTerm;
}

export function isServiceFeePaid(outputs: AnyTerm, terms: FeeTermsTerms, nextCountdown: AnyTerm): AnyTerm {
  return pif(bool)
    .$(terms.fee.gt(0).and(terms.feeInterval.gt(0)).and(nextCountdown.add(1).mod(terms.feeInterval).eq(0)))
    .then(
      plet(terms.fee.div(terms.feeReceivers.length)).in((share: AnyTerm) =>
        terms.feeReceivers.every((receiver: AnyTerm) =>
          outputs.some((o: AnyTerm) => isKeyAddress(o.address, receiver).and(o.value.length.eq(1)).and(o.value.lovelaces.eq(share))),
        ),
      ),
    )
    .else(pBool(true));
}
