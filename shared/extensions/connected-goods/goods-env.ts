/**
 * What every connected-goods build and read works with: the issuance machinery, the indexer's confirmed batches and
 * hubs, the deployment's two scripts (both travel inline in the transactions) and the hub keys.
 */
import { type IssuanceEnv } from "../../issuance/for-extensions";
import type { NetworkId } from "../../protocol";
import type { BatchFact, HubFact } from "./goods-decoder";
import type { ConnectedGoodsScripts } from "./goods-scripts";
import type { HubKeys } from "./hub-profile";
import { KdfAllowance } from "./kdf-budget";

/** What the indexer confirmed (indexer.goodsBatch / goodsHubs). */
export interface GoodsSource {
  batch(batchId: string): Promise<BatchFact | null>;
  hubs(batchId: string): Promise<HubFact[]>;
}

export interface GoodsEnv {
  issuance: IssuanceEnv;
  source: GoodsSource;
  scripts: ConnectedGoodsScripts;
  hubKeys: HubKeys;
  networkId: NetworkId;
}

export type Body = Record<string, unknown>;

/** Derivations for a caller with no budget and no request to lose (scripts, benchmarks, tests of the functions). */
export const unmetered = (): KdfAllowance => new KdfAllowance(undefined, "local");

/** Placeholder of a 28-byte key hash, for the draft build before the keys are derived (same size on chain). */
export const STAND_IN_KEY_HASH = "00".repeat(28);

export const goodsScript = (env: GoodsEnv) => ({ language: "plutus:v3" as const, cbor: env.scripts.connectedGoods.code });
export const hubScript = (env: GoodsEnv) => ({ language: "plutus:v3" as const, cbor: env.scripts.socialHub.code });
