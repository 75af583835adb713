// Hand-built test transactions for the devnet's rule tests. Negative tests need bodies CSL's builder refuses to make
// (outputs below min-UTxO, wrong network, zeroed script_data_hash…), so these helpers assemble bodies directly.
// Keys are generated per run; nothing secret is stored.
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { ogmiosProtocolParameters } from "../../../shared/devnet/protocol-parameters";

export const bn = (n: bigint | number): CSL.BigNum => CSL.BigNum.from_str(n.toString());

export interface TestKey {
  sk: CSL.PrivateKey;
  keyHash: string;
  address: string;
}

export function newKey(networkId = 0): TestKey {
  const sk = CSL.PrivateKey.generate_ed25519();
  const hash = sk.to_public().hash();
  return { sk, keyHash: hash.to_hex(), address: CSL.EnterpriseAddress.new(networkId, CSL.Credential.from_keyhash(hash)).to_address().to_bech32(undefined) };
}

/** A key with a stake credential: base address + reward address. */
export function newStakingKey(): TestKey & { stakeSk: CSL.PrivateKey; stakeKeyHash: string; rewardAddress: string } {
  const sk = CSL.PrivateKey.generate_ed25519();
  const stakeSk = CSL.PrivateKey.generate_ed25519();
  const pay = CSL.Credential.from_keyhash(sk.to_public().hash());
  const stake = CSL.Credential.from_keyhash(stakeSk.to_public().hash());
  return {
    sk,
    stakeSk,
    keyHash: sk.to_public().hash().to_hex(),
    stakeKeyHash: stakeSk.to_public().hash().to_hex(),
    address: CSL.BaseAddress.new(0, pay, stake).to_address().to_bech32(undefined),
    rewardAddress: CSL.RewardAddress.new(0, stake).to_address().to_bech32(undefined),
  };
}

export function plutusV3(singleWrappedHex: string): CSL.PlutusScript {
  return CSL.PlutusScript.new_v3(new Uint8Array(Buffer.from(singleWrappedHex, "hex")));
}

export function scriptAddress(script: CSL.PlutusScript | CSL.NativeScript): string {
  return CSL.EnterpriseAddress.new(0, CSL.Credential.from_scripthash(script.hash())).to_address().to_bech32(undefined);
}

export interface OutRef {
  txId: string;
  index: number;
}

export interface OutputSpec {
  address: string;
  lovelace: bigint;
  datumHashOf?: CSL.PlutusData;
  inlineDatum?: CSL.PlutusData;
  scriptRef?: CSL.PlutusScript;
  assets?: { policy: string; name: string; quantity: bigint }[];
}

export interface RedeemerSpec {
  tag: "spend" | "mint" | "reward" | "cert";
  index: number;
  data: CSL.PlutusData;
  memory: number;
  cpu: number;
}

export interface TxSpec {
  inputs: OutRef[];
  outputs: OutputSpec[];
  fee: bigint;
  ttl?: number;
  validFrom?: number;
  collateral?: OutRef[];
  collateralReturn?: OutputSpec;
  totalCollateral?: bigint;
  referenceInputs?: OutRef[];
  withdrawals?: { rewardAddress: string; lovelace: bigint }[];
  stakeRegistrations?: string[];
  mint?: { policy: string; name: string; quantity: bigint }[];
  requiredSigners?: string[];
  signers: CSL.PrivateKey[];
  plutusScripts?: CSL.PlutusScript[];
  nativeScripts?: CSL.NativeScript[];
  datums?: CSL.PlutusData[];
  redeemers?: RedeemerSpec[];
  /** Override the computed script_data_hash (hex; all-zero to break it). Computed automatically when redeemers exist. */
  scriptDataHash?: string;
  isValid?: boolean;
  /** Add an extra (garbage) signature made with a wrong message, for the bad-signature rule. */
  corruptSignature?: boolean;
}

const input = (r: OutRef) => CSL.TransactionInput.new(CSL.TransactionHash.from_hex(r.txId), r.index);

function inputs(refs: OutRef[]): CSL.TransactionInputs {
  const list = CSL.TransactionInputs.new();
  refs.forEach((r) => list.add(input(r)));
  return list;
}

