/**
 * BURN_STATE (invalidate / opt-out): every proxy input spent is a state whose owner signs and whose token is
 * burned; the burn under the proxy policy is exactly those tokens; no certificates; nothing goes back to the
 * proxy address (the funds are free to go to the owner). Several states in one transaction are allowed.
 */
import { pisEmpty, plet, pnot, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { StateDatum } from "../types";
import { requireAll } from "../rules";
import { inlineDatumOf } from "../lib/inline-datum";
import { isSignedBy } from "../lib/signatures";
import { proxyInputsOf, proxyMintOf, proxyOutputsOf, type StateEnv } from "./env";
import type { AnyTerm } from "../lib/term";

export function isValidStateBurn(env: StateEnv): AnyTerm {
  const { rule, proxyPolicy, signatories } = env;
  return plet(proxyMintOf(env)).in((mint: AnyTerm) =>
    plet(proxyInputsOf(env)).in((ins: AnyTerm) =>
      requireAll(rule, [["proxy tokens are burned", mint.length.eq(1)]]).and(
        plet(mint.head.snd).in((assets: AnyTerm) =>
          requireAll(rule, [
            ["no certificates", pisEmpty.$(env.certs)],
            ["states are spent", pnot.$(pisEmpty.$(ins))],
            ["burn is exactly the spent states", assets.length.eq(ins.length)],
            [
              "spent states are burned by their owners",
              ins.every((i: AnyTerm) =>
                plet(punsafeConvertType(inlineDatumOf(i.resolved), StateDatum.type)).in((st: AnyTerm) =>
                  plet(st.id).in((id: AnyTerm) =>
                    i.resolved.value.pamountOf
                      .$(proxyPolicy)
                      .$(id)
                      .eq(1)
                      .and(assets.some((a: AnyTerm) => a.fst.eq(id).and(a.snd.eq(-1))))
                      .and(st.keepAsOracle.raw.index.eq(0))
                      .and(isSignedBy(signatories, st.owner)),
                  ),
                ),
              ),
            ],
            ["nothing is sent to the proxy address", pisEmpty.$(proxyOutputsOf(env))],
          ]),
        ),
      ),
    ),
  );
}
