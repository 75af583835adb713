/**
 * Social-hub validator: one V3 script that is both the hub policy (mint) and the hub address (spend).
 * Parameter: the connected-goods script hash, so hubs can only be minted by claiming an item of a batch. Mint:
 * the claim of a hub (claim-hub.ts). Spend: Update and Transfer by the hub's owner. Handlers are closed, hoisted
 * functions, as in connected-goods.ts.
 */
import { data, passert, perror, pfn, plet, pmatch, PScriptContext, punBData, punsafeConvertType, unit } from "@harmoniclabs/plu-ts";
import { HubSpendRedeemer } from "./connected-goods/types";
import { makeRule, type BuildOptions } from "../rules";
import { makeIsValidProfileField } from "./social-hub/profile";
import { makeHubClaim } from "./social-hub/claim-hub";
import { makeHubUpdate } from "./social-hub/update-hub";
import { makeHubTransfer } from "./social-hub/transfer-hub";
import type { HubBuild } from "./social-hub/env";
import type { AnyTerm } from "../lib/term";

export function makeSocialHubValidator(opts: BuildOptions): AnyTerm {
  const build: HubBuild = { rule: makeRule(opts), isValidProfileField: makeIsValidProfileField() };
  const claimHub = makeHubClaim(build);
  const updateHub = makeHubUpdate(build);
  const transferHub = makeHubTransfer(build);

  return pfn(
    [data, PScriptContext.type],
    unit,
  )((goodsD: AnyTerm, { tx, redeemer, purpose }: AnyTerm) =>
    (pmatch(purpose) as AnyTerm)
      .onMinting(({ currencySym }: AnyTerm) => passert.$(claimHub.$(tx).$(currencySym).$(punBData.$(goodsD))))
      .onSpending(({ utxoRef }: AnyTerm) =>
        plet(tx.inputs.filter((i: AnyTerm) => i.utxoRef.eq(utxoRef)).head.resolved).in((spent: AnyTerm) =>
          plet(spent.address.credential.hash).in((own: AnyTerm) =>
            passert.$(
              (pmatch(punsafeConvertType(redeemer, HubSpendRedeemer.type)) as AnyTerm)
                .onUpdate((_: AnyTerm) => updateHub.$(tx).$(spent).$(own))
                .onTransfer(({ newOwner }: AnyTerm) => transferHub.$(tx).$(spent).$(own).$(newOwner)),
            ),
          ),
        ),
      )
      ._((_: AnyTerm) => perror(unit)),
  );
}
