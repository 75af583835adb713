/**
 * Transactions with a script-witnessed stake certificate (shared/csl's TxSpec has no certificates): registering
 * the state script's stake credential, which withdraw-zero needs, and (for the negative test) deregistering it.
 */
import { CSL } from "../../../shared/csl/lib";
import { bn } from "../../../shared/csl/numbers";
import { collateralRules, costModels, txBuilderConfig, type ProtocolParameters } from "../../../shared/csl/protocol-parameters";
import { pickCollateral } from "../../../shared/csl/build-tx";
import { referenceScriptSize, transactionInput, utxoFromOgmios, utxosFromOgmios } from "../../../shared/csl/utxo";
import type { OgmiosUtxo } from "../../../shared/devnet";
import type { Wallet } from "../../../shared/wallet";
import { signAll, type TestChain } from "./test-chain";

export type StakeCertificateKind = "register" | "deregister";

function buildCertificateTx(
  pp: ProtocolParameters,
  kind: StakeCertificateKind,
  scriptHash: string,
  scriptRef: OgmiosUtxo,
  payer: OgmiosUtxo[],
  changeAddress: string,
  exUnits: { memory: bigint; cpu: bigint },
): string {
  const tb = CSL.TransactionBuilder.new(txBuilderConfig(pp));
  const cred = CSL.Credential.from_scripthash(CSL.ScriptHash.from_hex(scriptHash));
  const deposit = bn(BigInt(pp.stakeCredentialDeposit.ada.lovelace));
  const cert =
    kind === "register"
      ? CSL.Certificate.new_reg_cert(CSL.StakeRegistration.new_with_explicit_deposit(cred, deposit))
      : CSL.Certificate.new_unreg_cert(CSL.StakeDeregistration.new_with_explicit_refund(cred, deposit));
  const source = CSL.PlutusScriptSource.new_ref_input(
    CSL.ScriptHash.from_hex(scriptHash),
    transactionInput({ txId: scriptRef.transaction.id, index: scriptRef.index }),
    CSL.Language.new_plutus_v3(),
    referenceScriptSize(scriptRef),
  );
  const redeemer = CSL.Redeemer.new(
    CSL.RedeemerTag.new_cert(),
    CSL.BigNum.zero(),
    CSL.PlutusData.new_empty_constr_plutus_data(CSL.BigNum.zero()),
    CSL.ExUnits.new(bn(exUnits.memory), bn(exUnits.cpu)),
  );
  const certs = CSL.CertificatesBuilder.new();
  certs.add_with_plutus_witness(cert, CSL.PlutusWitness.new_with_ref_without_datum(source, redeemer));
  tb.set_certs_builder(certs);
  const coll = CSL.TxInputsBuilder.new();
  coll.add_regular_utxo(utxoFromOgmios(pickCollateral(payer)!));
  tb.set_collateral(coll);
  tb.calc_script_data_hash(costModels(pp));
  tb.add_inputs_from_and_change_with_collateral_return(
    utxosFromOgmios(payer),
    CSL.CoinSelectionStrategyCIP2.LargestFirstMultiAsset,
    CSL.ChangeConfig.new(CSL.Address.from_bech32(changeAddress)),
    bn(collateralRules(pp).percentage),
  );
  return tb.build_tx().to_hex();
}

/** Builds (with evaluated ex-units) and signs a stake certificate tx for the script; `evaluate: false` skips evaluation. */
export async function stakeCertificateTx(
  chain: TestChain,
  kind: StakeCertificateKind,
  scriptHash: string,
  scriptRef: OgmiosUtxo,
  payer: Wallet,
  evaluate = true,
): Promise<string> {
  const pp = chain.devnet.protocolParameters() as unknown as ProtocolParameters;
  const utxos = chain.utxosAt(payer.address);
  const draft = { memory: 1_000_000n, cpu: 500_000_000n };
  let hex = buildCertificateTx(pp, kind, scriptHash, scriptRef, utxos, payer.address, draft);
  if (evaluate) {
    const [result] = await chain.devnet.evaluateTransaction(hex);
    hex = buildCertificateTx(pp, kind, scriptHash, scriptRef, utxos, payer.address, {
      memory: BigInt(result!.budget.memory),
      cpu: BigInt(result!.budget.cpu),
    });
  }
  return signAll(hex, [payer]);
}
