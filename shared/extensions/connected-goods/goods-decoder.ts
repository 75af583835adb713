/**
 * Decodes connected-goods transactions (Ogmios chain-sync JSON) into facts of the indexer's log
 * (docs/connected-goods.md#indexer):
 * - `goods.batch`: an output at the connected_goods address (any stake part) holding one batch token, with its
 *   datum. Only the validator can mint a batch token or recreate its output, so the datum is trustworthy; a batch
 *   naming another hub policy than this deployment's is not ours and is skipped;
 * - `goods.batch.closed`: a batch token burned (Close);
 * - `goods.hub`: an output at the social_hub address holding one hub token, with its (still encrypted) datum.
 * The latest fact per batch id / hub token is the current state (keys `batch:<batch id>`, `hub:<hub token name>`),
 * so a rollback needs no undo: the indexer deletes the facts after the rollback point and the previous output is
 * current again. The indexer gets this decoder from the extension registry, through its service.
 */
import type { Transaction, TransactionOutput } from "@cardano-ogmios/schema";
import { paymentCredentialOf } from "../../csl/address";
import type { OutRef } from "../../domain/out-ref";
import type { ExtensionFact, FactDecoder } from "../../indexer/protocol-decoder";
import { dataFromCborHex, type NetworkId } from "../../protocol";
import { loadBlueprint } from "../../protocol/blueprint";
import { type BatchItem, decodeBatchDatum } from "./batch-datum";
import type { ProfileField } from "./profile-fields";
import { decodeSocialHubDatum } from "./social-hub-datum";
import { deriveConnectedGoodsScripts } from "./goods-scripts";
import { hubTokenNameOf } from "./goods-token-names";

/** The two policies of the deployment (each script is its own policy and address). */
export interface GoodsView {
  /** connected_goods script hash */
  goodsPolicy: string;
  /** social_hub script hash */
  hubPolicy: string;
}

export interface BatchFact {
  type: "goods.batch";
  batchId: string;
  issuer: string;
  hubPolicy: string;
  items: BatchItem[];
  outRef: OutRef;
  address: string;
  lovelace: string;
}

export interface HubFact {
  type: "goods.hub";
  /** the hub token's name: sha2_256(batch_id ‖ item name) */
  hubName: string;
  owner: string;
  batchId: string;
  itemName: string;
  /** set fields only, ciphertext hex */
  profile: Partial<Record<ProfileField, string>>;
  outRef: OutRef;
  address: string;
  lovelace: string;
}

export type GoodsFact = BatchFact | { type: "goods.batch.closed"; batchId: string } | HubFact;

declare module "../../indexer/protocol-decoder" {
  interface ExtensionFacts {
    "connected-goods": GoodsFact;
  }
}

type Assets = Record<string, Record<string, bigint>>;

const assetsUnder = (out: TransactionOutput, policy: string): Record<string, bigint> => (out.value as unknown as Assets)[policy] ?? {};

function atScript(address: string, hash: string): boolean {
  try {
    const cred = paymentCredentialOf(address);
    return cred?.kind === "script" && cred.hash === hash;
  } catch {
    return false; // a Byron address
  }
}

/** The goods facts of one transaction, and what could not be decoded. */
export function decodeGoodsTransaction(tx: Transaction, view: GoodsView): { facts: GoodsFact[]; errors: string[] } {
  const facts: GoodsFact[] = [];
  const errors: string[] = [];
  if (tx.spends === "collaterals") return { facts, errors };
  tx.outputs.forEach((o, index) => {
    try {
      const batchTokens = Object.entries(assetsUnder(o, view.goodsPolicy)).filter(([, q]) => BigInt(q) === 1n);
      if (batchTokens.length === 1 && atScript(o.address, view.goodsPolicy) && o.datum) {
        const d = decodeBatchDatum(dataFromCborHex(String(o.datum)));
        if (d.batchId === batchTokens[0]![0] && d.hubPolicy === view.hubPolicy) {
          facts.push({
            type: "goods.batch",
            batchId: d.batchId,
            issuer: d.issuer,
            hubPolicy: d.hubPolicy,
            items: d.items.map((i) => ({ tokenName: i.tokenName, itemKeyHash: i.itemKeyHash })),
            outRef: { txHash: tx.id, index },
            address: o.address,
            lovelace: o.value.ada.lovelace.toString(),
          });
        }
      }
      const hubTokens = Object.entries(assetsUnder(o, view.hubPolicy)).filter(([, q]) => BigInt(q) === 1n);
      if (hubTokens.length === 1 && atScript(o.address, view.hubPolicy) && o.datum) {
        const d = decodeSocialHubDatum(dataFromCborHex(String(o.datum)));
        const hubName = hubTokens[0]![0];
        if (hubTokenNameOf(d.batchId, d.itemName) === hubName) {
          facts.push({
            type: "goods.hub",
            hubName,
            owner: d.owner,
            batchId: d.batchId,
            itemName: d.itemName,
            profile: { ...d.profile },
            outRef: { txHash: tx.id, index },
            address: o.address,
            lovelace: o.value.ada.lovelace.toString(),
          });
        }
      }
    } catch (err) {
      errors.push(`${tx.id}#${index}: connected-goods output: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  const burned = (tx.mint as Assets | undefined)?.[view.goodsPolicy] ?? {};
  for (const [batchId, q] of Object.entries(burned)) if (BigInt(q) < 0n) facts.push({ type: "goods.batch.closed", batchId });
  return { facts, errors };
}

const isGoodsFact = (fact: ExtensionFact): fact is GoodsFact =>
  fact.type === "goods.batch" || fact.type === "goods.batch.closed" || fact.type === "goods.hub";

/** The decoder of one deployment's scripts, for the indexer. */
export function goodsFactDecoder(view: GoodsView): FactDecoder {
  return {
    scriptHashes: [view.goodsPolicy, view.hubPolicy],
    decode: (tx) => decodeGoodsTransaction(tx, view),
    keyOf: (fact) => (!isGoodsFact(fact) ? null : fact.type === "goods.hub" ? `hub:${fact.hubName}` : `batch:${fact.batchId}`),
  };
}

/** The decoder of the blueprint's scripts: connected_goods takes no parameter, so its batches are the same whatever the deployment. */
export function goodsFactDecoderOf(networkId: NetworkId): FactDecoder {
  const scripts = deriveConnectedGoodsScripts(loadBlueprint(), networkId);
  return goodsFactDecoder({ goodsPolicy: scripts.connectedGoods.hash, hubPolicy: scripts.socialHub.hash });
}
