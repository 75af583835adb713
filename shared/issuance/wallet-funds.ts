/**
 * Input selection for a wallet (docs/decisions.md#coin-selection-and-collateral): the spendable UTxOs (confirmed −
 * locked + pending change of transactions it signed), the dedicated collateral (the smallest confirmed ADA-only key
 * UTxO of 5 to 10 ADA, e.g. the 5 ADA prepare-collateral makes) and the UTxOs coin selection may spend: everything
 * but the collateral. Coin selection and one-shots never spend the collateral, and only a small UTxO is ever kept
 * aside as one: a large UTxO always pays, so a wallet is never held hostage by its own funds.
 */
import type { ChainClient } from "../chain";
import { paymentCredentialOf } from "../csl/address";
import { utxoKey, type OgmiosUtxo } from "../csl/utxo";
import type { InflightRegistry } from "../inflight";
import { refuse } from "./build-outcome";

export const COLLATERAL_LOVELACE = 5_000_000n;
/** Up to this size an ADA-only UTxO may be kept aside as the dedicated collateral; larger ones always pay. */
const DEDICATED_COLLATERAL_MAX_LOVELACE = 10_000_000n;
/** What prepare-collateral needs besides the 5 ADA output: the fee and a change output. */
const COLLATERAL_SPLIT_MARGIN_LOVELACE = 1_500_000n;

export interface WalletFunds {
  address: string;
  spendable: OgmiosUtxo[];
  /** the dedicated collateral script transactions put up (never spent by coin selection or as a one-shot) */
  collateral: OgmiosUtxo | undefined;
  /** spendable minus the collateral: what coin selection may use */
  payable: OgmiosUtxo[];
  /** UTxOs held back because in-flight transactions spend them */
  heldBack: number;
  /** keys (txid#index) of the UTxOs confirmed on chain */
  onChain: ReadonlySet<string>;
}

const lovelaceOf = (u: OgmiosUtxo): bigint => BigInt(u.value.ada.lovelace);

export function isAdaOnlyKeyUtxo(u: OgmiosUtxo): boolean {
  return !u.script && !u.datum && !u.datumHash && Object.keys(u.value).every((k) => k === "ada");
}

/** The dedicated collateral among confirmed spendable UTxOs: the smallest ADA-only one of 5 to 10 ADA. */
function pickCollateral(spendable: readonly OgmiosUtxo[], confirmed: readonly OgmiosUtxo[]): OgmiosUtxo | undefined {
  const onChain = new Set(confirmed.map(utxoKey));
  return spendable
    .filter(
      (u) =>
        onChain.has(utxoKey(u)) &&
        isAdaOnlyKeyUtxo(u) &&
        lovelaceOf(u) >= COLLATERAL_LOVELACE &&
        lovelaceOf(u) <= DEDICATED_COLLATERAL_MAX_LOVELACE,
    )
    .sort((a, b) => (lovelaceOf(a) < lovelaceOf(b) ? -1 : lovelaceOf(a) > lovelaceOf(b) ? 1 : 0))[0];
}

/**
 * @throws BuildRefusal INSUFFICIENT_FUNDS (nothing at the address), PENDING_TRANSACTION (everything locked)
 */
export async function loadWalletFunds(chain: ChainClient, registry: InflightRegistry, address: string): Promise<WalletFunds> {
  const confirmed = (await chain.utxosByAddresses([address])) as OgmiosUtxo[];
  // Pending change is offered only from transactions this wallet signed.
  const spendable = await registry.spendable(address, confirmed, paymentCredentialOf(address)?.hash ?? "");
  if (confirmed.length === 0 && spendable.length === 0) {
    refuse("INSUFFICIENT_FUNDS", `No UTxOs found for address ${address}; fund it with ADA first.`, { address });
  }
  if (spendable.length === 0) {
    refuse(
      "PENDING_TRANSACTION",
      "All UTxOs of this address are locked by in-flight transactions; retry once they are confirmed (a few seconds).",
      { address },
    );
  }
  const collateral = pickCollateral(spendable, confirmed);
  const payable = collateral ? spendable.filter((u) => u !== collateral) : spendable;
  const onChain = new Set(confirmed.map(utxoKey));
  const pendingCount = spendable.filter((u) => !onChain.has(utxoKey(u))).length;
  return { address, spendable, collateral, payable, heldBack: confirmed.length + pendingCount - spendable.length, onChain };
}

/**
 * A collateral besides `taken` — the dedicated collateral, which a transaction spends because its caller chose it
 * (a list's init UTxO): the smallest other confirmed ADA-only key UTxO of at least 5 ADA, whatever its size (the
 * collateral return gives back all the ledger would not take). undefined when the wallet has none.
 */
export function collateralBesides(funds: WalletFunds, taken: OgmiosUtxo): OgmiosUtxo | undefined {
  return funds.spendable
    .filter(
      (u) => utxoKey(u) !== utxoKey(taken) && funds.onChain.has(utxoKey(u)) && isAdaOnlyKeyUtxo(u) && lovelaceOf(u) >= COLLATERAL_LOVELACE,
    )
    .sort((a, b) => (lovelaceOf(a) < lovelaceOf(b) ? -1 : lovelaceOf(a) > lovelaceOf(b) ? 1 : 0))[0];
}

/**
 * For script transactions: the collateral, and something else to pay with.
 * @throws BuildRefusal COLLATERAL_REQUIRED (prepare-collateral can make one), INSUFFICIENT_FUNDS (it cannot, or only
 * the collateral is left), PENDING_TRANSACTION (the rest is spent by transactions in flight)
 */
export function requireCollateral(funds: WalletFunds): OgmiosUtxo {
  if (!funds.collateral) {
    // A collateral being made (prepare-collateral in flight) counts once confirmed.
    if (funds.spendable.some((u) => isAdaOnlyKeyUtxo(u) && lovelaceOf(u) === COLLATERAL_LOVELACE) && funds.heldBack > 0) {
      refuse(
        "PENDING_TRANSACTION",
        "A collateral output is being created by a transaction in flight; retry once it is confirmed (a few seconds).",
        {
          address: funds.address,
        },
      );
    }
    const adaOnly = funds.spendable.filter(isAdaOnlyKeyUtxo).reduce((sum, u) => sum + lovelaceOf(u), 0n);
    if (adaOnly < COLLATERAL_LOVELACE + COLLATERAL_SPLIT_MARGIN_LOVELACE) {
      refuse(
        "INSUFFICIENT_FUNDS",
        `This transaction runs scripts and needs a collateral of at least 5 ADA in an ADA-only UTxO; the address holds ${adaOnly} lovelace in ADA-only UTxOs. Fund it with ADA first.`,
        { address: funds.address },
      );
    }
    refuse(
      "COLLATERAL_REQUIRED",
      "This transaction runs scripts and needs a dedicated collateral UTxO (ADA only, at least 5 ADA) besides the UTxOs that pay for it. Call POST /api/v1/transaction/prepare-collateral, sign and submit that transaction, wait for its confirmation, then retry.",
      { address: funds.address },
    );
  }
  if (funds.payable.length === 0) {
    if (funds.heldBack > 0) {
      refuse(
        "PENDING_TRANSACTION",
        "The other UTxOs of this address are spent by transactions in flight; retry once they are confirmed (a few seconds).",
        { address: funds.address },
      );
    }
    refuse("INSUFFICIENT_FUNDS", "Only the collateral UTxO is left at this address; fund it with more ADA to pay for the transaction.", {
      address: funds.address,
    });
  }
  return funds.collateral!;
}
