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
import { outRefKey, type OutRef } from "../domain/out-ref";
import { itemsOf } from "./list-items";
import { outRefOf, referenceScriptSize, transactionInput, utxoFromOgmios, utxoKey, utxosFromOgmios, type OgmiosUtxo } from "./utxo";
import { txIdOf } from "./witnesses";

/** A Plutus script, attached to the tx (any byte wrapping) or read from a reference-script UTxO. */
export type PlutusScriptWitness = { language: PlutusLanguage; cbor: string } | { language: PlutusLanguage; referenceUtxo: OgmiosUtxo };

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
  /** the inputs the transaction spends, in the body's order (so callers need not decode it again) */
  inputs: OutRef[];
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
  const known = referenceScriptOf(ref, w.language);
  const src = CSL.PlutusScriptSource.new_ref_input(
    CSL.ScriptHash.from_hex(known.hash),
    transactionInput(outRefOf(ref)),
    cslLanguage(w.language),
    known.size,
  );
  return { hash: known.hash, source: src };
}

/**
 * Hash and size of the script a reference output carries, remembered per script bytes and language: every build
 * of a protocol transaction would otherwise parse and hash the same reference scripts again (a few KB each).
 */
const referenceScripts = new Map<string, { hash: string; size: number }>();
const REFERENCE_SCRIPTS_KEPT = 256;

