/**
 * Input selection for a wallet (reference-study §3.8, interface.md "Limits"): the spendable UTxOs (confirmed −
 * locked − claimed + pending change), the dedicated collateral UTxO (ADA-only, key-locked, ≥ 5 ADA, confirmed —
 * the smallest such one) and the UTxOs coin selection may spend (never the collateral).
 */
import type { ChainClient } from "../chain";
import type { OgmiosUtxo } from "../csl/utxo";
import type { InflightRegistry } from "../inflight";
import { refuse } from "./build-outcome";

export const COLLATERAL_LOVELACE = 5_000_000n;

export interface WalletFunds {
  address: string;
  spendable: OgmiosUtxo[];
  collateral: OgmiosUtxo | undefined;
  /** spendable minus the collateral: what coin selection may use */
  payable: OgmiosUtxo[];
  /** UTxOs held back because builds or in-flight transactions use them */
  heldBack: number;
}

const lovelaceOf = (u: OgmiosUtxo): bigint => BigInt(u.value.ada.lovelace);

export function isAdaOnlyKeyUtxo(u: OgmiosUtxo): boolean {
  return !u.script && !u.datum && !u.datumHash && Object.keys(u.value).every((k) => k === "ada");
}

/** The dedicated collateral among confirmed spendable UTxOs: the smallest ADA-only one of at least 5 ADA. */
export function pickDedicatedCollateral(spendable: readonly OgmiosUtxo[], confirmed: readonly OgmiosUtxo[]): OgmiosUtxo | undefined {
  const onChain = new Set(confirmed.map((u) => `${u.transaction.id}#${u.index}`));
  return spendable
    .filter((u) => onChain.has(`${u.transaction.id}#${u.index}`) && isAdaOnlyKeyUtxo(u) && lovelaceOf(u) >= COLLATERAL_LOVELACE)
    .sort((a, b) => (lovelaceOf(a) < lovelaceOf(b) ? -1 : lovelaceOf(a) > lovelaceOf(b) ? 1 : 0))[0];
}

/**
 * @throws BuildRefusal INSUFFICIENT_FUNDS (nothing at the address), PENDING_TRANSACTION (everything locked)
 */
export async function loadWalletFunds(chain: ChainClient, registry: InflightRegistry, address: string): Promise<WalletFunds> {
  const confirmed = (await chain.utxosByAddresses([address])) as OgmiosUtxo[];
  const spendable = await registry.spendable(address, confirmed);
  if (confirmed.length === 0 && spendable.length === 0) {
    refuse("INSUFFICIENT_FUNDS", `No UTxOs found for address ${address}; fund it with ADA first.`, { address });
  }
  if (spendable.length === 0) {
    refuse("PENDING_TRANSACTION", "All UTxOs of this address are locked by in-flight transactions; retry once they are confirmed (a few seconds).", { address });
  }
  const collateral = pickDedicatedCollateral(spendable, confirmed);
  const payable = collateral ? spendable.filter((u) => u !== collateral) : spendable;
  const pendingCount = spendable.filter((u) => !confirmed.some((c) => c.transaction.id === u.transaction.id && c.index === u.index)).length;
  return { address, spendable, collateral, payable, heldBack: confirmed.length + pendingCount - spendable.length };
}

/** For script transactions: a dedicated collateral plus at least one other UTxO. @throws BuildRefusal COLLATERAL_REQUIRED */
export function requireCollateral(funds: WalletFunds): OgmiosUtxo {
  if (funds.collateral && funds.payable.length === 0 && funds.heldBack > 0) {
    refuse("PENDING_TRANSACTION", "The other UTxOs of this address are used by transactions being built or in flight; retry once they are submitted and confirmed (a few seconds).", {
      address: funds.address,
    });
  }
  if (!funds.collateral || funds.payable.length === 0) {
    refuse(
      "COLLATERAL_REQUIRED",
      "This transaction runs scripts and needs a dedicated collateral UTxO (ADA only, at least 5 ADA) besides the UTxOs that pay for it. Call POST /api/v1/transaction/prepare-collateral, sign and submit that transaction, wait for its confirmation, then retry.",
      { address: funds.address },
    );
  }
  return funds.collateral;
}
