/**
 * The insert-link rule. The single list entry spent is the predecessor P (the HEAD or a node):
 * - P holds its own list token (HEAD token, or the node token of its key);
 * - P.key < key < P.next, as raw bytes (the HEAD sorts before every key, a None `next` after every key);
 * - P is re-created as a list output with at least its ADA and a datum equal to its old one except
 *   `next = Some(key)`;
 * - the new node's output is a list output; the new node must carry P's old `next` (checked by the extension,
 *   which knows the rest of the node datum, in `then`).
 * The config comes from the HEAD: the spent one when P is the HEAD (a UTxO cannot be an input and a reference
 * input of one transaction), otherwise the reference input holding the HEAD token.
 */
import { bs, data, list, pConstrToData, peqData, pif, pisEmpty, plet, pnot, punBData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { requireAll } from "../../rules";
import { inlineDatumOf } from "../../lib/inline-datum";
import { PAnyConstr } from "../../lib/constr-data";
import type { AnyTerm } from "../../lib/term";
import type { SortedList } from "./sorted-list";
import type { ListEnv, NewNode } from "./env";
import { headReferencesOf, outputsHolding } from "./list-utxos";
import { OPTION_NONE, someBytesData } from "../../lib/option";
import { withField } from "./datum-fields";

export function insertLink(lst: SortedList, env: ListEnv, pred: AnyTerm, key: AnyTerm, then: (node: NewNode) => AnyTerm): AnyTerm {
  const { rule, tx, own } = env;
  const { head, node } = lst.layout;
  return plet(inlineDatumOf(pred)).in((predDatum: AnyTerm) =>
    plet(punsafeConvertType(predDatum, PAnyConstr.type)).in((p: AnyTerm) =>
      plet(p.raw.index).in((predIndex: AnyTerm) =>
        plet(p.raw.fields).in((pf: AnyTerm) =>
          plet(predIndex.eq(head.constr)).in((predIsHead: AnyTerm) =>
            plet(
              pif(bs)
                .$(predIsHead)
                .then(lst.names.head)
                .else(lst.names.node.$(punBData.$(pf.at(node.key)))),
            ).in((predName: AnyTerm) =>
              plet(pif(data).$(predIsHead).then(pf.at(head.next)).else(pf.at(node.next))).in((oldNext: AnyTerm) =>
                plet(punsafeConvertType(oldNext, PAnyConstr.type)).in((oldNextOpt: AnyTerm) =>
                  plet(lst.names.asset(key)).in((assetName: AnyTerm) =>
                    plet(lst.names.nodeOfAsset(assetName)).in((nodeName: AnyTerm) =>
                      plet(outputsHolding(tx.outputs, own, predName)).in((predOuts: AnyTerm) =>
                        plet(outputsHolding(tx.outputs, own, nodeName)).in((nodeOuts: AnyTerm) =>
                          plet(headReferencesOf(tx, own, lst.names.head)).in((headRefs: AnyTerm) =>
                            requireAll(rule, [
                              ["key is not empty", key.length.gt(0)],
                              [
                                "predecessor is a list entry",
                                predIsHead.or(predIndex.eq(node.constr)).and(pred.value.pamountOf.$(own).$(predName).eq(1)),
                              ],
                              ["key sorts after the predecessor", predIsHead.or(punBData.$(pf.at(node.key)).lt(key))],
                              [
                                "key sorts before the predecessor's next",
                                oldNextOpt.raw.index.eq(OPTION_NONE).or(key.lt(punBData.$(oldNextOpt.raw.fields.head))),
                              ],
                              ["predecessor is re-created", pnot.$(pisEmpty.$(predOuts))],
                              ["new node output exists", pnot.$(pisEmpty.$(nodeOuts))],
                              ["HEAD is a reference input", predIsHead.or(pnot.$(pisEmpty.$(headRefs)))],
                            ]).and(
                              plet(predOuts.head).in((predOut: AnyTerm) =>
                                plet(nodeOuts.head).in((nodeOut: AnyTerm) =>
                                  plet(someBytesData(key)).in((linked: AnyTerm) =>
                                    requireAll(rule, [
                                      ["re-created predecessor is a list output", lst.isListOutput(env, predOut, predName)],
                                      ["re-created predecessor keeps its ADA", predOut.value.lovelaces.gtEq(pred.value.lovelaces)],
                                      [
                                        "re-created predecessor only links the new key",
                                        peqData.$(inlineDatumOf(predOut)).$(
                                          pConstrToData.$(predIndex).$(
                                            pif(list(data))
                                              .$(predIsHead)
                                              .then(withField(pf, head.next, linked))
                                              .else(withField(pf, node.next, linked)),
                                          ),
                                        ),
                                      ],
                                      ["new node output is a list output", lst.isListOutput(env, nodeOut, nodeName)],
                                    ]).and(
                                      plet(inlineDatumOf(nodeOut)).in((nodeDatum: AnyTerm) =>
                                        plet(
                                          pif(data)
                                            .$(predIsHead)
                                            .then(pf.at(head.config))
                                            .else(
                                              punsafeConvertType(inlineDatumOf(headRefs.head.resolved), PAnyConstr.type).raw.fields.at(
                                                head.config,
                                              ),
                                            ),
                                        ).in((config: AnyTerm) =>
                                          then({ config, name: nodeName, assetName, output: nodeOut, datum: nodeDatum, next: oldNext }),
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
    ),
  );
}
