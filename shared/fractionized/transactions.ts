/**
 * The list parts of the three transitions (docs/extensions-onchain.md#9-transactions-the-service-builds), added
 * to the anchoring certificate transaction (Init, Insert) or to a plain payment (Claim). The list script is
 * attached to the transaction (each list has its own script: the init output reference is its parameter).
 */
import type { PlutusScriptWitness } from "../csl/build-tx";
import type { OgmiosUtxo } from "../csl/utxo";
import {
  type FractionizedConfig,
  type FractionizedHead,
  type FractionizedNode,
  type FractionizedRedeemer,
  type FractionizedScript,
  dataToCborHex,
  encodeFractionizedHead,
  encodeFractionizedNode,
  encodeFractionizedRedeemer,
  fractionizedNodeTokenName,
} from "../protocol";
import { combine, keepingAda, listOutput, type ListParts } from "../sorted-list";

const witness = (script: FractionizedScript): PlutusScriptWitness => ({ language: "plutus:v3", cbor: script.code });
const redeemerHex = (r: FractionizedRedeemer): string => dataToCborHex(encodeFractionizedRedeemer(r));

export interface NewNodeTerms {
  readonly totalAmount: bigint;
  readonly claimants: readonly string[];
  readonly assetName: string;
}

function newNode(key: string, next: string | undefined, t: NewNodeTerms): FractionizedNode {
  return {
    key,
    next,
    totalAmount: t.totalAmount,
    remainingAmount: t.totalAmount,
    claimants: t.claimants,
    assetName: t.assetName,
    status: "TokensAvailable",
  };
}

export function initParts(
  script: FractionizedScript,
  initUtxo: OgmiosUtxo,
  key: string,
  config: FractionizedConfig,
  t: NewNodeTerms,
): ListParts {
  const node = fractionizedNodeTokenName(key);
  const redeemer = redeemerHex({ action: "Init", key });
  return {
    keyInputs: [initUtxo],
    mints: [{ policy: witness(script), redeemer, assets: { [script.headTokenName]: 1n, [node]: 1n } }],
    outputs: [
      listOutput(script, script.headTokenName, encodeFractionizedHead({ next: key, config })),
      listOutput(script, node, encodeFractionizedNode(newNode(key, undefined, t))),
    ],
    requiredSigners: [config.deployer],
  };
}

export type Predecessor =
  | { readonly kind: "head"; readonly utxo: OgmiosUtxo; readonly datum: FractionizedHead }
  | { readonly kind: "node"; readonly utxo: OgmiosUtxo; readonly datum: FractionizedNode; readonly head: OgmiosUtxo };

export function insertParts(
  script: FractionizedScript,
  pred: Predecessor,
  key: string,
  inserter: string,
  t: NewNodeTerms,
  coinsPerByte: bigint,
): ListParts {
  const node = fractionizedNodeTokenName(key);
  const redeemer = redeemerHex({ action: "Insert", key });
  const oldNext = pred.datum.next;
  const relinked =
    pred.kind === "head"
      ? listOutput(script, script.headTokenName, encodeFractionizedHead({ ...pred.datum, next: key }))
      : listOutput(script, fractionizedNodeTokenName(pred.datum.key), encodeFractionizedNode({ ...pred.datum, next: key }));
  return {
    scriptInputs: [{ utxo: pred.utxo, script: witness(script), redeemer }],
    referenceInputs: pred.kind === "node" ? [pred.head] : [],
    mints: [{ policy: witness(script), redeemer, assets: { [node]: 1n } }],
    outputs: [keepingAda(relinked, pred.utxo, coinsPerByte), listOutput(script, node, encodeFractionizedNode(newNode(key, oldNext, t)))],
    requiredSigners: [inserter],
  };
}

export function claimParts(
  script: FractionizedScript,
  node: { utxo: OgmiosUtxo; datum: FractionizedNode },
  claimer: string,
  claimerAddress: string,
  amount: bigint,
  coinsPerByte: bigint,
): ListParts {
  const d = node.datum;
  const redeemer = redeemerHex({ action: "Claim", key: d.key, claimer, amount });
  const left = d.remainingAmount - amount;
  const recreated: FractionizedNode = { ...d, remainingAmount: left, status: left === 0n ? "TokensExhausted" : "TokensAvailable" };
  return {
    scriptInputs: [{ utxo: node.utxo, script: witness(script), redeemer }],
    mints: [{ policy: witness(script), redeemer, assets: { [d.assetName]: amount } }],
    outputs: [
      keepingAda(listOutput(script, fractionizedNodeTokenName(d.key), encodeFractionizedNode(recreated)), node.utxo, coinsPerByte),
      // the claimed tokens in their own output: the validator wants one output holding exactly `amount`
      { address: claimerAddress, assets: { [script.policyId]: { [d.assetName]: amount } } },
    ],
    requiredSigners: [claimer],
  };
}

export { combine, type ListParts };
