/**
 * The general transaction builder: key and script inputs, reference inputs, Plutus/native mint,
 * withdrawals (incl. withdraw-zero with a Plutus witness), outputs with inline datums and reference scripts,
 * required signers, collateral with return, validity interval, metadata and script_data_hash.
 * The body's parts are added by `tx-body-parts.ts` (their scripts and redeemers by `script-witnesses.ts`); here the
 * transaction is balanced and checked. Coin selection (CIP-2 largest-first, multi-asset) and change are CSL's. The
 * result is unsigned.
 *
 * Ex-units are given per purpose key (see redeemer-pointers.ts), never per redeemer index.
 */
import { outRefKey, type OutRef } from "../domain/out-ref";
import { CslError, describeThrown } from "./errors";
import { CSL } from "./lib";
import { itemsOf } from "./list-items";
import { bn, fromBn } from "./numbers";
import { collateralRules, costModels, txBuilderConfig } from "./protocol-parameters";
import { redeemersOf, type ExUnitsBudget, type PurposeKey, type RedeemerInfo } from "./redeemer-pointers";
import { addBodyParts, type BuildContext } from "./tx-body-parts";
import type { BuiltTx, RedeemerReport, TxSpec } from "./tx-spec";
import { outRefOf, utxoFromOgmios, utxoKey, utxosFromOgmios, type OgmiosUtxo } from "./utxo";
import { txIdOf } from "./witnesses";

export { plutusPurposeKeys, policyIdOf } from "./script-witnesses";
export type {
  BuiltTx,
  MintSpec,
  NativeScriptWitness,
  PlutusScriptWitness,
  RedeemerReport,
  ScriptInputSpec,
  StakeCertificateSpec,
  TxSpec,
  WithdrawalSpec,
} from "./tx-spec";

function isPureAdaKeyUtxo(u: OgmiosUtxo): boolean {
  if (u.script || u.datum || u.datumHash) return false;
  if (Object.keys(u.value).some((k) => k !== "ada")) return false;
  try {
    const cred = CSL.Address.from_bech32(u.address).payment_cred();
    return cred !== undefined && !cred.has_script_hash();
  } catch {
    return false;
  }
}

/** Largest ADA-only key UTxO: the default collateral. */
export function pickCollateral(utxos: readonly OgmiosUtxo[]): OgmiosUtxo | undefined {
  let best: OgmiosUtxo | undefined;
  for (const u of utxos) {
    if (!isPureAdaKeyUtxo(u)) continue;
    if (!best || BigInt(u.value.ada.lovelace) > BigInt(best.value.ada.lovelace)) best = u;
  }
  return best;
}

/** The last step: collateral (for Plutus), coin selection from `utxos`, change, and the script data hash. */
function balance(ctx: BuildContext): void {
  const { spec, tb } = ctx;
  const pp = spec.protocolParameters;
  const pool = utxosFromOgmios(spec.utxos.filter((u) => !ctx.spent.has(outRefKey(outRefOf(u)))));
  const change = CSL.ChangeConfig.new(CSL.Address.from_bech32(spec.changeAddress));
  if (ctx.hasPlutus) {
    const collateral = spec.collateral ?? [pickCollateral(spec.utxos)].filter((u): u is OgmiosUtxo => !!u);
    if (collateral.length === 0) throw new CslError("INSUFFICIENT_FUNDS", "no ADA-only key UTxO available for collateral", {});
    const coll = CSL.TxInputsBuilder.new();
    for (const c of collateral) coll.add_regular_utxo(utxoFromOgmios(c));
    tb.set_collateral(coll);
    // before balancing: the builder keeps only the languages the tx uses (docs/architecture.md#csl, trap 4)
    tb.calc_script_data_hash(costModels(pp));
    tb.add_inputs_from_and_change_with_collateral_return(
      pool,
      CSL.CoinSelectionStrategyCIP2.LargestFirstMultiAsset,
      change,
      bn(collateralRules(pp).percentage),
    );
    // Again after balancing: coin selection may add an input that sorts before a script input, which moves
    // that spend redeemer's index; the hash must cover the final redeemers (the first call sized the fee).
    tb.calc_script_data_hash(costModels(pp));
  } else if (pool.len() > 0 || ctx.inputCount === 0) {
    tb.add_inputs_from_and_change(pool, CSL.CoinSelectionStrategyCIP2.LargestFirstMultiAsset, change);
  } else {
    tb.add_change_if_needed(CSL.Address.from_bech32(spec.changeAddress));
  }
}

/** The fee CSL may add above its own minimum estimate without anything being burned. */
const BURN_TOLERANCE_LOVELACE = 1_000n;

/**
 * CSL adds a leftover too small for a change output (below the minimum UTxO value) to the fee. Never burn a user's
 * money silently: spend one more UTxO so the change is large enough, or refuse, saying how much is missing.
 * @throws CslError INSUFFICIENT_FUNDS with `missingLovelace`
 */
