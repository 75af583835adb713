/**
 * The protocol outputs a certificate build references, from the indexer's facts checked against the chain in one
 * query (the indexer may lag a block): the proxy pointer, the library's reference scripts of proxy and state,
 * and any further outputs the caller names (a bootstrap, a state).
 */
import { utxoKey, type OgmiosUtxo } from "../csl/utxo";
import { outRefKey, type OutRef } from "../domain/out-ref";
import { rewardAddressOf } from "../protocol";
import { refuse } from "./build-outcome";
import type { Deployment, IssuanceEnv } from "./issuance-env";

export interface LiveProtocol {
  deployment: Deployment;
  pointer: OgmiosUtxo;
  proxyRef: OgmiosUtxo;
  /** the CURRENT state script: the one the pointer names (it changes with an upgrade) */
  stateHash: string;
  stateRef: OgmiosUtxo;
  stateRewardAddress: string;
  /** the extra outputs asked for that are unspent, by `txId#index` */
  extra: Map<string, OgmiosUtxo>;
}

/** @throws BuildRefusal ERROR when the protocol is not configured, initialised or deployed */
export function requireDeployment(env: IssuanceEnv): Deployment {
  if (!env.deployment) {
    return refuse("ERROR", "No protocol deployment is configured (PROXY_TX_HASH / SERVICE_KEY_HASH); run `init` and `deploy` first.");
  }
  return env.deployment;
}

export async function loadLiveProtocol(env: IssuanceEnv, extra: readonly OutRef[] = []): Promise<LiveProtocol> {
  const deployment = requireDeployment(env);
  const { pointer, library } = await env.source.protocol();
  if (!pointer) refuse("ERROR", "The proxy is not initialised yet (no pointer on chain); build and submit the `init` transaction first.");
  const scripts = deployment.scripts;
  // After an upgrade the pointer names a newer state script than the configured one: follow the pointer.
  const stateHash = pointer!.scriptPointer;
  const wanted = library.filter((l) => l.scriptHash === scripts.proxy.hash || l.scriptHash === stateHash);
  const refs = [pointer.outRef, ...wanted.map((l) => l.outRef), ...extra];
  const found = (await env.chain.utxosByOutputReferences(refs)) as OgmiosUtxo[];
  const byKey = new Map(found.map((u) => [utxoKey(u), u]));
  const live = byKey.get(outRefKey(pointer.outRef));
  if (!live) refuse("PENDING_TRANSACTION", "The proxy pointer is being moved by a recent transaction; retry in a few seconds.");
  const newest = (hash: string) =>
    [...wanted]
      .reverse()
      .map((l) => (l.scriptHash === hash ? byKey.get(outRefKey(l.outRef)) : undefined))
      .find((u) => u !== undefined);
  const proxyRef = newest(scripts.proxy.hash);
  const stateRef = newest(stateHash);
  if (!proxyRef || !stateRef)
    refuse(
      "ERROR",
      "The library holds no reference scripts of the proxy and state validators; build and submit the `deploy` transaction first.",
    );
  const extraFound = new Map<string, OgmiosUtxo>();
  for (const r of extra) {
    const u = byKey.get(outRefKey(r));
    if (u) extraFound.set(outRefKey(r), u);
  }
  return {
    deployment,
    pointer: live,
    proxyRef,
    stateHash,
    stateRef,
    stateRewardAddress: rewardAddressOf(stateHash, env.networkId),
    extra: extraFound,
  };
}

/**
 * `live` with further outputs looked up on the chain (a state, a bootstrap): for a caller that read the protocol
 * outputs before it knew which of these it needs. Those found unspent join `extra`.
 */
export async function withOutputs(env: IssuanceEnv, live: LiveProtocol, refs: readonly OutRef[]): Promise<LiveProtocol> {
  if (refs.length === 0) return live;
  const found = (await env.chain.utxosByOutputReferences(refs)) as OgmiosUtxo[];
  const byKey = new Map(found.map((u) => [utxoKey(u), u]));
  const extra = new Map(live.extra);
  for (const r of refs) {
    const u = byKey.get(outRefKey(r));
    if (u) extra.set(outRefKey(r), u);
  }
  return { ...live, extra };
}
