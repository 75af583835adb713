/**
 * UPDATE_STATE: spend the state UTxO and re-create it at the same proxy address with the same token, the
 * certificate hash replaced and the countdown decremented; the state must be alive and not expired, the owner
 * signs, the certificates are valid and within the batch size, and the service fee is paid when due.
 */
import { data, pdropList, peqData, pisEmpty, plet, pnot, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { StateDatum } from "../types";
import { requireAll } from "../rules";
import { inlineDatumOf } from "../lib/inline-datum";
import { isSignedBy } from "../lib/signatures";
import { isEntirelyBefore } from "../lib/validity";
import { isServiceFeePaid } from "./service-fee";
import { nextStateDatum } from "./next-state-datum";
import { proxyInputsOf, proxyMintOf, proxyOutputsOf, type StateEnv } from "./env";
import type { AnyTerm } from "../lib/term";

export function isValidUpdate(env: StateEnv): AnyTerm {
  const { rule, tx, proxyPolicy, certs, signatories } = env;
  return plet(proxyInputsOf(env)).in((ins: AnyTerm) =>
    plet(proxyOutputsOf(env)).in((outs: AnyTerm) =>
      requireAll(rule, [
        ["no proxy token is minted or burned", pisEmpty.$(proxyMintOf(env))],
        ["exactly one state input", ins.length.eq(1)],
        ["exactly one state output", outs.length.eq(1)],
      ]).and(
        plet(ins.head.resolved).in((stateIn: AnyTerm) =>
          plet(outs.head).in((stateOut: AnyTerm) =>
            plet(punsafeConvertType(inlineDatumOf(stateIn), StateDatum.type)).in((cur: AnyTerm) =>
              plet(cur.raw.fields).in((f: AnyTerm) =>
                plet(cur.id).in((id: AnyTerm) =>
                  plet(cur.countdown).in((countdown: AnyTerm) =>
                    requireAll(rule, [
                      ["state input holds its state token", stateIn.value.pamountOf.$(proxyPolicy).$(id).eq(1)],
                      ["state output holds the state token", stateOut.value.pamountOf.$(proxyPolicy).$(id).eq(1)],
                      ["state output stays at the state address", stateOut.address.eq(stateIn.address)],
                      ["owner signed", isSignedBy(signatories, cur.owner)],
                      ["state is alive", countdown.gt(0)],
                      ["validity range ends before ttl", isEntirelyBefore(tx.interval.to, cur.ttl)],
                      ["state is not kept as oracle", cur.keepAsOracle.raw.index.eq(0)],
                      ["certificates are present", pnot.$(pisEmpty.$(certs))],
                      ["certificates fit the batch size", certs.length.ltEq(cur.batchSize)],
                      ["certificates are well formed and signed", env.certificates.areWellFormedAndSigned(certs, signatories)],
                      [
                        "next datum changes only certificate hash and countdown",
                        peqData.$(inlineDatumOf(stateOut)).$(
                          nextStateDatum(env.certificates, certs, {
                            id: f.at(0),
                            owner: f.at(1),
                            fee: f.at(2),
                            feeInterval: f.at(3),
                            feeReceivers: f.at(4),
                            ttl: f.at(5),
                            countdown: countdown.sub(1),
                            rest: pdropList(data).$(f).$(8),
                          }),
                        ),
                      ],
                      [
                        "service fee is paid",
                        isServiceFeePaid(
                          tx.outputs,
                          { fee: cur.fee, feeInterval: cur.feeInterval, feeReceivers: cur.feeReceivers },
                          countdown.sub(1),
                        ),
                      ],
                    ]),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
