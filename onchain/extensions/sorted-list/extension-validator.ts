/**
 * The validator of a list extension (fractionized, tokenizable): one Plutus V3 script for mint and spend,
 * parameterised by the one-shot init out-ref (Data). The mint handler validates every transition — Init and Insert
 * through the shared rules (extension-rules.ts) with the extension's own, and the extension's third transition
 * (Claim, Redeem) — and the spend handler defers to it (defer-to-mint.ts).
 */
import { data, passert, perror, pfn, plet, pmatch, PScriptContext, PTxOutRef, punsafeConvertType, unit } from "@harmoniclabs/plu-ts";
import { makeRule, type BuildOptions } from "../../rules";
import type { AnyTerm } from "../../lib/term";
import { withTxView, type TxView } from "../../lib/tx-view";
import { isValidListSpend } from "./defer-to-mint";
import { isValidListInit, isValidListInsert, type ExtensionEnv, type ExtensionIssueRules } from "./extension-rules";
import { makeSortedList } from "./sorted-list";
import type { SortedListLayout } from "./layout";
import { listAddressData } from "./list-utxos";

export interface ListExtensionValidator {
  readonly layout: SortedListLayout;
  /** the plu-ts type of the redeemer: constructors Init{key}, Insert{key}, then the extension's own */
  readonly redeemerType: AnyTerm;
  /** the extension's part of the Init and Insert rules */
  issueRules(env: ExtensionEnv): ExtensionIssueRules;
  /** adds the extension's own transition to the redeemer match (after onInit and onInsert) */
  onOwnTransition(match: AnyTerm, env: ExtensionEnv): AnyTerm;
}

export function makeListExtensionValidator(opts: BuildOptions, ext: ListExtensionValidator): AnyTerm {
  const rule = makeRule(opts);
  const list = makeSortedList(ext.layout);

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
                  const env: ExtensionEnv = { rule, tx, own, listAddress, list, signatories: tx.signatories, minted };
                  const issue = ext.issueRules(env);
                  return passert.$(
                    ext.onOwnTransition(
                      (pmatch(punsafeConvertType(r, ext.redeemerType) as AnyTerm) as AnyTerm)
                        .onInit(({ key }: AnyTerm) => isValidListInit(env, issue, punsafeConvertType(initRefD, PTxOutRef.type), key))
                        .onInsert(({ key }: AnyTerm) => isValidListInsert(env, issue, key)),
                      env,
                    ),
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
