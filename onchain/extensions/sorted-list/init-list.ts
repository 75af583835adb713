/**
 * Creating a list (Init): the one-shot init output is spent, no list entry is spent, and the transaction creates
 * the HEAD, linking to `key`, and the first node, whose `next` is None. The config is read from the HEAD output;
 * the extension checks the config, the mint and the rest of the node datum in `then`.
 */
import { pConstrToData, peqData, pisEmpty, plet, pnot, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { requireAll } from "../../rules";
import { inlineDatumOf } from "../../lib/inline-datum";
import { PAnyConstr } from "../../lib/constr-data";
import type { AnyTerm } from "../../lib/term";
import type { SortedList } from "./sorted-list";
import type { ListEnv, NewNode } from "./env";
import { listInputsOf, outputsHolding } from "./list-utxos";
import { noneData, someBytesData } from "../../lib/option";
import { withField } from "./datum-fields";

export function initList(list: SortedList, env: ListEnv, initRef: AnyTerm, key: AnyTerm, then: (node: NewNode) => AnyTerm): AnyTerm {
  const { rule, tx, own } = env;
  const head = list.layout.head;
  return plet(list.names.asset(key)).in((assetName: AnyTerm) =>
    plet(list.names.nodeOfAsset(assetName)).in((nodeName: AnyTerm) =>
      plet(outputsHolding(tx.outputs, own, list.names.head)).in((headOuts: AnyTerm) =>
        plet(outputsHolding(tx.outputs, own, nodeName)).in((nodeOuts: AnyTerm) =>
          requireAll(rule, [
            ["key is not empty", key.length.gt(0)],
            ["init output is spent", tx.inputs.some((i: AnyTerm) => i.utxoRef.eq(initRef))],
            ["no list entry is spent", pisEmpty.$(listInputsOf(tx, own))],
            ["HEAD output exists", pnot.$(pisEmpty.$(headOuts))],
            ["new node output exists", pnot.$(pisEmpty.$(nodeOuts))],
          ]).and(
            plet(headOuts.head).in((headOut: AnyTerm) =>
              plet(nodeOuts.head).in((nodeOut: AnyTerm) =>
                plet(inlineDatumOf(headOut)).in((headDatum: AnyTerm) =>
                  plet(punsafeConvertType(headDatum, PAnyConstr.type).raw.fields).in((hf: AnyTerm) =>
                    requireAll(rule, [
                      ["HEAD output is a list output", list.isListOutput(env, headOut, list.names.head)],
                      [
                        "HEAD links the first key",
                        hf.length
                          .eq(head.arity)
                          .and(peqData.$(headDatum).$(pConstrToData.$(head.constr).$(withField(hf, head.next, someBytesData(key))))),
                      ],
                      ["new node output is a list output", list.isListOutput(env, nodeOut, nodeName)],
                    ]).and(
                      plet(inlineDatumOf(nodeOut)).in((nodeDatum: AnyTerm) =>
                        then({
                          config: hf.at(head.config),
                          name: nodeName,
                          assetName,
                          output: nodeOut,
                          datum: nodeDatum,
                          next: noneData(),
                        }),
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
