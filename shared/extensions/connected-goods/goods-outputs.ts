/**
 * The batch and hub outputs a build spends, as they are now: the newest output a submitted, unconfirmed transaction
 * created (the in-flight registry knows it, so claims of one batch chain within a block), else the one the indexer
 * confirmed, checked against the chain (the indexer may be a block behind).
 */
import type { OgmiosUtxo } from "../../csl/utxo";
import { refuse } from "../../issuance/for-extensions";
import { dataFromCborHex } from "../../protocol";
import { decodeBatchDatum, type BatchDatum } from "./batch-datum";
import { ConnectedGoodsError } from "./errors";
import type { HubFact } from "./goods-decoder";
import type { GoodsEnv } from "./goods-env";
import type { HubKey, PlainProfile } from "./hub-profile";
import { KDF_PARALLEL } from "./kdf";

export interface BatchAt {
  utxo: OgmiosUtxo;
  datum: BatchDatum;
  /** the datum the indexer confirmed (differs from `datum` when claims are pending) */
  confirmed: BatchDatum;
}

/** The batch's newest output: a pending claim's, else the confirmed one. @throws UNKNOWN_BATCH, BuildRefusal */
export async function batchAt(env: GoodsEnv, batchId: string): Promise<BatchAt> {
  const fact = await env.source.batch(batchId);
  const pending = await env.issuance.registry.pendingOutputWith(env.scripts.connectedGoods.policyId, batchId);
  if (!fact && !pending) {
    throw new ConnectedGoodsError("UNKNOWN_BATCH", `no open batch ${batchId} is known (not minted, not confirmed yet, or closed)`, {
      batch_id: batchId,
    });
  }
  const confirmed: BatchDatum | undefined = fact ? { ...fact, items: fact.items } : undefined;
  if (pending?.datum) {
    const datum = decodeBatchDatum(dataFromCborHex(pending.datum));
    // a pending mint is not indexed yet: the indexer's rule (this deployment's hub policy only) applies here too
    if (datum.hubPolicy !== env.scripts.socialHub.policyId) {
      throw new ConnectedGoodsError("UNKNOWN_BATCH", `batch ${batchId} does not belong to this deployment`, { batch_id: batchId });
    }
    return { utxo: pending, datum, confirmed: confirmed ?? datum };
  }
  const [utxo] = (await env.issuance.chain.utxosByOutputReferences([fact!.outRef])) as OgmiosUtxo[];
  if (!utxo) refuse("PENDING_TRANSACTION", "The batch output was just spent by another transaction; retry in a few seconds.");
  return { utxo, datum: confirmed!, confirmed: confirmed! };
}

/** The hub's newest output: a pending update's, else the confirmed one. */
export async function hubUtxo(env: GoodsEnv, hub: HubFact): Promise<OgmiosUtxo> {
  const pending = await env.issuance.registry.pendingOutputWith(env.scripts.socialHub.policyId, hub.hubName);
  if (pending) return pending;
  const [utxo] = (await env.issuance.chain.utxosByOutputReferences([hub.outRef])) as OgmiosUtxo[];
  if (!utxo) refuse("PENDING_TRANSACTION", "The social hub output was just spent by another transaction; retry in a few seconds.");
  return utxo;
}

/** The confirmed hub of `batchId` whose profile opens under `key`, with the profile. */
export async function hubOpenedBy(
  env: GoodsEnv,
  batchId: string,
  key: HubKey,
): Promise<{ hub: HubFact; profile: PlainProfile } | undefined> {
  return hubOpenedIn(await env.source.hubs(batchId), key);
}

/** The hub among `hubs` whose profile opens under `key`, with the profile. */
export function hubOpenedIn(hubs: readonly HubFact[], key: HubKey): { hub: HubFact; profile: PlainProfile } | undefined {
  for (const hub of hubs) {
    const profile = key.openProfile(hub.itemName, hub.profile);
    if (profile) return { hub, profile };
  }
  return undefined;
}

export async function firstMatching<T>(candidates: readonly T[], test: (c: T) => Promise<boolean>): Promise<T | undefined> {
  for (let i = 0; i < candidates.length; i += KDF_PARALLEL) {
    const chunk = candidates.slice(i, i + KDF_PARALLEL);
    const hits = await Promise.all(chunk.map(test));
    const at = hits.indexOf(true);
    if (at >= 0) return chunk[at];
  }
  return undefined;
}
