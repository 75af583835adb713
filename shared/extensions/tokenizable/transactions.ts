/**
 * The list parts of the tokenizable transitions (docs/extensions-onchain.md), added to the anchoring certificate
 * transaction (Init, Insert) or to a plain payment (Redeem). The list script is attached to the transaction (each
 * list has its own script: the init output reference is its parameter).
 */
import type { OutputSpec } from "../../csl/outputs";
import type { OgmiosUtxo } from "../../csl/utxo";
import { dataToCborHex } from "../../protocol";
import { type Cip68Metadata, encodeCip68Datum } from "./cip68";
import { type MetadataScript, type TokenizableScript, redeemedTokens, tokenizableNodeTokenName } from "./scripts";
import { type TokenizableConfig, type TokenizableHead, type TokenizableNode, encodeTokenizableHead, encodeTokenizableNode } from "./datum";
import { type TokenizableRedeemer, encodeTokenizableRedeemer } from "./redeemer";
import { nodeAssetName } from "../list-kit/list-tokens";
import {
  keepingAda,
  listIssueParts,
  listOutput,
  listScriptWitness,
  type ListCodec,
  type ListParts,
  type ListPredecessor,
} from "../list-kit/transaction-parts";

const redeemerHex = (r: TokenizableRedeemer): string => dataToCborHex(encodeTokenizableRedeemer(r));

export interface NewNodeTerms {
  readonly owner: string;
  readonly assetName: string;
}

const newNode = (key: string, next: string | undefined, t: NewNodeTerms): TokenizableNode => ({
  key,
  next,
  owner: t.owner,
  assetName: t.assetName,
  status: "Available",
});

const codec: ListCodec<TokenizableHead, TokenizableNode> = {
  nodeTokenName: tokenizableNodeTokenName,
  encodeHead: encodeTokenizableHead,
  encodeNode: encodeTokenizableNode,
  redeemer: (action, key) => redeemerHex({ action, key }),
};

export const { initParts, insertParts } = listIssueParts(codec, newNode);

export type Predecessor = ListPredecessor<TokenizableHead, TokenizableNode>;

/**
 * Redeem: the node re-created as Redeemed; the plain token (or the CIP-68 user token) to the owner's address,
 * and in CIP-68 mode the reference token with its metadata datum to the metadata script.
 */
export function redeemParts(
  script: TokenizableScript,
  node: { utxo: OgmiosUtxo; datum: TokenizableNode },
  head: { utxo: OgmiosUtxo; config: TokenizableConfig },
  ownerAddress: string,
  metadata: { script: MetadataScript; datum: Cip68Metadata } | undefined,
  coinsPerByte: bigint,
): ListParts {
  const d = node.datum;
  const redeemer = redeemerHex({ action: "Redeem", key: d.key });
  // named after the key, as the validator mints them (the node's asset_name holds the same name)
  const tokens = redeemedTokens(head.config, nodeAssetName(d.key));
  const outputs: OutputSpec[] = [
    keepingAda(
      listOutput(script, tokenizableNodeTokenName(d.key), encodeTokenizableNode({ ...d, status: "Redeemed" })),
      node.utxo,
      coinsPerByte,
    ),
  ];
  const userName = tokens.mode === "plain" ? tokens.token : tokens.user;
  outputs.push({ address: ownerAddress, assets: { [script.policyId]: { [userName]: 1n } } });
  if (tokens.mode === "cip68") {
    if (!metadata) throw new Error("a CIP-68 list needs the metadata of the reference token");
    outputs.push({
      address: metadata.script.address,
      assets: { [script.policyId]: { [tokens.reference]: 1n } },
      inlineDatum: dataToCborHex(encodeCip68Datum(metadata.datum)),
    });
  }
  return {
    scriptInputs: [{ utxo: node.utxo, script: listScriptWitness(script), redeemer }],
    referenceInputs: [head.utxo],
    mints: [
      {
        policy: listScriptWitness(script),
        redeemer,
        assets: tokens.mode === "plain" ? { [tokens.token]: 1n } : { [tokens.user]: 1n, [tokens.reference]: 1n },
      },
    ],
    outputs,
    requiredSigners: [d.owner],
  };
}
