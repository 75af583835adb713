/**
 * The general transaction builder: key and script inputs, reference inputs, Plutus/native mint,
 * withdrawals (incl. withdraw-zero with a Plutus witness), outputs with inline datums and reference scripts,
 * required signers, collateral with return, validity interval, metadata and script_data_hash.
 * Coin selection (CIP-2 largest-first, multi-asset) and change are CSL's. The result is unsigned.
 *
 * Ex-units are given per purpose key (see redeemer-pointers.ts), never per redeemer index.
 */
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import { CSL } from "./lib";
import { CslError, describeThrown } from "./errors";
import { auxiliaryDataFrom, type TxMetadata } from "./metadata";
import { bn, fromBn } from "./numbers";
import { outputFrom, type OutputSpec } from "./outputs";
import { cslLanguage, plutusScriptFromAny, type PlutusLanguage } from "./plutus-script";
import { collateralRules, costModels, txBuilderConfig } from "./protocol-parameters";
import {
  mintKey,
  publishKey,
  redeemersOf,
  spendKey,
  withdrawKey,
  type ExUnitsBudget,
  type PurposeKey,
  type RedeemerInfo,
} from "./redeemer-pointers";
import { outRefKey, outRefOf, referenceScriptSize, transactionInput, utxoFromOgmios, utxosFromOgmios, type OgmiosUtxo } from "./utxo";
import { txIdOf } from "./witnesses";

/** A Plutus script, attached to the tx (any byte wrapping) or read from a reference-script UTxO. */
export type PlutusScriptWitness =
  | { language: PlutusLanguage; cbor: string }
  | { language: PlutusLanguage; referenceUtxo: OgmiosUtxo };

export interface NativeScriptWitness {
  language: "native";
  cbor: string;
}

export interface ScriptInputSpec {
  utxo: OgmiosUtxo;
  script: PlutusScriptWitness;
  /** redeemer PlutusData CBOR hex */
  redeemer: string;
  /** datum CBOR hex, only for UTxOs locked with a datum hash (inline datums are read from the UTxO) */
  datum?: string;
}

export interface MintSpec {
  policy: PlutusScriptWitness | NativeScriptWitness;
  /** redeemer PlutusData CBOR hex (Plutus policies) */
  redeemer?: string;
  /** asset name hex → quantity (negative burns) */
  assets: Record<string, bigint>;
}

export interface WithdrawalSpec {
  rewardAddress: string;
  /** default 0 (withdraw-zero trick) */
  lovelace?: bigint;
  script?: PlutusScriptWitness;
  redeemer?: string;
}

/** Stake (de)registration of a script credential with explicit deposit (Conway), witnessed by that script. */
export interface StakeCertificateSpec {
  kind: "register" | "deregister";
  /** the script whose stake credential is (de)registered; its hash is the credential */
  script: PlutusScriptWitness;
  /** deposit paid (register) or refunded (deregister): the protocol's stakeCredentialDeposit */
  deposit: bigint;
  /** redeemer PlutusData CBOR hex */
  redeemer: string;
}

export interface TxSpec {
  protocolParameters: ProtocolParameters;
  /** UTxOs coin selection may spend (and collateral may come from) */
  utxos: readonly OgmiosUtxo[];
  changeAddress: string;
  /** UTxOs that must be spent by a key (in addition to coin selection) */
  keyInputs?: readonly OgmiosUtxo[];
  scriptInputs?: readonly ScriptInputSpec[];
  referenceInputs?: readonly OgmiosUtxo[];
  mints?: readonly MintSpec[];
  withdrawals?: readonly WithdrawalSpec[];
  certificates?: readonly StakeCertificateSpec[];
  outputs?: readonly OutputSpec[];
  requiredSigners?: readonly string[];
  /** collateral UTxOs (key-locked, ADA only); default: the largest such UTxO in `utxos` */
  collateral?: readonly OgmiosUtxo[];
  validityStartSlot?: number | bigint;
  ttlSlot?: number | bigint;
  metadata?: TxMetadata;
}

