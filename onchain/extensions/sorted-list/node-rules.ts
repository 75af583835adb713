/**
 * Rules on a list extension's HEAD config and node datums that fractionized and tokenizable share, each with the
 * extension's own fields as a parameter. Datums are rebuilt and compared whole as Data (equalsData), which also
 * pins the constructor and the arity (docs/protocol.md#plu-ts-pitfalls, 8).
 */
import { pBSToData, pConstrToData, peqData, plet, punBData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { requireAll } from "../../rules";
import { CREDENTIAL_HASH_BYTES } from "../../lib/addresses";
import { inlineDatumOf } from "../../lib/inline-datum";
import type { AnyTerm } from "../../lib/term";
import type { NewNode } from "./env";
import type { ExtensionEnv } from "./extension-rules";

type Rules = (readonly [string, AnyTerm])[];

/**
 * The config fields every list has (`Constr 0 [service_validator_hash, allowed_inserters, deployer, …]`, `arity`
 * fields in all): each a 28-byte hash. The extension adds its own fields' checks after it.
 */
export function isWellFormedListConfig(config: AnyTerm, arity: number): AnyTerm {
  return config.raw.index
    .eq(0)
    .and(config.raw.fields.length.eq(arity))
    .and(config.serviceValidatorHash.length.eq(CREDENTIAL_HASH_BYTES))
    .and(config.deployer.length.eq(CREDENTIAL_HASH_BYTES))
    .and(config.allowedInserters.every((k: AnyTerm) => punBData.$(k).length.eq(CREDENTIAL_HASH_BYTES)));
}

/**
 * A node created by Init or Insert: its whole datum equals `key`, the `next` the list hands over and the fields
 * after it as `rest(fields)` rebuilds them (list(data)); then the extension's own rules on the node (`own`).
 */
export function isValidNewNodeDatum(
  env: ExtensionEnv,
  node: NewNode,
  key: AnyTerm,
  nodeType: AnyTerm,
  rest: (fields: AnyTerm) => AnyTerm,
  own: (n: AnyTerm) => Rules,
): AnyTerm {
  const { rule, list } = env;
  return plet(punsafeConvertType(node.datum, nodeType)).in((n: AnyTerm) =>
    plet(n.raw.fields).in((f: AnyTerm) =>
      requireAll(rule, [
        [
          "new node datum is well formed",
          peqData.$(node.datum).$(pConstrToData.$(list.layout.node.constr).$(rest(f).prepend(node.next).prepend(pBSToData.$(key)))),
        ],
        ...own(n),
      ]),
    ),
  );
}

/**
 * The node a transition of one node (Claim, Redeem) re-creates: a list output holding the node token, with at least
 * the spent node's ADA, and a datum whose fields are what `fields()` builds (list(data)); the last rule is named
 * `what` ("re-created node only records the claim").
 */
export function recreatedNodeRules(
  env: ExtensionEnv,
  recreated: { readonly output: AnyTerm; readonly name: AnyTerm; readonly spent: AnyTerm },
  what: string,
  fields: () => AnyTerm,
): Rules {
  const { list } = env;
  const { output, name, spent } = recreated;
  return [
    ["re-created node is a list output", list.isListOutput(env, output, name)],
    ["re-created node keeps its ADA", output.value.lovelaces.gtEq(spent.value.lovelaces)],
    [what, peqData.$(inlineDatumOf(output)).$(pConstrToData.$(list.layout.node.constr).$(fields()))],
  ];
}
