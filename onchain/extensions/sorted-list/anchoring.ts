/**
 * Certificate anchoring: a list entry exists only for a certificate the core protocol anchors in the same
 * transaction. The transaction's redeemers must hold a withdrawal redeemer of the core state script (its hash
 * comes from the list's config) that is an UPDATE_STATE or MINT_STATE state redeemer carrying a certificate
 * whose hash is the key. A redeemer for a withdrawal implies the withdrawal, so the state script itself ran and
 * validated that redeemer; the bootstrap and burn purposes anchor nothing.
 */
import { bool, bs, data, map, pBool, pfn, phoist, plet, pmatch, PScriptPurpose, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { StateRedeemer } from "../../types";
import type { AnyTerm } from "../../lib/term";

const UPDATE_STATE = 2;
const MINT_STATE = 3;

/** A closed, hoisted check (tx redeemers, state script hash, key) → bool. */
export function makeIsCertificateAnchored(): AnyTerm {
  return phoist(
    pfn(
      [map(PScriptPurpose.type, data), bs, bs],
      bool,
    )((redeemers: AnyTerm, serviceHash: AnyTerm, key: AnyTerm) =>
      redeemers.some((r: AnyTerm) =>
        (pmatch(r.fst) as AnyTerm)
          .onRewarding(({ stakeCredential }: AnyTerm) => stakeCredential.raw.index.eq(1).and(stakeCredential.hash.eq(serviceHash)))
          ._((_: AnyTerm) => pBool(false))
          .and(
            plet(punsafeConvertType(r.snd, StateRedeemer.type)).in((sr: AnyTerm) =>
              plet(sr.purpose.raw.index).in((purpose: AnyTerm) =>
                purpose
                  .eq(UPDATE_STATE)
                  .or(purpose.eq(MINT_STATE))
                  .and(sr.certificates.some((c: AnyTerm) => c.hash.eq(key))),
              ),
            ),
          ),
      ),
    ),
  );
}
