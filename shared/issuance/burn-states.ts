/**
 * BURN_STATE (`burn_state`, and the user-state service's INVALIDATE_STATE / OPT_OUT): the owner spends one or
 * more of its states, burns their tokens, and gets their ADA back as change — in ONE transaction.
 */
import type { StateId } from "../domain/hex";
import type { StateInfo } from "../records/protocol-records";
import { refuse } from "./build-outcome";
import { keyHashOfAddress } from "./build-request";
import { buildEvaluatedAndClaim } from "./evaluated-build";
import type { IssuanceEnv } from "./issuance-env";
import { outRefKey } from "../domain/out-ref";
import { loadLiveProtocol, requireDeployment } from "./live-protocol";
import { proxyMint, proxySpend, stateWithdrawal } from "./protocol-parts";
import { loadStateCandidates } from "./state-candidates";
import { validityWindow } from "./validity-window";
import { loadWalletFunds, requireCollateral } from "./wallet-funds";

/**
 * `confirmed`: the owner's states as the caller read them from the indexer (the user actions), so they are not
 * read twice. @throws BuildRefusal
 */
export async function buildBurnStates(
  env: IssuanceEnv,
  address: string | undefined,
  stateIds: readonly StateId[],
  confirmed?: readonly StateInfo[],
) {
  const deployment = requireDeployment(env);
  const owner = keyHashOfAddress(address, env.networkId);
  const ids = [...new Set(stateIds)];
  if (ids.length === 0) refuse("ERROR", "stateId is required: the state to burn");
  const [candidates, funds] = await Promise.all([
    loadStateCandidates(env, deployment, owner, confirmed),
    loadWalletFunds(env.chain, env.registry, address!),
  ]);
  const collateral = requireCollateral(funds);
  const chosen = ids.map(
    (id) =>
      candidates.find((c) => c.datum.id === id) ??
      refuse("ERROR", `Unknown state ${id} for this address (it does not exist, was burned, or belongs to another address).`),
  );
  const live = await loadLiveProtocol(
    env,
    chosen.flatMap((c) => (c.pending || !c.outRef ? [] : [c.outRef])),
  );
  const utxos = chosen.map(
    (c) =>
      c.pending ??
      (c.outRef ? live.extra.get(outRefKey(c.outRef)) : undefined) ??
      refuse("PENDING_TRANSACTION", `State ${c.datum.id} is being changed by a recent transaction; retry in a few seconds.`),
  );
  const window = validityWindow(env.slots, env.now());
  return buildEvaluatedAndClaim(
    env,
    {
      utxos: funds.payable,
      changeAddress: address!,
      referenceInputs: [live.pointer],
      scriptInputs: utxos.map((u) => proxySpend(live, u)),
      mints: [proxyMint(live, Object.fromEntries(ids.map((id) => [id, -1n])))],
      withdrawals: [stateWithdrawal(live, "BURN_STATE", [])],
      requiredSigners: [owner],
      collateral: [collateral],
      validityStartSlot: window.validityStartSlot,
      ttlSlot: window.ttlSlot,
    },
    `burn-states:${ids.length}`,
  );
}
