/**
 * BURN_BOOTSTRAP: a bootstrap administrator signs; exactly one token is burned under the proxy policy, it comes
 * from the single proxy input spent, whose datum is the BootstrapDatum naming it; nothing goes back to the proxy;
 * the redeemer carries no certificates (their issuers are never checked here).
 */
import { pisEmpty, plet, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { BootstrapDatum } from "../types";
import { requireAll } from "../rules";
import { inlineDatumOf } from "../lib/inline-datum";
import { isAdminSigned, proxyInputsOf, proxyMintOf, proxyOutputsOf, type StateEnv } from "./env";
import type { AnyTerm } from "../lib/term";

export function isValidBootstrapBurn(env: StateEnv): AnyTerm {
  const { rule, proxyPolicy } = env;
  return plet(proxyMintOf(env)).in((mint: AnyTerm) =>
    plet(proxyInputsOf(env)).in((ins: AnyTerm) =>
      requireAll(rule, [
        ["proxy tokens are burned", mint.length.eq(1)],
        ["exactly one proxy input", ins.length.eq(1)],
        ["no certificates", pisEmpty.$(env.certs)],
      ]).and(
        plet(mint.head.snd).in((assets: AnyTerm) =>
          plet(assets.head.fst).in((name: AnyTerm) =>
            plet(ins.head.resolved).in((spent: AnyTerm) =>
              requireAll(rule, [
                ["administrator signed", isAdminSigned(env)],
                ["exactly one token is burned", assets.length.eq(1).and(assets.head.snd.eq(-1))],
                ["burned token comes from the proxy input", spent.value.pamountOf.$(proxyPolicy).$(name).eq(1)],
                [
                  "proxy input is the bootstrap of the burned token",
                  punsafeConvertType(inlineDatumOf(spent), BootstrapDatum.type).tokenName.eq(name),
                ],
                ["nothing is sent to the proxy address", pisEmpty.$(proxyOutputsOf(env))],
              ]),
            ),
          ),
        ),
      ),
    ),
  );
}
