// The protocol parameters the devnet advertises. They must be exactly the ones the scalus 0.17.0 Emulator applies
// (its built-in mainnet Conway parameters, which the JS API does not let us change), or fees and script_data_hash
// computed by clients would disagree with the rule engine. Golden tests submit at exactly the minimum fee.
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import { PLUTUS_V1_COST_MODEL, PLUTUS_V2_COST_MODEL, PLUTUS_V3_COST_MODEL } from "./scalus-cost-models";

/** Plain-number view of the parameters the devnet code itself needs (bigint where lovelace). */
export const LEDGER_PARAMETERS = {
  minFeeCoefficient: 44n,
  minFeeConstant: 155_381n,
  coinsPerUtxoByte: 4_310n,
  maxTransactionSize: 16_384,
  maxBlockBodySize: 90_112,
  maxBlockHeaderSize: 1_100,
  maxValueSize: 5_000,
  stakeCredentialDeposit: 2_000_000n,
  stakePoolDeposit: 500_000_000n,
  collateralPercentage: 150,
  maxCollateralInputs: 3,
  priceMemory: { numerator: 577, denominator: 10_000 },
  priceCpu: { numerator: 721, denominator: 10_000_000 },
  maxExecutionUnitsPerTransaction: { memory: 16_500_000, cpu: 10_000_000_000 },
  maxExecutionUnitsPerBlock: { memory: 72_000_000, cpu: 20_000_000_000 },
  protocolVersion: { major: 10, minor: 0 },
} as const;

const half = (n: number) => `${n}/100`;

/** The Ogmios `queryLedgerState/protocolParameters` result. */
export function ogmiosProtocolParameters(): ProtocolParameters {
  const p = LEDGER_PARAMETERS;
  return {
    minFeeCoefficient: Number(p.minFeeCoefficient),
    minFeeConstant: { ada: { lovelace: p.minFeeConstant } },
    minFeeReferenceScripts: { range: 25_600, base: 15, multiplier: 1.2 },
    minUtxoDepositCoefficient: Number(p.coinsPerUtxoByte),
    minUtxoDepositConstant: { ada: { lovelace: 0n } },
    maxBlockBodySize: { bytes: p.maxBlockBodySize },
    maxBlockHeaderSize: { bytes: p.maxBlockHeaderSize },
    maxTransactionSize: { bytes: p.maxTransactionSize },
    maxValueSize: { bytes: p.maxValueSize },
    stakeCredentialDeposit: { ada: { lovelace: p.stakeCredentialDeposit } },
    stakePoolDeposit: { ada: { lovelace: p.stakePoolDeposit } },
    stakePoolRetirementEpochBound: 18,
    stakePoolPledgeInfluence: "3/10",
    minStakePoolCost: { ada: { lovelace: 170_000_000n } },
    desiredNumberOfStakePools: 500,
    monetaryExpansion: "3/1000",
    treasuryExpansion: "1/5",
    collateralPercentage: p.collateralPercentage,
    maxCollateralInputs: p.maxCollateralInputs,
    plutusCostModels: {
      "plutus:v1": [...PLUTUS_V1_COST_MODEL],
      "plutus:v2": [...PLUTUS_V2_COST_MODEL],
      "plutus:v3": [...PLUTUS_V3_COST_MODEL],
    },
    scriptExecutionPrices: {
      memory: `${p.priceMemory.numerator}/${p.priceMemory.denominator}`,
      cpu: `${p.priceCpu.numerator}/${p.priceCpu.denominator}`,
    },
    maxExecutionUnitsPerTransaction: { ...p.maxExecutionUnitsPerTransaction },
    maxExecutionUnitsPerBlock: { ...p.maxExecutionUnitsPerBlock },
    maxReferenceScriptsSize: { bytes: 204_800 },
    stakePoolVotingThresholds: {
      noConfidence: half(51),
      constitutionalCommittee: { default: half(51), stateOfNoConfidence: half(51) },
      hardForkInitiation: half(51),
      protocolParametersUpdate: { security: half(51) },
    },
    constitutionalCommitteeMinSize: 7,
    constitutionalCommitteeMaxTermLength: 146,
    governanceActionLifetime: 6,
    governanceActionDeposit: { ada: { lovelace: 100_000_000_000n } },
    delegateRepresentativeVotingThresholds: {
      noConfidence: half(67),
      constitutionalCommittee: { default: half(67), stateOfNoConfidence: half(60) },
      constitution: half(75),
      hardForkInitiation: half(60),
      protocolParametersUpdate: { network: half(67), economic: half(67), technical: half(67), governance: half(75) },
      treasuryWithdrawals: half(67),
    },
    delegateRepresentativeDeposit: { ada: { lovelace: 500_000_000n } },
    delegateRepresentativeMaxIdleTime: 20,
    version: { ...p.protocolVersion },
  } as unknown as ProtocolParameters;
}
