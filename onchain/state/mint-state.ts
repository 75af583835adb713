/**
 * MINT_STATE (fork): a new state is created from a bootstrap datum read from a reference input at the proxy
 * address. Its id derives from a spent input (`sha2_256(tx_id ‖ uint16_le(index))`, so it is unique), its datum
 * copies the bootstrap with `countdown = transactionLimit − 1`, the owner is whitelisted (empty list = anyone)
 * and signs, the validity range ends before the bootstrap's ttl, the certificates are valid and within the batch
 * size and the service fee is paid when due. The mint under the proxy policy is the new state token (+1) and at
 * most one of the owner's exhausted states (−1), whose UTxO is the only proxy input spent.
 */
import {
  bool,
  bs,
  data,
  pfn,
  phoist,
  PTxOut,
  PValue,
  pBSToData,
  pConstrToData,
  peqData,
  pisEmpty,
  plet,
  pnil,
  pnot,
  psha2_256,
  punsafeConvertType,
} from "@harmoniclabs/plu-ts";
import { BootstrapDatum, StateDatum } from "../types";
import { requireAll } from "../rules";
import { inlineDatumOf } from "../lib/inline-datum";
import { isScriptAddress } from "../lib/addresses";
import { isSignedBy } from "../lib/signatures";
import { isEntirelyBefore } from "../lib/validity";
import { isServiceFeePaid } from "./service-fee";
import { nextStateDatum } from "./next-state-datum";
import { proxyInputsOf, proxyMintOf, proxyOutputsOf, type StateEnv } from "./env";
import type { AnyTerm } from "../lib/term";

/**
 * A closed, hoisted check (spent state output, owner, proxy policy, tx mint) → bool: the output holds its state
 * token, its datum names `owner`, it is exhausted (countdown ≤ 0), not kept as oracle, and its token is burned once. A closed function
 * cannot pick up a wrong binding from the deep `plet` nest of the fork rules.
 */
export function makeIsOwnBurnedState(): AnyTerm {
  return phoist(
    pfn(
      [PTxOut.type, bs, bs, PValue.type],
      bool,
    )((spent: AnyTerm, owner: AnyTerm, proxyPolicy: AnyTerm, mint: AnyTerm) =>
      plet(punsafeConvertType(inlineDatumOf(spent), StateDatum.type)).in((old: AnyTerm) =>
        plet(old.id).in((id: AnyTerm) =>
          old.owner
            .eq(owner)
            .and(old.countdown.ltEq(0))
            .and(old.keepAsOracle.raw.index.eq(0))
            .and(spent.value.pamountOf.$(proxyPolicy).$(id).eq(1))
            .and(mint.pamountOf.$(proxyPolicy).$(id).eq(-1)),
        ),
      ),
    ),
  );
}

