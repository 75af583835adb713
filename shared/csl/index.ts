/**
 * The CSL facade: the one module that owns cardano-serialization-lib and its encoding traps
 * (see docs/architecture.md#csl). Everything here speaks hex, bigint and Ogmios JSON.
 */
export { CslError, type CslErrorType } from "./errors";
export { isHex, fromHex, toHex } from "./hex";
export { txBuilderConfig, costModels, collateralRules, type ProtocolParameters } from "./protocol-parameters";
export {
  detectScriptWrapping,
  singleWrapFlat,
  toSingleWrapped,
  flatOf,
  plutusScriptFromSingleWrapped,
  plutusScriptFromAny,
  plutusScriptHash,
  scriptAddress,
  scriptRewardAddress,
  type PlutusLanguage,
  type ScriptWrapping,
} from "./plutus-script";
export { nativeScriptFromOgmios, nativeScriptToOgmios, nativeScriptHash } from "./native-script";
export { valueFromOgmios, valueToOgmios, addAssets, type AssetMap, type OgmiosValue } from "./value";
export {
  utxoFromOgmios,
  utxosFromOgmios,
  outputFromOgmios,
  outputToOgmios,
  scriptRefFromOgmios,
  outRefOf,
  type OgmiosUtxo,
  type OgmiosOutput,
  type OgmiosScript,
} from "./utxo";
export { outRefKey, type OutRef } from "../domain/out-ref";
export { auxiliaryDataFrom, type Metadatum, type TxMetadata } from "./metadata";
export { outputFrom, type OutputSpec } from "./outputs";
export {
  buildTx,
  plutusPurposeKeys,
  policyIdOf,
  pickCollateral,
  type TxSpec,
  type BuiltTx,
  type ScriptInputSpec,
  type MintSpec,
  type WithdrawalSpec,
  type StakeCertificateSpec,
  type PlutusScriptWitness,
  type NativeScriptWitness,
  type RedeemerReport,
} from "./build-tx";
export { buildPayment, type PaymentSpec } from "./build-payment";
export { buildWithEvaluation, type EvaluateFn, type EvaluatedTx, type BuildWithEvaluationOptions } from "./build-with-evaluation";
export {
  spendKey,
  mintKey,
  withdrawKey,
  publishKey,
  purposeKeysByPointer,
  sortRewardAccounts,
  redeemersOf,
  evaluationByKey,
  evaluationByRedeemers,
  type PurposeKey,
  type ExUnitsBudget,
  type EvaluationItem,
  type RedeemerInfo,
  type RedeemerPurpose,
} from "./redeemer-pointers";
export { txIdOf, rawBodyOf, mergeWitnesses, vkeySignatures } from "./witnesses";
export { decodeTx, decodeTxFlow, decodeTxSpend, type DecodedTx, type TxFlow, type TxSpend } from "./decode";
export { scriptDataHash, expectedScriptDataHash, withoutWitnessEntries, stripVkeyWitnesses } from "./script-data";
