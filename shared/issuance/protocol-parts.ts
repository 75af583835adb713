/** Transaction parts every protocol action shares: script witnesses from the library, redeemers, token outputs. */
import type { MintSpec, PlutusScriptWitness, ScriptInputSpec, WithdrawalSpec } from "../csl/build-tx";
import type { OutputSpec } from "../csl/outputs";
import type { OgmiosUtxo } from "../csl/utxo";
import { enterpriseAddressOfKeyHash } from "../csl/address";
import {
  dataToCborHex,
  encodeProxyRedeemer,
  encodeStateRedeemer,
  type Data,
  type OnchainCertificate,
  type StatePurpose,
} from "../protocol";
import { feeOutputs, type FeeTerms } from "../domain/fee-rule";
import type { LiveProtocol } from "./live-protocol";

export const proxyWitness = (live: LiveProtocol): PlutusScriptWitness => ({ language: "plutus:v3", referenceUtxo: live.proxyRef });

export function stateWithdrawal(live: LiveProtocol, purpose: StatePurpose, certificates: readonly OnchainCertificate[]): WithdrawalSpec {
  return {
    rewardAddress: live.stateRewardAddress,
    lovelace: 0n,
    script: { language: "plutus:v3", referenceUtxo: live.stateRef },
    redeemer: dataToCborHex(encodeStateRedeemer({ purpose, certificates })),
  };
}

export function proxyMint(live: LiveProtocol, assets: Record<string, bigint>): MintSpec {
  return { policy: proxyWitness(live), redeemer: dataToCborHex(encodeProxyRedeemer("USER")), assets };
}

export function proxySpend(live: LiveProtocol, utxo: OgmiosUtxo): ScriptInputSpec {
  return { utxo, script: proxyWitness(live), redeemer: dataToCborHex(encodeProxyRedeemer("USER")) };
}

/**
 * An output at the proxy address holding one proxy token and an inline datum; `address` keeps another address of
 * the proxy script (a state re-created where it was, stake part included).
 */
export function tokenOutput(live: LiveProtocol, tokenName: string, datum: Data, lovelace?: bigint, address?: string): OutputSpec {
  const scripts = live.deployment.scripts;
  return {
    address: address ?? scripts.proxy.address,
    assets: { [scripts.proxy.policyId]: { [tokenName]: 1n } },
    inlineDatum: dataToCborHex(datum),
    ...(lovelace !== undefined ? { lovelace } : {}),
  };
}

/** Fee shares at the receivers' enterprise addresses when a fee is due on spending `spentCountdown`. */
export function feeOutputSpecs(terms: FeeTerms, spentCountdown: bigint, networkId: number): OutputSpec[] {
  return feeOutputs(terms, spentCountdown).map((f) => ({
    address: enterpriseAddressOfKeyHash(f.keyHash, networkId),
    lovelace: f.lovelace,
  }));
}
