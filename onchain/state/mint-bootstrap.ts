/**
 * MINT_BOOTSTRAP: a bootstrap administrator signs; exactly one token is minted under the proxy policy (not the
 * pointer) and sent to the proxy address with an inline, well-formed BootstrapDatum whose token_name equals it.
 * No proxy UTxO is spent.
 */
import { pisEmpty, plet, pnot, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { BootstrapDatum } from "../types";
import { requireAll } from "../rules";
import { inlineDatumOf } from "../lib/inline-datum";
import { isScriptAddress } from "../lib/addresses";
import { isAdminSigned, proxyInputsOf, proxyMintOf, type StateEnv } from "./env";
import type { AnyTerm } from "../lib/term";

export function isValidBootstrapMint(env: StateEnv): AnyTerm {
  const { rule, tx, proxyPolicy } = env;
  return plet(proxyMintOf(env)).in((mint: AnyTerm) =>
    requireAll(rule, [["proxy tokens are minted", mint.length.eq(1)]]).and(
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
