/**
 * `GET /library/deployments`: the library's reference-script UTxOs as the indexer recorded them, kept only while
 * the chain still holds them unspent, each marked active when it carries the current proxy script or the state
 * script the proxy pointer names (docs/api.md#library).
 *
 * `stakeRegistered`: Ogmios' reward-account query is not available through our chain client (nor the devnet), so
 * registration is read from the chain's own verdict: the ledger accepts a withdrawal only from a registered reward
 * account, and every confirmed protocol transaction (bootstrap, fork, update, burn) withdraws zero from the state
 * script's account. Before the first such transaction this answers false even when the deployment registered it.
 */
import { outRefKey, type OutRef } from "../domain/out-ref";

export interface ProtocolSnapshot {
  deployed: boolean;
  proxyPolicyId: string;
  libraryAddress: string;
  pointer: { scriptPointer: string } | null;
  library: Array<{ scriptHash: string; outRef: OutRef }>;
}

export interface LibraryDeploymentEntry {
  transactionHash: string;
  outputIndex: number;
  scriptHash: string;
  isActiveContract: boolean;
}

export interface LibraryDeploymentResponse {
  address: string;
  entries: LibraryDeploymentEntry[];
  stakeRegistered: boolean;
}

export function libraryDeployments(
  protocol: ProtocolSnapshot,
  unspent: ReadonlySet<string>,
  stateAccountUsed: boolean,
): LibraryDeploymentResponse {
  const active = new Set([protocol.proxyPolicyId, protocol.pointer?.scriptPointer].filter((h): h is string => !!h));
  const entries = protocol.library
    .filter((e) => unspent.has(outRefKey(e.outRef)))
    .map((e) => ({
      transactionHash: e.outRef.txHash,
      outputIndex: e.outRef.index,
      scriptHash: e.scriptHash,
      isActiveContract: active.has(e.scriptHash),
    }));
  return { address: protocol.libraryAddress, entries, stakeRegistered: stateAccountUsed };
}
