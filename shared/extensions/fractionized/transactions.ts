/**
 * The list parts of the three transitions (docs/extensions-onchain.md#9-transactions-the-service-builds), added
 * to the anchoring certificate transaction (Init, Insert) or to a plain payment (Claim). The list script is
 * attached to the transaction (each list has its own script: the init output reference is its parameter).
 */
import type { OgmiosUtxo } from "../../csl/utxo";
import { dataToCborHex } from "../../protocol";
import { type FractionizedHead, type FractionizedNode, encodeFractionizedHead, encodeFractionizedNode } from "./datum";
import { type FractionizedRedeemer, encodeFractionizedRedeemer } from "./redeemer";
import { type FractionizedScript, fractionizedNodeTokenName } from "./scripts";
import { nodeAssetName } from "../list-kit/list-tokens";
import {
  combine,
  keepingAda,
  listIssueParts,
  listOutput,
  listScriptWitness,
  type ListCodec,
  type ListParts,
  type ListPredecessor,
} from "../list-kit/transaction-parts";

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

const codec: ListCodec<FractionizedHead, FractionizedNode> = {
  nodeTokenName: fractionizedNodeTokenName,
  encodeHead: encodeFractionizedHead,
  encodeNode: encodeFractionizedNode,
  redeemer: (action, key) => redeemerHex({ action, key }),
};

export const { initParts, insertParts } = listIssueParts(codec, newNode);

export type Predecessor = ListPredecessor<FractionizedHead, FractionizedNode>;

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
  // named after the key, as the validator mints them (the node's asset_name holds the same name)
  const asset = nodeAssetName(d.key);
  const left = d.remainingAmount - amount;
  const recreated: FractionizedNode = { ...d, remainingAmount: left, status: left === 0n ? "TokensExhausted" : "TokensAvailable" };
  return {
    scriptInputs: [{ utxo: node.utxo, script: listScriptWitness(script), redeemer }],
    mints: [{ policy: listScriptWitness(script), redeemer, assets: { [asset]: amount } }],
    outputs: [
      keepingAda(listOutput(script, fractionizedNodeTokenName(d.key), encodeFractionizedNode(recreated)), node.utxo, coinsPerByte),
      // the claimed tokens in their own output: the validator wants one output holding exactly `amount`
      { address: claimerAddress, assets: { [script.policyId]: { [asset]: amount } } },
    ],
    requiredSigners: [claimer],
  };
}

export { combine, type ListParts };
