/**
 * The parts of a transaction body `buildTx` adds before balancing, one step each, in this order: inputs (key and
 * script), mints, withdrawals, stake certificates, then reference inputs, outputs, required signers, validity and
 * metadata. Each Plutus purpose gets its redeemer with the ex-units of its purpose key.
 */
import { outRefKey } from "../domain/out-ref";
import { CslError } from "./errors";
import { CSL } from "./lib";
import { auxiliaryDataFrom } from "./metadata";
import { bn } from "./numbers";
import { outputFrom } from "./outputs";
import { mintKey, publishKey, spendKey, withdrawKey, type ExUnitsBudget, type PurposeKey } from "./redeemer-pointers";
import { budgetFor, plutusWitness, policyIdOf, redeemer, usePlutusSource, type ScriptUse } from "./script-witnesses";
import type { TxSpec } from "./tx-spec";
import { outRefOf, transactionInput, utxoFromOgmios } from "./utxo";

/** What the build steps share: the CSL builder and what earlier steps decided. */
export interface BuildContext extends ScriptUse {
  readonly spec: TxSpec;
  readonly tb: CSL.TransactionBuilder;
  readonly budgets: ReadonlyMap<PurposeKey, ExUnitsBudget>;
  /** outputs spent explicitly (kept out of coin selection) */
  readonly spent: Set<string>;
  inputCount: number;
}

/** Adds every part of the body but the balance (collateral, coin selection, change). */
export function addBodyParts(ctx: BuildContext): void {
  addInputs(ctx);
  addMints(ctx);
  addWithdrawals(ctx);
  addStakeCertificates(ctx);
  addBodyFields(ctx);
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
      const src = usePlutusSource(ctx, s.script);
      const datum = CSL.PlutusData.from_hex(s.datum);
      witness = src.attached
        ? CSL.PlutusWitness.new(src.attached, datum, red)
        : CSL.PlutusWitness.new_with_ref(src.source, CSL.DatumSource.new(datum), red);
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
      const src = usePlutusSource(ctx, m.policy);
      witness = CSL.MintWitness.new_plutus_script(
        src.source,
        redeemer(CSL.RedeemerTag.new_mint(), m.redeemer, budgetFor(ctx.spec, mintKey(src.hash), ctx.budgets)),
      );
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