function referenceScriptOf(ref: OgmiosUtxo, language: PlutusLanguage): { hash: string; size: number } {
  const key = `${language} ${(ref.script as { cbor: string }).cbor}`;
  const known = referenceScripts.get(key);
  if (known) return known;
  const script = plutusScriptFromAny((ref.script as { cbor: string }).cbor, language);
  const found = { hash: script.hash().to_hex(), size: referenceScriptSize(ref) };
  if (referenceScripts.size >= REFERENCE_SCRIPTS_KEPT) referenceScripts.clear();
  referenceScripts.set(key, found);
  return found;
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

/** What the build steps share: the CSL builder and what earlier steps decided. */
interface BuildContext {
  readonly spec: TxSpec;
  readonly tb: CSL.TransactionBuilder;
  readonly budgets: ReadonlyMap<PurposeKey, ExUnitsBudget>;
  /** outputs spent explicitly (kept out of coin selection) */
  readonly spent: Set<string>;
  /** outputs already referenced as a script source (not added again as plain reference inputs) */
  readonly scriptReferences: Set<string>;
  hasPlutus: boolean;
  inputCount: number;
}

/** A Plutus witness for a purpose without a datum: the script attached, or read from its reference input. */
function plutusWitness(ctx: BuildContext, w: PlutusScriptWitness, red: CSL.Redeemer): CSL.PlutusWitness {
  const src = plutusSource(w);
  if ("referenceUtxo" in w) ctx.scriptReferences.add(outRefKey(outRefOf(w.referenceUtxo)));
  ctx.hasPlutus = true;
  return src.attached
    ? CSL.PlutusWitness.new_without_datum(src.attached, red)
    : CSL.PlutusWitness.new_with_ref_without_datum(src.source, red);
}

/** Step 1: key inputs and script inputs (with their redeemers, and the datum of a datum-hash output). */
function addInputs(ctx: BuildContext): void {
  const inputs = CSL.TxInputsBuilder.new();
  for (const u of ctx.spec.keyInputs ?? []) {
    inputs.add_regular_utxo(utxoFromOgmios(u));
    ctx.spent.add(outRefKey(outRefOf(u)));
  }
  for (const s of ctx.spec.scriptInputs ?? []) {
    const ref = outRefOf(s.utxo);
    const red = redeemer(CSL.RedeemerTag.new_spend(), s.redeemer, budgetFor(ctx.spec, spendKey(ref.txHash, ref.index), ctx.budgets));
    let witness: CSL.PlutusWitness;
    if (s.utxo.datum || !s.utxo.datumHash) {
      witness = plutusWitness(ctx, s.script, red);
    } else {
      if (!s.datum) throw new CslError("TX_BUILD_FAILED", "UTxO is locked by a datum hash; the datum is required", { ...ref });
      const src = plutusSource(s.script);
      if ("referenceUtxo" in s.script) ctx.scriptReferences.add(outRefKey(outRefOf(s.script.referenceUtxo)));
      const datum = CSL.PlutusData.from_hex(s.datum);
      witness = src.attached
        ? CSL.PlutusWitness.new(src.attached, datum, red)
        : CSL.PlutusWitness.new_with_ref(src.source, CSL.DatumSource.new(datum), red);
      ctx.hasPlutus = true;
    }
    inputs.add_plutus_script_utxo(utxoFromOgmios(s.utxo), witness);
    ctx.spent.add(outRefKey(ref));
  }
  ctx.inputCount = inputs.len();
  if (inputs.len() > 0) ctx.tb.set_inputs(inputs);
}

/** Step 2: mints and burns, under native or Plutus policies. */
function addMints(ctx: BuildContext): void {
  if (!ctx.spec.mints || ctx.spec.mints.length === 0) return;
  const mb = CSL.MintBuilder.new();
  for (const m of ctx.spec.mints) {
    let witness: CSL.MintWitness;
    if (m.policy.language === "native") {
      witness = CSL.MintWitness.new_native_script(CSL.NativeScriptSource.new(CSL.NativeScript.from_hex(m.policy.cbor)));
    } else {
      const src = plutusSource(m.policy);
      if ("referenceUtxo" in m.policy) ctx.scriptReferences.add(outRefKey(outRefOf(m.policy.referenceUtxo)));
      witness = CSL.MintWitness.new_plutus_script(
        src.source,
        redeemer(CSL.RedeemerTag.new_mint(), m.redeemer, budgetFor(ctx.spec, mintKey(src.hash), ctx.budgets)),
      );
      ctx.hasPlutus = true;
    }
    for (const [name, qty] of Object.entries(m.assets)) {
      mb.add_asset(witness, CSL.AssetName.new(Buffer.from(name, "hex")), CSL.Int.from_str(qty.toString()));
    }
  }
  ctx.tb.set_mint_builder(mb);
}

/** Step 3: withdrawals (the withdraw-zero certificate carrier among them). */
function addWithdrawals(ctx: BuildContext): void {
  if (!ctx.spec.withdrawals || ctx.spec.withdrawals.length === 0) return;
  const wb = CSL.WithdrawalsBuilder.new();
  for (const w of ctx.spec.withdrawals) {
    const ra = CSL.RewardAddress.from_address(CSL.Address.from_bech32(w.rewardAddress));
    if (!ra) throw new CslError("INVALID_ADDRESS", "not a reward address", { address: w.rewardAddress });
    const coin = bn(w.lovelace ?? 0n, "withdrawal");
    if (w.script) {
      const red = redeemer(CSL.RedeemerTag.new_reward(), w.redeemer, budgetFor(ctx.spec, withdrawKey(w.rewardAddress), ctx.budgets));
      wb.add_with_plutus_witness(ra, coin, plutusWitness(ctx, w.script, red));
    } else {
      wb.add(ra, coin);
    }
  }
  ctx.tb.set_withdrawals_builder(wb);
}

/** Step 4: stake (de)registration of script credentials, with explicit deposits (Conway). */
function addStakeCertificates(ctx: BuildContext): void {
  if (!ctx.spec.certificates || ctx.spec.certificates.length === 0) return;
  const cb = CSL.CertificatesBuilder.new();
  for (const c of ctx.spec.certificates) {
    const hash = policyIdOf(c.script);
    const cred = CSL.Credential.from_scripthash(CSL.ScriptHash.from_hex(hash));
    const deposit = bn(c.deposit, "deposit");
    const cert =
      c.kind === "register"
        ? CSL.Certificate.new_reg_cert(CSL.StakeRegistration.new_with_explicit_deposit(cred, deposit))
        : CSL.Certificate.new_unreg_cert(CSL.StakeDeregistration.new_with_explicit_refund(cred, deposit));
    const red = redeemer(CSL.RedeemerTag.new_cert(), c.redeemer, budgetFor(ctx.spec, publishKey(c.kind, hash), ctx.budgets));
    cb.add_with_plutus_witness(cert, plutusWitness(ctx, c.script, red));
  }
  ctx.tb.set_certs_builder(cb);
}

/** Step 5: reference inputs, outputs, required signers, validity interval and metadata. */
function addBodyFields(ctx: BuildContext): void {
  const { spec, tb } = ctx;
  for (const r of spec.referenceInputs ?? []) {
    if (ctx.scriptReferences.has(outRefKey(outRefOf(r)))) continue; // already referenced through its script source
    tb.add_reference_input(transactionInput(outRefOf(r)));
  }
  const coinsPerByte = BigInt(spec.protocolParameters.minUtxoDepositCoefficient);
  for (const o of spec.outputs ?? []) tb.add_output(outputFrom(o, coinsPerByte));
  for (const h of spec.requiredSigners ?? []) tb.add_required_signer(CSL.Ed25519KeyHash.from_hex(h));
  if (spec.validityStartSlot !== undefined) tb.set_validity_start_interval_bignum(bn(spec.validityStartSlot, "validityStartSlot"));
  if (spec.ttlSlot !== undefined) tb.set_ttl_bignum(bn(spec.ttlSlot, "ttlSlot"));
  if (spec.metadata) tb.set_auxiliary_data(auxiliaryDataFrom(spec.metadata));
}

/** Step 6: collateral (for Plutus), coin selection from `utxos`, change, and the script data hash. */
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
  addInputs(ctx);
  addMints(ctx);
  addWithdrawals(ctx);
  addStakeCertificates(ctx);
  addBodyFields(ctx);
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
