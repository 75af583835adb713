/**
 * prepare-collateral (docs/api.md#collateral): COLLATERAL_ALREADY_AVAILABLE when the address has a
 * dedicated collateral UTxO (ADA only, ≥ 5 ADA) and another UTxO; otherwise an ADA-only transaction paying
 * exactly 5 ADA back to the sender as its own output.
 */
import { refuse } from "./build-outcome";
import { keyHashOfAddress } from "./build-request";
import { buildEvaluatedAndClaim } from "./evaluated-build";
import type { IssuanceEnv } from "./issuance-env";
import { validityWindow } from "./validity-window";
import { COLLATERAL_LOVELACE, isAdaOnlyKeyUtxo, loadWalletFunds } from "./wallet-funds";

/** @returns the unsigned split transaction, or refuses with COLLATERAL_ALREADY_AVAILABLE */
export async function buildPrepareCollateral(env: IssuanceEnv, address: string | undefined) {
  keyHashOfAddress(address, env.networkId, "senderAddress");
  const funds = await loadWalletFunds(env.chain, env.registry, address!);
  if (funds.collateral && funds.payable.length > 0) {
    refuse(
      "COLLATERAL_ALREADY_AVAILABLE",
      "The address already has a dedicated collateral UTxO (ADA only, at least 5 ADA) and another UTxO for fees; nothing to sign.",
      {
        collateral: `${funds.collateral.transaction.id}#${funds.collateral.index}`,
      },
    );
  }
  const confirmedCollateral = funds.collateral;
  const pendingCollateral = funds.spendable.find(
    (u) => u !== confirmedCollateral && isAdaOnlyKeyUtxo(u) && BigInt(u.value.ada.lovelace) === COLLATERAL_LOVELACE && funds.heldBack > 0,
  );
  if (!confirmedCollateral && pendingCollateral) {
    refuse(
      "PENDING_TRANSACTION",
      "A collateral output is being created by a transaction in flight; wait for its confirmation, then retry.",
      {
        pending: `${pendingCollateral.transaction.id}#${pendingCollateral.index}`,
      },
    );
  }
  const window = validityWindow(env.slots, env.now());
  // Coin selection only from ADA-only UTxOs keeps tokens where they are.
  const adaOnly = funds.spendable.filter(isAdaOnlyKeyUtxo);
  return buildEvaluatedAndClaim(env, {
    utxos: adaOnly.length > 0 ? adaOnly : funds.spendable,
    changeAddress: address!,
    outputs: [{ address: address!, lovelace: COLLATERAL_LOVELACE }],
    validityStartSlot: window.validityStartSlot,
    ttlSlot: window.ttlSlot,
  });
}
