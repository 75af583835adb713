/**
 * Fractionized-certificate validator: one Plutus V3 script for mint and spend, parameterised by the one-shot
 * init out-ref (Data). Its hash is the policy of the list's tokens (HEAD "FRN", nodes `FRN ‖ blake2b_224(key)`,
 * and each node's fungible asset) and the payment credential of the address holding the HEAD and the nodes.
 * The mint handler validates every transition (Init, Insert, Claim); the spend handler defers to it.
 * The datums, the rules and the sorted-list contract are described in docs/extensions-onchain.md.
 */
import { data, passert, perror, pfn, plet, pmatch, PScriptContext, PTxOutRef, punsafeConvertType, unit } from "@harmoniclabs/plu-ts";
import { makeRule, type BuildOptions } from "./rules";
import {
  isValidListInit,
  isValidListInsert,
  isValidListSpend,
  listAddressData,
  makeSortedList,
  type ExtensionIssueRules,
} from "./sorted-list";
import { FRACTIONIZED_LAYOUT, FractionizedRedeemer } from "./fractionized/types";
import type { FractionizedEnv } from "./fractionized/env";
import { configOf, isWellFormedConfig } from "./fractionized/config";
import { isValidNewNode } from "./fractionized/new-node";
import { isValidClaim } from "./fractionized/claim";
import type { AnyTerm } from "./lib/term";
import { withTxView, type TxView } from "./lib/tx-view";

export function makeFractionizedValidator(opts: BuildOptions): AnyTerm {
  const rule = makeRule(opts);
  const list = makeSortedList(FRACTIONIZED_LAYOUT);

  return pfn(
    [data, PScriptContext.type],
    unit,
  )((initRefD: AnyTerm, { tx: txInfo, redeemer, purpose }: AnyTerm) =>
    plet(redeemer).in((r: AnyTerm) =>
      withTxView(txInfo, (tx: TxView) =>
        (pmatch(purpose) as AnyTerm)
          .onMinting(({ currencySym }: AnyTerm) =>
            plet(currencySym).in((own: AnyTerm) =>
              plet(tx.mint.filter((e: AnyTerm) => e.fst.eq(own)).head.snd).in((minted: AnyTerm) =>
                plet(listAddressData(own)).in((listAddress: AnyTerm) => {
                  const env: FractionizedEnv = { rule, tx, own, listAddress, list, signatories: tx.signatories, minted };
                  const issue: ExtensionIssueRules = {
                    configOf,
                    isWellFormedConfig,
                    isValidNewNode: (node, key) => isValidNewNode(env, node, key),
                  };
                  return passert.$(
                    (pmatch(punsafeConvertType(r, FractionizedRedeemer.type)) as AnyTerm)
                      .onInit(({ key }: AnyTerm) => isValidListInit(env, issue, punsafeConvertType(initRefD, PTxOutRef.type), key))
                      .onInsert(({ key }: AnyTerm) => isValidListInsert(env, issue, key))
                      .onClaim(({ key, claimer, amount }: AnyTerm) => isValidClaim(env, key, claimer, amount)),
                  );
                }),
              ),
            ),
          )
          .onSpending(({ utxoRef }: AnyTerm) => passert.$(isValidListSpend(rule, tx, utxoRef, r)))
          ._((_: AnyTerm) => perror(unit)),
      ),
    ),
  );
}