export function isValidStateMint(env: StateEnv): AnyTerm {
  const { rule, tx, proxyPolicy, certs, signatories } = env;
  // Proxy inputs and outputs are bound first, at the shallowest scope. plu-ts 0.9.0 bug (found by the phase-2
  // test "accepts a fork that burns one of the owner's states"): bound deep inside the nest below, the input
  // filter compiled into code that applied unBData to the bootstrap's allowed-credentials list.
  return plet(proxyOutputsOf(env)).in((outs: AnyTerm) =>
    plet(proxyInputsOf(env)).in((burnedIns: AnyTerm) =>
      plet(proxyMintOf(env)).in((mint: AnyTerm) =>
        requireAll(rule, [
          ["exactly one state output", outs.length.eq(1)],
          ["proxy tokens are minted", mint.length.eq(1)],
        ]).and(
          plet(outs.head).in((stateOut: AnyTerm) =>
            plet(inlineDatumOf(stateOut)).in((nextD: AnyTerm) =>
              plet(punsafeConvertType(nextD, StateDatum.type)).in((next: AnyTerm) =>
                plet(next.raw.fields).in((nf: AnyTerm) =>
                  plet(next.id).in((id: AnyTerm) =>
                    plet(next.owner).in((owner: AnyTerm) =>
                      plet(next.bootstrapDatumName).in((bootName: AnyTerm) =>
                        plet(
                          tx.refInputs.filter((i: AnyTerm) =>
                            isScriptAddress(i.resolved.address, proxyPolicy).and(
                              i.resolved.value.pamountOf.$(proxyPolicy).$(bootName).eq(1),
                            ),
                          ),
                        ).in((bootRefs: AnyTerm) =>
                          rule("bootstrap is a reference input at the proxy address", pnot.$(pisEmpty.$(bootRefs))).and(
                            plet(punsafeConvertType(inlineDatumOf(bootRefs.head.resolved), BootstrapDatum.type)).in((boot: AnyTerm) =>
                              // Checked before any other field is read: a reference input holding another proxy token
                              // (the pointer, a state) has a 28-byte key hash in field 1, never equal to the 32-byte
                              // name of the token it holds, so it fails here, with this rule's name.
                              rule("bootstrap datum names its token", boot.tokenName.eq(bootName)).and(
                                plet(boot.raw.fields).in((bf: AnyTerm) =>
                                  plet(boot.transactionLimit.sub(1)).in((countdown: AnyTerm) =>
                                    plet(mint.head.snd).in((assets: AnyTerm) =>
                                      plet(boot.allowedCredentials).in((allowed: AnyTerm) =>
                                        requireAll(rule, [
                                          ["new state token is minted", assets.some((a: AnyTerm) => a.fst.eq(id).and(a.snd.eq(1)))],
                                          ["mint is the new state plus burned states", assets.length.eq(burnedIns.length.add(1))],
                                          ["at most one state is burned", burnedIns.length.ltEq(1)],
                                          [
                                            "a burned state is an exhausted state of the owner",
                                            // at most one (rule above): the head is the only burned state
                                            pisEmpty
                                              .$(burnedIns)
                                              .or(env.isOwnBurnedState.$(burnedIns.head.resolved).$(owner).$(proxyPolicy).$(tx.mint)),
                                          ],
                                          ["state output holds the new state token", stateOut.value.pamountOf.$(proxyPolicy).$(id).eq(1)],
                                          [
                                            "state id derives from a spent input",
                                            tx.inputs.some((i: AnyTerm) =>
                                              psha2_256.$(i.utxoRef.id.concat(env.uint16Le.$(i.utxoRef.index))).eq(id),
                                            ),
                                          ],
                                          [
                                            "owner is allowed by the bootstrap",
                                            pisEmpty.$(allowed).or(allowed.some((c: AnyTerm) => c.eq(owner))),
                                          ],
                                          ["owner signed", isSignedBy(signatories, owner)],
                                          ["validity range ends before ttl", isEntirelyBefore(tx.interval.to, boot.ttl)],
                                          ["certificates are present", pnot.$(pisEmpty.$(certs))],
                                          ["certificates fit the batch size", certs.length.ltEq(boot.batchSize)],
                                          [
                                            "certificates are well formed and signed",
                                            env.certificates.areWellFormedAndSigned(certs, signatories),
                                          ],
                                          [
                                            "state datum derives from the bootstrap",
                                            peqData.$(nextD).$(
                                              nextStateDatum(env.certificates, certs, {
                                                id: nf.at(0),
                                                owner: nf.at(1),
                                                fee: bf.at(2),
                                                feeInterval: bf.at(3),
                                                feeReceivers: bf.at(4),
                                                ttl: bf.at(5),
                                                countdown,
                                                // batch_size, bootstrap_datum_name, keep_as_oracle = False
                                                rest: pnil(data)
                                                  .prepend(pConstrToData.$(0).$(pnil(data)))
                                                  .prepend(pBSToData.$(bootName))
                                                  .prepend(bf.at(7)),
                                              }),
                                            ),
                                          ],
                                          [
                                            "service fee is paid",
                                            isServiceFeePaid(
                                              tx.outputs,
                                              { fee: boot.fee, feeInterval: boot.feeInterval, feeReceivers: boot.feeReceivers },
                                              countdown,
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
                      ),
                    ),
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
