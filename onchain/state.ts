/**
 * State validator (issue #3; docs/protocol.md#state). Parameters: the proxy policy id, the pointer
 * token name, and the bootstrap administrators' key hashes. All business rules run in its withdraw handler
 * (a zero-lovelace withdrawal whose redeemer is `Constr 0 [purpose, certificates]`); the proxy delegates every
 * USER mint and spend to it. Its publish handler only lets the script register its stake credential.
 */
import {
  data,
  passert,
  perror,
  pfn,
  plet,
  pmatch,
  PScriptContext,
  punBData,
  punListData,
  punsafeConvertType,
  unit,
} from "@harmoniclabs/plu-ts";
import { StateRedeemer } from "./types";
import { makeRule, type BuildOptions } from "./rules";
import { makeUint16Le } from "./lib/byte-encodings";
import { makeCertificateHelpers } from "./state/certificates";
import type { StateEnv } from "./state/env";
import { isValidUpdate } from "./state/update-state";
import { isValidStateMint, makeIsOwnBurnedState } from "./state/mint-state";
import { isValidBootstrapMint } from "./state/mint-bootstrap";
import { isValidBootstrapBurn } from "./state/burn-bootstrap";
import { isValidStateBurn } from "./state/burn-state";
import type { AnyTerm } from "./lib/term";

export function makeStateValidator(opts: BuildOptions): AnyTerm {
  const rule = makeRule(opts);
  const certificates = makeCertificateHelpers(rule);
  const uint16Le = makeUint16Le();
  const isOwnBurnedState = makeIsOwnBurnedState();

  return pfn(
    [data, data, data, PScriptContext.type],
    unit,
  )((proxyPolicyD: AnyTerm, pointerNameD: AnyTerm, adminsD: AnyTerm, { tx, redeemer, purpose }: AnyTerm) =>
    (pmatch(purpose) as AnyTerm)
      .onRewarding((_: AnyTerm) =>
        plet(punBData.$(proxyPolicyD)).in((proxyPolicy: AnyTerm) =>
          plet(punsafeConvertType(redeemer, StateRedeemer.type)).in((r: AnyTerm) =>
            plet(r.certificates).in((certs: AnyTerm) =>
              plet(tx.signatories).in((signatories: AnyTerm) => {
                const env: StateEnv = {
                  rule,
                  tx,
                  signatories,
                  proxyPolicy,
                  pointerName: punBData.$(pointerNameD),
                  admins: punListData.$(adminsD),
                  certs,
                  certificates,
                  uint16Le,
                  isOwnBurnedState,
                };
                return passert.$(
                  (pmatch(r.purpose) as AnyTerm)
                    .onBURN_BOOTSTRAP((_: AnyTerm) => isValidBootstrapBurn(env))
                    .onBURN_STATE((_: AnyTerm) => isValidStateBurn(env))
                    .onUPDATE_STATE((_: AnyTerm) => isValidUpdate(env))
                    .onMINT_STATE((_: AnyTerm) => isValidStateMint(env))
                    .onMINT_BOOTSTRAP((_: AnyTerm) => isValidBootstrapMint(env)),
                );
              }),
            ),
          ),
        ),
      )
      .onCertifying(({ cert }: AnyTerm) => passert.$(rule("only registers the stake credential", cert.raw.index.eq(0))))
      ._((_: AnyTerm) => perror(unit)),
  );
}