function output(spec: OutputSpec): CSL.TransactionOutput {
  const value = CSL.Value.new(bn(spec.lovelace));
  if (spec.assets?.length) {
    const ma = CSL.MultiAsset.new();
    for (const a of spec.assets) ma.set_asset(CSL.ScriptHash.from_hex(a.policy), CSL.AssetName.new(Buffer.from(a.name, "hex")), bn(a.quantity));
    value.set_multiasset(ma);
  }
  const out = CSL.TransactionOutput.new(CSL.Address.from_bech32(spec.address), value);
  if (spec.datumHashOf) out.set_data_hash(CSL.hash_plutus_data(spec.datumHashOf));
  if (spec.inlineDatum) out.set_plutus_data(spec.inlineDatum);
  if (spec.scriptRef) out.set_script_ref(CSL.ScriptRef.new_plutus_script(spec.scriptRef));
  return out;
}

/**
 * Cost models of the languages a transaction uses (V3 only here), taken from the ADVERTISED protocol parameters —
 * so every accepted script transaction proves the advertised models are the ones the rule engine hashes.
 */
export function costModelsV3(): CSL.Costmdls {
  const models = CSL.Costmdls.new();
  const model = CSL.CostModel.new();
  const advertised = ogmiosProtocolParameters().plutusCostModels?.["plutus:v3"] ?? [];
  advertised.forEach((v, i) => model.set(i, v < 0 ? CSL.Int.new_negative(bn(-v)) : CSL.Int.new(bn(v))));
  models.insert(CSL.Language.new_plutus_v3(), model);
  return models;
}

const TAGS = { spend: CSL.RedeemerTag.new_spend, mint: CSL.RedeemerTag.new_mint, reward: CSL.RedeemerTag.new_reward, cert: CSL.RedeemerTag.new_cert };

/** Builds and signs a transaction exactly as specified (no balancing: the spec must balance). */
export function buildTx(spec: TxSpec): string {
  const outs = CSL.TransactionOutputs.new();
  spec.outputs.forEach((o) => outs.add(output(o)));
  const body = CSL.TransactionBody.new_tx_body(inputs(spec.inputs), outs, bn(spec.fee));
  if (spec.ttl !== undefined) body.set_ttl(bn(spec.ttl));
  if (spec.validFrom !== undefined) body.set_validity_start_interval_bignum(bn(spec.validFrom));
  if (spec.collateral) body.set_collateral(inputs(spec.collateral));
  if (spec.collateralReturn) body.set_collateral_return(output(spec.collateralReturn));
  if (spec.totalCollateral !== undefined) body.set_total_collateral(bn(spec.totalCollateral));
  if (spec.referenceInputs) body.set_reference_inputs(inputs(spec.referenceInputs));
  if (spec.withdrawals) {
    const w = CSL.Withdrawals.new();
    for (const x of spec.withdrawals) w.insert(CSL.RewardAddress.from_address(CSL.Address.from_bech32(x.rewardAddress))!, bn(x.lovelace));
    body.set_withdrawals(w);
  }
  if (spec.stakeRegistrations) {
    const certs = CSL.Certificates.new();
    for (const rewardAddress of spec.stakeRegistrations) {
      const cred = CSL.RewardAddress.from_address(CSL.Address.from_bech32(rewardAddress))!.payment_cred();
      certs.add(CSL.Certificate.new_stake_registration(CSL.StakeRegistration.new(cred)));
    }
    body.set_certs(certs);
  }
  if (spec.mint) {
    const mint = CSL.Mint.new();
    for (const m of spec.mint) {
      const assets = CSL.MintAssets.new();
      assets.insert(CSL.AssetName.new(Buffer.from(m.name, "hex")), m.quantity < 0n ? CSL.Int.new_negative(bn(-m.quantity)) : CSL.Int.new(bn(m.quantity)));
      mint.insert(CSL.ScriptHash.from_hex(m.policy), assets);
    }
    body.set_mint(mint);
  }
  if (spec.requiredSigners) {
    const signers = CSL.Ed25519KeyHashes.new();
    spec.requiredSigners.forEach((h) => signers.add(CSL.Ed25519KeyHash.from_hex(h)));
    body.set_required_signers(signers);
  }
  const witnesses = CSL.TransactionWitnessSet.new();
  if (spec.plutusScripts?.length) {
    const list = CSL.PlutusScripts.new();
    spec.plutusScripts.forEach((s) => list.add(s));
    witnesses.set_plutus_scripts(list);
  }
  if (spec.nativeScripts?.length) {
    const list = CSL.NativeScripts.new();
    spec.nativeScripts.forEach((s) => list.add(s));
    witnesses.set_native_scripts(list);
  }
  let datums: CSL.PlutusList | undefined;
  if (spec.datums?.length) {
    datums = CSL.PlutusList.new();
    spec.datums.forEach((d) => datums!.add(d));
    witnesses.set_plutus_data(CSL.PlutusList.from_bytes(datums.to_bytes()));
  }
  if (spec.redeemers?.length) {
    const redeemers = CSL.Redeemers.new();
    for (const r of spec.redeemers) {
      redeemers.add(CSL.Redeemer.new(TAGS[r.tag](), bn(r.index), r.data, CSL.ExUnits.new(bn(r.memory), bn(r.cpu))));
    }
    witnesses.set_redeemers(redeemers);
    const hash = CSL.hash_script_data(CSL.Redeemers.from_bytes(redeemers.to_bytes()), costModelsV3(), datums ? CSL.PlutusList.from_bytes(datums.to_bytes()) : undefined);
    body.set_script_data_hash(hash);
  }
  if (spec.scriptDataHash !== undefined) body.set_script_data_hash(CSL.ScriptDataHash.from_hex(spec.scriptDataHash));
  const txHash = CSL.FixedTransaction.new_from_body_bytes(body.to_bytes()).transaction_hash();
  const vkeys = CSL.Vkeywitnesses.new();
  for (const sk of spec.signers) vkeys.add(CSL.make_vkey_witness(txHash, sk));
  if (spec.corruptSignature) {
    const sk = spec.signers[0]!;
    const wrong = CSL.make_vkey_witness(CSL.TransactionHash.from_bytes(new Uint8Array(32).fill(9)), sk);
    const fresh = CSL.Vkeywitnesses.new();
    fresh.add(wrong);
    witnesses.set_vkeys(fresh);
  } else if (vkeys.len() > 0) {
    witnesses.set_vkeys(vkeys);
  }
  const fixed = CSL.FixedTransaction.new(body.to_bytes(), witnesses.to_bytes(), spec.isValid ?? true);
  return fixed.to_hex();
}

