/**
 * The transaction fields a multi-purpose script reads, each bound once with `plet(..).in(..)` before the purpose
 * is matched: every handler then reads a variable instead of walking the TxInfo fields list again.
 */
import { plet } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "./term";

export interface TxView {
  readonly inputs: AnyTerm;
  readonly refInputs: AnyTerm;
  readonly outputs: AnyTerm;
  /** own-policy entries have no ADA entry in V3 */
  readonly mint: AnyTerm;
  readonly redeemers: AnyTerm;
  readonly signatories: AnyTerm;
}

export function withTxView(tx: AnyTerm, body: (view: TxView) => AnyTerm): AnyTerm {
  return plet(tx.inputs).in((inputs: AnyTerm) =>
    plet(tx.refInputs).in((refInputs: AnyTerm) =>
      plet(tx.outputs).in((outputs: AnyTerm) =>
        plet(tx.mint).in((mint: AnyTerm) =>
          plet(tx.redeemers).in((redeemers: AnyTerm) =>
            plet(tx.signatories).in((signatories: AnyTerm) => body({ inputs, refInputs, outputs, mint, redeemers, signatories })),
          ),
        ),
      ),
    ),
  );
}
