/**
 * Proxy validator (issue #3; docs/protocol.md#proxy). One V3 script that is both the proxy address (spend) and the
 * policy of every protocol token (mint). Parameter: the one-shot out-ref that makes the policy unique and names
 * the pointer token `sha3_256(tx_id ‖ ascii(decimal(index)))`. The pointer UTxO's datum names the current state
 * script; USER actions are allowed only when that script is withdrawn from in the same transaction, so all
 * business rules live in the state script. ADMIN actions create (mint) or upgrade (spend) the pointer.
 */
import {
  data,
  pBSToData,
  pConstrToData,
  peqData,
  perror,
  pfn,
  pisEmpty,
  plet,
  pmatch,
  pnil,
  pnot,
  passert,
  psha3_256,
  PScriptContext,
  PTxOutRef,
  punsafeConvertType,
  unit,
} from "@harmoniclabs/plu-ts";
import { ProxyDatum, ProxyRedeemer } from "./types";
import { makeRule, type BuildOptions } from "./rules";
import { makeDecimalAscii } from "./lib/byte-encodings";
import { inlineDatumOf } from "./lib/inline-datum";
import { isScriptAddress } from "./lib/addresses";
import { isSignedBy } from "./lib/signatures";
import type { AnyTerm } from "./lib/term";

