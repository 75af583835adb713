/**
 * MINT_BOOTSTRAP: a bootstrap administrator signs; exactly one token is minted under the proxy policy (not the
 * pointer) and sent to the proxy address with an inline, well-formed BootstrapDatum whose token_name equals it.
 * No proxy UTxO is spent, and the redeemer carries no certificates (their issuers are never checked here). The
 * datum's fee terms must be payable (below).
 */
import { pisEmpty, plet, pnot, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { BootstrapDatum } from "../types";
import { requireAll, type Rule } from "../rules";
import { inlineDatumOf } from "../lib/inline-datum";
import { isScriptAddress } from "../lib/addresses";
import { isAdminSigned, proxyInputsOf, proxyMintOf, type StateEnv } from "./env";
import type { AnyTerm } from "../lib/term";

/**
 * Fee terms every fork and update can honour (docs/decisions.md#fee-rule). With a fee: a positive interval (the
 * service-fee rule would otherwise never charge); a transaction limit that is a multiple of it, so the fork itself
 * is fee-due and a fork-use-burn cycle cannot dodge the fee; at least one receiver (the share divides by their
 * number). Receivers are always distinct: one output would otherwise count for several of them. Read only once the
 * datum is known to have its 8 fields.
 */
function isPayableFeeTerms(rule: Rule, boot: AnyTerm): AnyTerm {
  return plet(boot.fee.gt(0)).in((charged: AnyTerm) =>
    plet(boot.feeInterval).in((interval: AnyTerm) =>
      plet(boot.feeReceivers).in((receivers: AnyTerm) =>
        requireAll(rule, [
          ["fee interval is positive", pnot.$(charged).or(interval.gt(0))],
          [
            "transaction limit is a multiple of the fee interval",
            pnot.$(charged).or(interval.gt(0).and(boot.transactionLimit.mod(interval).eq(0))),
          ],
          ["fee receivers are named", pnot.$(charged).or(pnot.$(pisEmpty.$(receivers)))],
          ["fee receivers are distinct", receivers.every((r: AnyTerm) => receivers.filter((x: AnyTerm) => x.eq(r)).length.eq(1))],
        ]),
      ),
    ),
  );
}

export function isValidBootstrapMint(env: StateEnv): AnyTerm {
  const { rule, tx, proxyPolicy } = env;
  return plet(proxyMintOf(env)).in((mint: AnyTerm) =>
    requireAll(rule, [
      ["proxy tokens are minted", mint.length.eq(1)],
      ["no certificates", pisEmpty.$(env.certs)],
    ]).and(
      plet(mint.head.snd).in((assets: AnyTerm) =>
        plet(assets.head.fst).in((name: AnyTerm) =>
          plet(tx.outputs.filter((o: AnyTerm) => o.value.pamountOf.$(proxyPolicy).$(name).eq(1))).in((outs: AnyTerm) =>
            requireAll(rule, [
              ["administrator signed", isAdminSigned(env)],
              ["exactly one token is minted", assets.length.eq(1).and(assets.head.snd.eq(1))],
              ["bootstrap token is not the pointer", pnot.$(name.eq(env.pointerName))],
              ["no proxy input is spent", pisEmpty.$(proxyInputsOf(env))],
              ["bootstrap token is in an output", pnot.$(pisEmpty.$(outs))],
            ]).and(
              plet(outs.head).in((out: AnyTerm) =>
                plet(punsafeConvertType(inlineDatumOf(out), BootstrapDatum.type)).in((boot: AnyTerm) =>
                  requireAll(rule, [
                    ["bootstrap output is at the proxy address", isScriptAddress(out.address, proxyPolicy)],
                    ["bootstrap datum is well formed", boot.raw.index.eq(0).and(boot.raw.fields.length.eq(8))],
                    ["bootstrap datum names its token", boot.tokenName.eq(name)],
                  ]).and(isPayableFeeTerms(rule, boot)),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