const PRICES = CSL.ExUnitPrices.new(CSL.UnitInterval.new(bn(577), bn(10_000)), CSL.UnitInterval.new(bn(721), bn(10_000_000)));

/**
 * The ledger's minimum fee of a built transaction, computed from the ADVERTISED protocol parameters:
 * a·(size − 1) + b (the ledger sizes a transaction without its is_valid byte) plus the script execution fee.
 */
export function ledgerMinFee(txHex: string, referenceScriptBytes = 0): bigint {
  const p = ogmiosProtocolParameters();
  const size = BigInt(txHex.length / 2 - 1);
  const tx = CSL.Transaction.from_hex(txHex);
  const scriptFee = BigInt(CSL.min_script_fee(tx, PRICES).to_str());
  // Reference scripts cost minFeeReferenceScripts.base per byte (first 25,600-byte tier; our scripts are tiny).
  const referenceFee = BigInt(Math.ceil((p.minFeeReferenceScripts?.base ?? 0) * referenceScriptBytes));
  return BigInt(p.minFeeCoefficient) * size + p.minFeeConstant.ada.lovelace + scriptFee + referenceFee;
}

/**
 * Builds `spec` with a fee that is exactly the ledger minimum plus `delta` (re-building until the size is stable);
 * `make` returns the spec for a given fee (e.g. adjusting the change output); `referenceScriptBytes` is the size of
 * the scripts reached through reference inputs.
 */
export function buildWithMinFee(make: (fee: bigint) => TxSpec, delta = 0n, referenceScriptBytes = 0): { hex: string; fee: bigint } {
  let fee = 200_000n;
  for (let i = 0; i < 6; i++) {
    const hex = buildTx(make(fee));
    const needed = ledgerMinFee(hex, referenceScriptBytes) + delta;
    if (needed === fee) return { hex, fee };
    fee = needed;
  }
  throw new Error("fee did not converge");
}

export const intData = (n: number | bigint) => CSL.PlutusData.new_integer(CSL.BigInt.from_str(n.toString()));