export function makeProxyValidator(opts: BuildOptions): AnyTerm {
  const rule = makeRule(opts);
  const decimalAscii = makeDecimalAscii();

  /** A well-formed pointer datum: exactly `Constr 0 [B 28 bytes, B 28 bytes]` (rebuilt and compared whole). */
  const isWellFormedPointerDatum = (datum: AnyTerm): AnyTerm =>
    plet(punsafeConvertType(datum, ProxyDatum.type)).in((pd: AnyTerm) =>
      peqData
        .$(datum)
        .$(pConstrToData.$(0).$(pnil(data).prepend(pBSToData.$(pd.scriptOwner)).prepend(pBSToData.$(pd.scriptPointer))))
        .and(pd.scriptPointer.length.eq(28))
        .and(pd.scriptOwner.length.eq(28)),
    );

  return pfn(
    [data, PScriptContext.type],
    unit,
  )((oneShotD: AnyTerm, { tx, redeemer, purpose }: AnyTerm) =>
    plet(punsafeConvertType(oneShotD, PTxOutRef.type)).in((oneShot: AnyTerm) =>
      plet(psha3_256.$(oneShot.id.concat(decimalAscii.$(oneShot.index)))).in((pointerName: AnyTerm) =>
        plet(tx.signatories).in((signatories: AnyTerm) => {
          const holdsPointer = (value: AnyTerm, own: AnyTerm): AnyTerm => value.pamountOf.$(own).$(pointerName).eq(1);

          /** USER: the pointer (a reference input) names a state script that is withdrawn from in this tx. */
          const stateScriptWithdrawn = (own: AnyTerm): AnyTerm =>
            plet(tx.refInputs.filter((i: AnyTerm) => holdsPointer(i.resolved.value, own))).in((pointers: AnyTerm) =>
              rule("pointer is a reference input", pnot.$(pisEmpty.$(pointers))).and(
                plet(punsafeConvertType(inlineDatumOf(pointers.head.resolved), ProxyDatum.type)).in((pointer: AnyTerm) =>
                  rule(
                    "state script is withdrawn",
                    tx.withdrawals.some((w: AnyTerm) => w.fst.raw.index.eq(1).and(w.fst.hash.eq(pointer.scriptPointer))),
                  ),
                ),
              ),
            );

          /** ADMIN: the single output holding the pointer sits at the proxy address with a well-formed datum signed by its owner. */
          const pointerRecreated = (own: AnyTerm): AnyTerm =>
            plet(tx.outputs.filter((o: AnyTerm) => holdsPointer(o.value, own))).in((outs: AnyTerm) =>
              rule("pointer is in an output", pnot.$(pisEmpty.$(outs))).and(
                plet(outs.head).in((out: AnyTerm) =>
                  plet(inlineDatumOf(out)).in((datum: AnyTerm) =>
                    plet(rule("pointer output is at the proxy address", isScriptAddress(out.address, own))).in((atProxy: AnyTerm) =>
                      plet(rule("pointer datum is well formed", isWellFormedPointerDatum(datum))).in((wellFormed: AnyTerm) =>
                        plet(
                          rule("pointer owner signed", isSignedBy(signatories, punsafeConvertType(datum, ProxyDatum.type).scriptOwner)),
                        ).in((ownerSigned: AnyTerm) => atProxy.and(wellFormed).and(ownerSigned)),
                      ),
                    ),
                  ),
                ),
              ),
            );

          const onMint = (own: AnyTerm): AnyTerm =>
            pmatch(punsafeConvertType(redeemer, ProxyRedeemer.type))
              .onUSER((_: AnyTerm) =>
                plet(
                  rule(
                    "pointer token is not minted or burned",
                    pnot.$(tx.mint.some((e: AnyTerm) => e.fst.eq(own).and(e.snd.some((a: AnyTerm) => a.fst.eq(pointerName))))),
                  ),
                ).in((pointerUntouched: AnyTerm) => passert.$(pointerUntouched.and(stateScriptWithdrawn(own)))),
              )
              .onADMIN((_: AnyTerm) =>
                plet(
                  rule(
                    "one-shot input is spent",
                    tx.inputs.some((i: AnyTerm) => i.utxoRef.eq(oneShot)),
                  ),
                ).in((oneShotSpent: AnyTerm) =>
                  plet(tx.mint.filter((e: AnyTerm) => e.fst.eq(own))).in((ownMint: AnyTerm) =>
                    plet(
                      rule(
                        "exactly one pointer token is minted",
                        ownMint.length
                          .eq(1)
                          .and(
                            plet(ownMint.head.snd).in((assets: AnyTerm) =>
                              assets.length.eq(1).and(assets.head.fst.eq(pointerName)).and(assets.head.snd.eq(1)),
                            ),
                          ),
                      ),
                    ).in((onePointer: AnyTerm) => passert.$(oneShotSpent.and(onePointer).and(pointerRecreated(own)))),
                  ),
                ),
              );

          const onSpend = (utxoRef: AnyTerm): AnyTerm =>
            plet(tx.inputs.filter((i: AnyTerm) => i.utxoRef.eq(utxoRef)).head.resolved).in((spent: AnyTerm) =>
              plet(spent.address.credential.hash).in((own: AnyTerm) =>
                pmatch(punsafeConvertType(redeemer, ProxyRedeemer.type))
                  .onUSER((_: AnyTerm) =>
                    plet(rule("spent output does not hold the pointer", spent.value.pamountOf.$(own).$(pointerName).eq(0))).in(
                      (notPointer: AnyTerm) => passert.$(notPointer.and(stateScriptWithdrawn(own))),
                    ),
                  )
                  .onADMIN((_: AnyTerm) =>
                    plet(rule("spent output holds the pointer", holdsPointer(spent.value, own))).in((isPointer: AnyTerm) =>
                      plet(
                        rule(
                          "previous owner signed",
                          isSignedBy(signatories, punsafeConvertType(inlineDatumOf(spent), ProxyDatum.type).scriptOwner),
                        ),
                      ).in((oldOwnerSigned: AnyTerm) => passert.$(isPointer.and(oldOwnerSigned).and(pointerRecreated(own)))),
                    ),
                  ),
              ),
            );

          return (pmatch(purpose) as AnyTerm)
            .onMinting(({ currencySym }: AnyTerm) => onMint(currencySym))
            .onSpending(({ utxoRef }: AnyTerm) => onSpend(utxoRef))
            ._((_: AnyTerm) => perror(unit));
        }),
      ),
    ),
  );
}
