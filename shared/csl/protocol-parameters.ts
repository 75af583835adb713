/**
 * Ogmios v6 protocol parameters → CSL builder configuration and cost models.
 * The same values drive fees and script_data_hash, so they must be the ones the ledger (or devnet) uses.
 */
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import { CSL } from "./lib";
import { CslError } from "./errors";
import { bn, toBigInt, type IntLike } from "./numbers";

export type { ProtocolParameters };

/** "577/10000" → CSL UnitInterval. */
function ratio(r: string, what: string): CSL.UnitInterval {
  const m = /^(\d+)\/(\d+)$/.exec(r);
  if (!m) throw new CslError("INVALID_PROTOCOL_PARAMETERS", `${what} is not a ratio "n/d"`, { what, value: r });
  return CSL.UnitInterval.new(CSL.BigNum.from_str(m[1] as string), CSL.BigNum.from_str(m[2] as string));
}

function lovelaceOf(v: { ada: { lovelace: IntLike } } | undefined, what: string): CSL.BigNum {
  if (!v) throw new CslError("INVALID_PROTOCOL_PARAMETERS", `${what} is missing`, { what });
  return bn(v.ada.lovelace, what);
}

/**
 * Builder configuration (fees, deposits, min-UTxO, sizes, script prices, ref-script fee) from Ogmios pparams.
 * Remembered per parameters object: `TransactionBuilder.new` copies the configuration it is given, so one
 * configuration serves every build made with the same (cached) parameters.
 */
export function txBuilderConfig(pp: ProtocolParameters): CSL.TransactionBuilderConfig {
  let config = configByParameters.get(pp);
  if (!config) configByParameters.set(pp, (config = buildTxBuilderConfig(pp)));
  return config;
}

const configByParameters = new WeakMap<ProtocolParameters, CSL.TransactionBuilderConfig>();

function buildTxBuilderConfig(pp: ProtocolParameters): CSL.TransactionBuilderConfig {
  const prices = pp.scriptExecutionPrices;
  if (!prices) throw new CslError("INVALID_PROTOCOL_PARAMETERS", "scriptExecutionPrices is missing", {});
  const refFee = pp.minFeeReferenceScripts?.base ?? 0;
  return CSL.TransactionBuilderConfigBuilder.new()
    .fee_algo(CSL.LinearFee.new(bn(pp.minFeeCoefficient, "minFeeCoefficient"), lovelaceOf(pp.minFeeConstant, "minFeeConstant")))
    .coins_per_utxo_byte(bn(pp.minUtxoDepositCoefficient, "minUtxoDepositCoefficient"))
    .pool_deposit(lovelaceOf(pp.stakePoolDeposit, "stakePoolDeposit"))
    .key_deposit(lovelaceOf(pp.stakeCredentialDeposit, "stakeCredentialDeposit"))
    .max_value_size(Number(pp.maxValueSize?.bytes ?? 5000))
    .max_tx_size(Number(pp.maxTransactionSize?.bytes ?? 16384))
    .ex_unit_prices(CSL.ExUnitPrices.new(ratio(prices.memory, "prices.memory"), ratio(prices.cpu, "prices.cpu")))
    .ref_script_coins_per_byte(decimalToUnitInterval(refFee))
    .build();
}

/** Ogmios gives minFeeReferenceScripts.base as a decimal number (e.g. 15 or 44.5). */
function decimalToUnitInterval(x: number): CSL.UnitInterval {
  const s = String(x);
  const [whole, frac = ""] = s.split(".");
  const den = 10n ** BigInt(frac.length);
  const num = BigInt(`${whole}${frac}`);
  return CSL.UnitInterval.new(CSL.BigNum.from_str(num.toString()), CSL.BigNum.from_str(den.toString()));
}

const LANGUAGES: Array<[string, () => CSL.Language]> = [
  ["plutus:v1", () => CSL.Language.new_plutus_v1()],
  ["plutus:v2", () => CSL.Language.new_plutus_v2()],
  ["plutus:v3", () => CSL.Language.new_plutus_v3()],
];

/**
 * Cost models of every language the parameters carry. Pass the full set to `calc_script_data_hash`:
 * the builder keeps only the languages the tx uses (docs/architecture.md#csl, trap 4). Do not feed it to the standalone
 * `hash_script_data`, which does not filter.
 *
 * Building the models costs some 600 CSL integers parsed from strings (milliseconds per call, and every build calls
 * it twice), so the encoded models of the last parameters seen are kept (and remembered per cost-model object, so
 * a caller that reuses its parameters object skips the comparison too) and each call decodes a fresh copy from
 * those bytes: the same models, byte for byte, and no CSL object shared between callers.
 */
export function costModels(pp: ProtocolParameters): CSL.Costmdls {
  const models = pp.plutusCostModels;
  // The same parameters object (a caller's cached copy) skips even the key: stringifying ~600 numbers costs
  // about as much as decoding the models.
  let bytes = models ? encodedByObject.get(models) : undefined;
  if (!bytes) {
    const key = JSON.stringify(models ?? {}, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    if (lastCostModels?.key !== key) lastCostModels = { key, bytes: buildCostModels(pp).to_bytes() };
    bytes = lastCostModels.bytes;
    if (models) encodedByObject.set(models, bytes);
  }
  return CSL.Costmdls.from_bytes(bytes);
}

let lastCostModels: { key: string; bytes: Uint8Array } | undefined;
/** Encoded models per cost-model object seen (weak: a dropped parameters object takes its entry with it). */
const encodedByObject = new WeakMap<object, Uint8Array>();

function buildCostModels(pp: ProtocolParameters): CSL.Costmdls {
  const out = CSL.Costmdls.new();
  for (const [name, lang] of LANGUAGES) {
    const model = pp.plutusCostModels?.[name];
    if (!model) continue;
    const cm = CSL.CostModel.new();
    model.forEach((cost, i) => cm.set(i, CSL.Int.from_str(toBigInt(cost as IntLike, `${name}[${i}]`).toString())));
    out.insert(lang(), cm);
  }
  return out;
}

/** Collateral percentage (default 150) and max collateral inputs (default 3). */
export function collateralRules(pp: ProtocolParameters): { percentage: bigint; maxInputs: number } {
  return {
    percentage: BigInt(pp.collateralPercentage ?? 150),
    maxInputs: Number(pp.maxCollateralInputs ?? 3),
  };
}
