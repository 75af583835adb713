/**
 * What `buildTx` is asked to build (`TxSpec`: plain data, hex, bigint and Ogmios JSON) and what it answers
 * (`BuiltTx`). Ex-units are given per purpose key (see redeemer-pointers.ts), never per redeemer index.
 */
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import type { OutRef } from "../domain/out-ref";
import type { TxMetadata } from "./metadata";
import type { OutputSpec } from "./outputs";
import type { PlutusLanguage } from "./plutus-script";
import type { ExUnitsBudget, PurposeKey } from "./redeemer-pointers";
import type { OgmiosUtxo } from "./utxo";

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
