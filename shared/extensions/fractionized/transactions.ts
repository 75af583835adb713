/**
 * The list parts of the three transitions (docs/extensions-onchain.md#9-transactions-the-service-builds), added
 * to the anchoring certificate transaction (Init, Insert) or to a payment (Claim). The list script is attached to
 * the transaction (each list has its own script: the init output reference is its parameter).
 */
import type { OgmiosUtxo } from "../../csl/utxo";
import type { ExtraParts } from "../../issuance/for-extensions";
import { dataToCborHex } from "../../protocol";
import { nodeAssetName } from "../list-kit/list-tokens";
import { listIssueParts, nodeTransitionParts } from "../list-kit/transaction-parts";
import type { FractionizedNode } from "./datum";
import { FRACTIONIZED } from "./extension";
import { encodeFractionizedRedeemer } from "./redeemer";
import type { FractionizedScript } from "./scripts";

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

export const { initParts, insertParts } = listIssueParts(FRACTIONIZED.codec, newNode);

/** Claim: the node re-created with `amount` less remaining; `amount` tokens minted to the claimer, who signs. */
export function claimParts(
  script: FractionizedScript,
  node: { utxo: OgmiosUtxo; datum: FractionizedNode },
  claimer: string,
  claimerAddress: string,
  amount: bigint,
  coinsPerByte: bigint,
): ExtraParts {
  const d = node.datum;
  // named after the key, as the validator mints them (the node's asset_name holds the same name)
  const asset = nodeAssetName(d.key);
  const left = d.remainingAmount - amount;
  return nodeTransitionParts(
    FRACTIONIZED.codec,
    script,
    { utxo: node.utxo, recreated: { ...d, remainingAmount: left, status: left === 0n ? "TokensExhausted" : "TokensAvailable" } },
    {
      redeemer: dataToCborHex(encodeFractionizedRedeemer({ action: "Claim", key: d.key, claimer, amount })),
      minted: { [asset]: amount },
      // the claimed tokens in their own output: the validator wants one output holding exactly `amount`
      outputs: [{ address: claimerAddress, assets: { [script.policyId]: { [asset]: amount } } }],
      signer: claimer,
    },
    coinsPerByte,
  );
}
