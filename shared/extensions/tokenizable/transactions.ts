/**
 * The list parts of the tokenizable transitions (docs/extensions-onchain.md), added to the anchoring certificate
 * transaction (Init, Insert) or to a payment (Redeem). The list script is attached to the transaction (each list has
 * its own script: the init output reference is its parameter).
 */
import type { OutputSpec } from "../../csl/outputs";
import type { OgmiosUtxo } from "../../csl/utxo";
import type { ExtraParts } from "../../issuance/for-extensions";
import { dataToCborHex } from "../../protocol";
import { nodeAssetName } from "../list-kit/list-tokens";
import { listIssueParts, nodeTransitionParts } from "../list-kit/transaction-parts";
import { type Cip68Metadata, encodeCip68Datum } from "./cip68";
import type { TokenizableConfig, TokenizableNode } from "./datum";
import { TOKENIZABLE } from "./extension";
import { encodeTokenizableRedeemer } from "./redeemer";
import { type MetadataScript, type TokenizableScript, redeemedTokens } from "./scripts";

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

export const { initParts, insertParts } = listIssueParts(TOKENIZABLE.codec, newNode);

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
): ExtraParts {
  const d = node.datum;
  // named after the key, as the validator mints them (the node's asset_name holds the same name)
  const tokens = redeemedTokens(head.config, nodeAssetName(d.key));
  const userName = tokens.mode === "plain" ? tokens.token : tokens.user;
  const outputs: OutputSpec[] = [{ address: ownerAddress, assets: { [script.policyId]: { [userName]: 1n } } }];
  if (tokens.mode === "cip68") {
    if (!metadata) throw new Error("a CIP-68 list needs the metadata of the reference token");
    outputs.push({
      address: metadata.script.address,
      assets: { [script.policyId]: { [tokens.reference]: 1n } },
      inlineDatum: dataToCborHex(encodeCip68Datum(metadata.datum)),
    });
  }
  return nodeTransitionParts(
    TOKENIZABLE.codec,
    script,
    { utxo: node.utxo, recreated: { ...d, status: "Redeemed" } },
    {
      redeemer: dataToCborHex(encodeTokenizableRedeemer({ action: "Redeem", key: d.key })),
      minted: tokens.mode === "plain" ? { [tokens.token]: 1n } : { [tokens.user]: 1n, [tokens.reference]: 1n },
      outputs,
      referenceInputs: [head.utxo],
      signer: d.owner,
    },
    coinsPerByte,
  );
}