function rebuildWithoutBurning(
  spec: TxSpec,
  exUnitsByKey: ReadonlyMap<PurposeKey, ExUnitsBudget>,
  tx: CSL.Transaction,
  burned: bigint,
): BuiltTx {
  const used = new Set(inputsOf(tx).map(outRefKey));
  const spare = spec.utxos
    .filter((u) => !used.has(outRefKey(outRefOf(u))) && !(spec.collateral ?? []).some((c) => utxoKey(c) === utxoKey(u)))
    .sort((a, b) => Number(BigInt(b.value.ada.lovelace) - BigInt(a.value.ada.lovelace)));
  const next = spare[0];
  if (next !== undefined) return buildTx({ ...spec, keyInputs: [...(spec.keyInputs ?? []), next] }, exUnitsByKey);
  const minChange = fromBn(
    CSL.min_ada_for_output(
      CSL.TransactionOutput.new(CSL.Address.from_bech32(spec.changeAddress), CSL.Value.new(bn(burned))),
      CSL.DataCost.new_coins_per_byte(bn(BigInt(spec.protocolParameters.minUtxoDepositCoefficient))),
    ),
  );
  const missing = minChange - burned;
  throw new CslError(
    "INSUFFICIENT_FUNDS",
    `the change of ${burned} lovelace is below the minimum UTxO value (${minChange}): about ${missing} lovelace more at the address would let it come back as change instead of being left to the fee`,
    { missingLovelace: missing.toString() },
  );
}

/**
 * Builds an unsigned, balanced transaction. `exUnitsByKey` holds real ex-units per purpose key; missing
 * ones get a draft placeholder (an equal share of the per-tx maximum).
 * @throws CslError INSUFFICIENT_FUNDS, OUTPUT_BELOW_MIN_UTXO, INVALID_SCRIPT, INVALID_ADDRESS, TX_BUILD_FAILED
 */
export function buildTx(spec: TxSpec, exUnitsByKey: ReadonlyMap<PurposeKey, ExUnitsBudget> = new Map()): BuiltTx {
  const ctx: BuildContext = {
    spec,
    tb: CSL.TransactionBuilder.new(txBuilderConfig(spec.protocolParameters)),
    budgets: exUnitsByKey,
    spent: new Set(),
    scriptReferences: new Set(),
    hasPlutus: false,
    inputCount: 0,
  };
  addBodyParts(ctx);
  let tx: CSL.Transaction;
  try {
    balance(ctx);
    tx = ctx.tb.build_tx();
  } catch (err) {
    throw mapBuildError(err);
  }
  const burned = fromBn(tx.body().fee()) - fromBn(ctx.tb.min_fee());
  if (burned > BURN_TOLERANCE_LOVELACE) return rebuildWithoutBurning(spec, exUnitsByKey, tx, burned);
  const cborHex = tx.to_hex();
  return {
    cborHex,
    txId: txIdOf(cborHex),
    fee: fromBn(tx.body().fee()),
    inputs: inputsOf(tx),
    redeemers: redeemersOf(cborHex).map(reportOf),
  };
}

function inputsOf(tx: CSL.Transaction): OutRef[] {
  return itemsOf(tx.body().inputs()).map((x) => ({ txHash: x.transaction_id().to_hex(), index: x.index() }));
}

function reportOf(r: RedeemerInfo): RedeemerReport {
  if (!r.key) {
    throw new CslError("TX_BUILD_FAILED", `redeemer ${r.purpose}:${r.index} points at nothing in the body`, {
      purpose: r.purpose,
      index: r.index,
    });
  }
  return { key: r.key, purpose: r.purpose, index: r.index, memory: r.memory, cpu: r.cpu };
}

function mapBuildError(err: unknown): CslError {
  if (err instanceof CslError) return err;
  const msg = describeThrown(err);
  if (/insufficient input|not enough|UTxO Balance Insufficient|cannot cover/i.test(msg)) {
    return new CslError("INSUFFICIENT_FUNDS", `not enough funds: ${msg}`, {});
  }
  if (/less than the minimum UTXO/i.test(msg)) return new CslError("OUTPUT_BELOW_MIN_UTXO", msg, {});
  const tooLarge = /Maximum transaction size of (\d+) exceeded\. Found: (\d+)/i.exec(msg);
  if (tooLarge) {
    return new CslError("TX_TOO_LARGE", `the transaction would take ${tooLarge[2]} bytes; the chain accepts at most ${tooLarge[1]}`, {
      maxBytes: Number(tooLarge[1]),
      bytes: Number(tooLarge[2]),
    });
  }
  return new CslError("TX_BUILD_FAILED", msg, {});
}
