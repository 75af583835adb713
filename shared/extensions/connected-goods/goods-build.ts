/**
 * How a connected-goods transaction is paid for and built. The caller's wallet — its funds, and the collateral it
 * must hold — is loaded before any key is derived; a mint or a claim is first built as a draft with stand-in key
 * hashes of the real sizes (a transaction the wallet cannot pay costs no derivation), then for real: built,
 * evaluated and its inputs claimed.
 */
import type { OgmiosUtxo } from "../../csl/utxo";
import {
  buildEvaluatedAndClaim,
  draftBuild,
  type BuildSpec,
  loadWalletFunds,
  requireCollateral,
  type WalletFunds,
} from "../../issuance/for-extensions";
import type { GoodsEnv } from "./goods-env";

/** The wallet a goods transaction spends from and returns change to. */
export interface GoodsWallet {
  readonly address: string;
  readonly funds: WalletFunds;
  readonly collateral: OgmiosUtxo;
}

/** What each build is named by for its budget hints. */
type GoodsBuildKind = "mint" | "claim" | "hub";

/** @throws BuildRefusal when the wallet has no funds or no collateral */
export async function loadGoodsWallet(env: GoodsEnv, address: string): Promise<GoodsWallet> {
  const funds = await loadWalletFunds(env.issuance.chain, env.issuance.registry, address);
  return { address, funds, collateral: requireCollateral(funds) };
}

/** The part of a spec the wallet pays: what coin selection may spend (its payable UTxOs by default), the change, the collateral. */
export function paidBy(
  wallet: GoodsWallet,
  utxos: readonly OgmiosUtxo[] = wallet.funds.payable,
): Pick<BuildSpec, "utxos" | "changeAddress" | "collateral"> {
  return { utxos, changeAddress: wallet.address, collateral: [wallet.collateral] };
}

/** Coin selection on the draft `spec`, nothing claimed. @throws BuildRefusal */
export function draftGoodsBuild(env: GoodsEnv, spec: BuildSpec, kind: GoodsBuildKind): Promise<void> {
  return draftBuild(env.issuance, spec, `connected-goods:${kind}`);
}

/** `spec` built, evaluated and its inputs claimed: the transaction as CBOR hex. @throws BuildRefusal */
export async function buildGoods(env: GoodsEnv, spec: BuildSpec, kind: GoodsBuildKind): Promise<string> {
  return (await buildEvaluatedAndClaim(env.issuance, spec, `connected-goods:${kind}`)).cborHex;
}