export interface RedeemerReport extends ExUnitsBudget {
  key: PurposeKey;
  purpose: string;
  index: number;
}

export interface BuiltTx {
  cborHex: string;
  txId: string;
  fee: bigint;
  /** redeemers as placed by the builder, each with its purpose key and final (tag, index) */
  redeemers: RedeemerReport[];
}

/** Purpose keys of every Plutus redeemer `spec` will carry. */
export function plutusPurposeKeys(spec: TxSpec): PurposeKey[] {
  const keys: PurposeKey[] = [];
  for (const s of spec.scriptInputs ?? []) keys.push(spendKey(s.utxo.transaction.id, Number(s.utxo.index)));
  for (const m of spec.mints ?? []) if (m.policy.language !== "native") keys.push(mintKey(policyIdOf(m.policy)));
  for (const w of spec.withdrawals ?? []) if (w.script) keys.push(withdrawKey(w.rewardAddress));
  for (const c of spec.certificates ?? []) keys.push(publishKey(c.kind, policyIdOf(c.script)));
  return keys;
}

export function policyIdOf(p: PlutusScriptWitness | NativeScriptWitness): string {
  if (p.language === "native") return CSL.NativeScript.from_hex(p.cbor).hash().to_hex();
  return plutusSource(p).hash;
}

interface PlutusSourceInfo {
  hash: string;
  source: CSL.PlutusScriptSource;
  attached?: CSL.PlutusScript;
}

function plutusSource(w: PlutusScriptWitness): PlutusSourceInfo {
  if ("cbor" in w) {
    const script = plutusScriptFromAny(w.cbor, w.language);
    return { hash: script.hash().to_hex(), source: CSL.PlutusScriptSource.new(script), attached: script };
  }
  const ref = w.referenceUtxo;
  if (!ref.script || ref.script.language === "native") {
    throw new CslError("INVALID_SCRIPT", "reference UTxO carries no Plutus script", { ...outRefOf(ref) });
  }
  const script = plutusScriptFromAny(ref.script.cbor, w.language);
  const hash = script.hash();
  const src = CSL.PlutusScriptSource.new_ref_input(
    hash,
    transactionInput(outRefOf(ref)),
    cslLanguage(w.language),
    referenceScriptSize(ref),
  );
  return { hash: hash.to_hex(), source: src };
}

function exUnits(b: ExUnitsBudget): CSL.ExUnits {
  return CSL.ExUnits.new(bn(b.memory), bn(b.cpu));
}

function redeemer(tag: CSL.RedeemerTag, dataHex: string | undefined, budget: ExUnitsBudget): CSL.Redeemer {
  if (dataHex === undefined) throw new CslError("TX_BUILD_FAILED", "a Plutus purpose needs a redeemer", {});
  // the index is rewritten by the builder to the ledger's sorted position; 0 is a placeholder
  return CSL.Redeemer.new(tag, CSL.BigNum.zero(), CSL.PlutusData.from_hex(dataHex), exUnits(budget));
}

/** Ex-units for a purpose: the given ones, else an equal share of the per-tx maximum (draft pass). */
function budgetFor(spec: TxSpec, key: PurposeKey, given: ReadonlyMap<PurposeKey, ExUnitsBudget>): ExUnitsBudget {
  const g = given.get(key);
  if (g) return g;
  const n = BigInt(Math.max(1, plutusPurposeKeys(spec).length));
  const max = spec.protocolParameters.maxExecutionUnitsPerTransaction ?? { memory: 14_000_000, cpu: 10_000_000_000 };
  return { memory: BigInt(max.memory) / n, cpu: BigInt(max.cpu) / n };
}

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

/**
 * Builds an unsigned, balanced transaction. `exUnitsByKey` holds real ex-units per purpose key; missing
 * ones get a draft placeholder (an equal share of the per-tx maximum).
 * @throws CslError INSUFFICIENT_FUNDS, OUTPUT_BELOW_MIN_UTXO, INVALID_SCRIPT, INVALID_ADDRESS, TX_BUILD_FAILED
 */
