/**
 * Tokenizable-certificate validator: one Plutus V3 script for mint and spend, parameterised by the one-shot
 * init out-ref (Data). Its hash is the policy of the list's tokens (HEAD "TCN", nodes `TCN ‖ blake2b_224(key)`,
 * and each node's redeemed token: `asset_name`, or the CIP-68 pair `(222)asset_name` / `(100)asset_name`) and
 * the payment credential of the address holding the HEAD and the nodes. The mint handler validates every
 * transition (Init, Insert, Redeem); the spend handler defers to it (sorted-list/defer-to-mint.ts).
 * The datums, the rules and the metadata script are described in docs/extensions-onchain.md.
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
import { TOKENIZABLE_LAYOUT, TokenizableRedeemer } from "./tokenizable/types";
import type { TokenizableEnv } from "./tokenizable/env";
import { configOf, isWellFormedConfig } from "./tokenizable/config";
import { isValidNewNode } from "./tokenizable/new-node";
import { isValidRedeem } from "./tokenizable/redeem";
import type { AnyTerm } from "./lib/term";
import { withTxView, type TxView } from "./lib/tx-view";

export function makeTokenizableValidator(opts: BuildOptions): AnyTerm {
  const rule = makeRule(opts);
  const list = makeSortedList(TOKENIZABLE_LAYOUT);

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
                  const env: TokenizableEnv = { rule, tx, own, listAddress, list, signatories: tx.signatories, minted };
                  const issue: ExtensionIssueRules = {
                    configOf,
                    isWellFormedConfig,
                    isValidNewNode: (node, key, config) => isValidNewNode(env, node, key, config),
                  };
                  return passert.$(
                    (pmatch(punsafeConvertType(r, TokenizableRedeemer.type)) as AnyTerm)
                      .onInit(({ key }: AnyTerm) => isValidListInit(env, issue, punsafeConvertType(initRefD, PTxOutRef.type), key))
                      .onInsert(({ key }: AnyTerm) => isValidListInsert(env, issue, key))
                      .onRedeem(({ key }: AnyTerm) => isValidRedeem(env, key)),
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