export function buildTx(spec: TxSpec, exUnitsByKey: ReadonlyMap<PurposeKey, ExUnitsBudget> = new Map()): BuiltTx {
  const pp = spec.protocolParameters;
  const tb = CSL.TransactionBuilder.new(txBuilderConfig(pp));
  const coinsPerByte = BigInt(pp.minUtxoDepositCoefficient);
  const explicit = new Set<string>();
  let hasPlutus = false;

  const inputs = CSL.TxInputsBuilder.new();
  for (const u of spec.keyInputs ?? []) {
    inputs.add_regular_utxo(utxoFromOgmios(u));
    explicit.add(outRefKey(outRefOf(u)));
  }
  for (const s of spec.scriptInputs ?? []) {
    const ref = outRefOf(s.utxo);
    const src = plutusSource(s.script);
    const red = redeemer(CSL.RedeemerTag.new_spend(), s.redeemer, budgetFor(spec, spendKey(ref.txId, ref.index), exUnitsByKey));
    let witness: CSL.PlutusWitness;
    if (s.utxo.datum || !s.utxo.datumHash) {
      witness = src.attached
        ? CSL.PlutusWitness.new_without_datum(src.attached, red)
        : CSL.PlutusWitness.new_with_ref_without_datum(src.source, red);
    } else {
      if (!s.datum) throw new CslError("TX_BUILD_FAILED", "UTxO is locked by a datum hash; the datum is required", { ...ref });
      const datum = CSL.PlutusData.from_hex(s.datum);
      witness = src.attached
        ? CSL.PlutusWitness.new(src.attached, datum, red)
        : CSL.PlutusWitness.new_with_ref(src.source, CSL.DatumSource.new(datum), red);
    }
    inputs.add_plutus_script_utxo(utxoFromOgmios(s.utxo), witness);
    explicit.add(outRefKey(ref));
    hasPlutus = true;
  }
  if (inputs.len() > 0) tb.set_inputs(inputs);

  const scriptRefInputs = new Set<string>();
  const noteRef = (w: PlutusScriptWitness): void => {
    if ("referenceUtxo" in w) scriptRefInputs.add(outRefKey(outRefOf(w.referenceUtxo)));
  };
  for (const s of spec.scriptInputs ?? []) noteRef(s.script);

  if (spec.mints && spec.mints.length > 0) {
    const mb = CSL.MintBuilder.new();
    for (const m of spec.mints) {
      let witness: CSL.MintWitness;
      if (m.policy.language === "native") {
        witness = CSL.MintWitness.new_native_script(CSL.NativeScriptSource.new(CSL.NativeScript.from_hex(m.policy.cbor)));
      } else {
        const src = plutusSource(m.policy);
        noteRef(m.policy);
        witness = CSL.MintWitness.new_plutus_script(
          src.source,
          redeemer(CSL.RedeemerTag.new_mint(), m.redeemer, budgetFor(spec, mintKey(src.hash), exUnitsByKey)),
        );
        hasPlutus = true;
      }
      for (const [name, qty] of Object.entries(m.assets)) {
        mb.add_asset(witness, CSL.AssetName.new(Buffer.from(name, "hex")), CSL.Int.from_str(qty.toString()));
      }
    }
    tb.set_mint_builder(mb);
  }

  if (spec.withdrawals && spec.withdrawals.length > 0) {
    const wb = CSL.WithdrawalsBuilder.new();
    for (const w of spec.withdrawals) {
      const ra = CSL.RewardAddress.from_address(CSL.Address.from_bech32(w.rewardAddress));
      if (!ra) throw new CslError("INVALID_ADDRESS", "not a reward address", { address: w.rewardAddress });
      const coin = bn(w.lovelace ?? 0n, "withdrawal");
      if (w.script) {
        const src = plutusSource(w.script);
        noteRef(w.script);
        const red = redeemer(CSL.RedeemerTag.new_reward(), w.redeemer, budgetFor(spec, withdrawKey(w.rewardAddress), exUnitsByKey));
        const witness = src.attached
          ? CSL.PlutusWitness.new_without_datum(src.attached, red)
          : CSL.PlutusWitness.new_with_ref_without_datum(src.source, red);
        wb.add_with_plutus_witness(ra, coin, witness);
        hasPlutus = true;
      } else {
        wb.add(ra, coin);
      }
    }
    tb.set_withdrawals_builder(wb);
  }

  if (spec.certificates && spec.certificates.length > 0) {
    const cb = CSL.CertificatesBuilder.new();
    for (const c of spec.certificates) {
      const src = plutusSource(c.script);
      noteRef(c.script);
      const cred = CSL.Credential.from_scripthash(CSL.ScriptHash.from_hex(src.hash));
      const deposit = bn(c.deposit, "deposit");
      const cert =
        c.kind === "register"
          ? CSL.Certificate.new_reg_cert(CSL.StakeRegistration.new_with_explicit_deposit(cred, deposit))
          : CSL.Certificate.new_unreg_cert(CSL.StakeDeregistration.new_with_explicit_refund(cred, deposit));
      const red = redeemer(CSL.RedeemerTag.new_cert(), c.redeemer, budgetFor(spec, publishKey(c.kind, src.hash), exUnitsByKey));
      const witness = src.attached
        ? CSL.PlutusWitness.new_without_datum(src.attached, red)
        : CSL.PlutusWitness.new_with_ref_without_datum(src.source, red);
      cb.add_with_plutus_witness(cert, witness);
      hasPlutus = true;
    }
    tb.set_certs_builder(cb);
  }

  for (const r of spec.referenceInputs ?? []) {
    const key = outRefKey(outRefOf(r));
    if (scriptRefInputs.has(key)) continue; // already referenced through its script source
    tb.add_reference_input(transactionInput(outRefOf(r)));
  }

  for (const o of spec.outputs ?? []) tb.add_output(outputFrom(o, coinsPerByte));
  for (const h of spec.requiredSigners ?? []) tb.add_required_signer(CSL.Ed25519KeyHash.from_hex(h));
  if (spec.validityStartSlot !== undefined) tb.set_validity_start_interval_bignum(bn(spec.validityStartSlot, "validityStartSlot"));
  if (spec.ttlSlot !== undefined) tb.set_ttl_bignum(bn(spec.ttlSlot, "ttlSlot"));
  if (spec.metadata) tb.set_auxiliary_data(auxiliaryDataFrom(spec.metadata));

  const pool = utxosFromOgmios(spec.utxos.filter((u) => !explicit.has(outRefKey(outRefOf(u)))));
  const change = CSL.ChangeConfig.new(CSL.Address.from_bech32(spec.changeAddress));
  try {
    if (hasPlutus) {
      const collateral = spec.collateral ?? [pickCollateral(spec.utxos)].filter((u): u is OgmiosUtxo => !!u);
      if (collateral.length === 0) {
        throw new CslError("INSUFFICIENT_FUNDS", "no ADA-only key UTxO available for collateral", {});
      }
      const coll = CSL.TxInputsBuilder.new();
      for (const c of collateral) coll.add_regular_utxo(utxoFromOgmios(c));
      tb.set_collateral(coll);
      // before balancing: the builder keeps only the languages the tx uses (trap §1.3)
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
    } else if (pool.len() > 0 || inputs.len() === 0) {
      tb.add_inputs_from_and_change(pool, CSL.CoinSelectionStrategyCIP2.LargestFirstMultiAsset, change);
    } else {
      tb.add_change_if_needed(CSL.Address.from_bech32(spec.changeAddress));
    }
  } catch (err) {
    throw mapBuildError(err);
  }

  let tx: CSL.Transaction;
  try {
    tx = tb.build_tx();
  } catch (err) {
    throw mapBuildError(err);
  }
  const cborHex = tx.to_hex();
  return {
    cborHex,
    txId: txIdOf(cborHex),
    fee: fromBn(tx.body().fee()),
    redeemers: redeemersOf(cborHex).map(reportOf),
  };
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
  return new CslError("TX_BUILD_FAILED", msg, {});
}
