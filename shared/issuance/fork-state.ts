/**
 * MINT_STATE (fork, docs/protocol.md#mint_state): a new state for the owner from a bootstrap datum. The state id is
 * `stateIdOf` of a wallet input the transaction spends, the datum copies the bootstrap with
 * `countdown = transactionLimit − 1`, fee shares go to the receivers when due on the bootstrap's limit.
 */
import type { OgmiosUtxo } from "../csl/utxo";
import {
  certificateDataHash,
  encodeStateDatum,
  stateIdOf,
  type BootstrapDatum,
  type OnchainCertificate,
  type StateDatum,
} from "../protocol";
import type { BuildSpec } from "./evaluated-build";
import { feeOutputSpecs, proxyMint, stateWithdrawal, tokenOutput } from "./protocol-parts";
import type { CertificateTxInput } from "./update-state";

export interface ForkInput extends CertificateTxInput {
  bootstrap: { utxo: OgmiosUtxo; datum: BootstrapDatum };
  owner: string;
}

export function forkedStateDatum(boot: BootstrapDatum, owner: string, id: string, certificates: readonly OnchainCertificate[]): StateDatum {
  return {
    id,
    owner,
    fee: boot.fee,
    feeInterval: boot.feeInterval,
    feeReceivers: boot.feeReceivers,
    ttl: boot.ttl,
    countdown: boot.transactionLimit - 1n,
    certificateDataHash: certificateDataHash(certificates),
    batchSize: boot.batchSize,
    bootstrapDatumName: boot.tokenName,
    keepAsOracle: false,
  };
}

/** The largest payable UTxO names the state (it is spent, so the id is unique). */
export function forkSpec(f: ForkInput): { spec: BuildSpec; stateId: string } {
  const idSource = [...f.payable].sort((a, b) => (BigInt(b.value.ada.lovelace) > BigInt(a.value.ada.lovelace) ? 1 : -1))[0]!;
  const stateId = stateIdOf({ txHash: idSource.transaction.id, index: idSource.index });
  const boot = f.bootstrap.datum;
  const datum = forkedStateDatum(boot, f.owner, stateId, f.certificates);
  return {
    stateId,
    spec: {
      utxos: f.payable,
      keyInputs: [idSource],
      changeAddress: f.address,
      referenceInputs: [f.live.pointer, f.bootstrap.utxo],
      mints: [proxyMint(f.live, { [stateId]: 1n })],
      withdrawals: [stateWithdrawal(f.live, "MINT_STATE", f.certificates)],
      outputs: [tokenOutput(f.live, stateId, encodeStateDatum(datum)), ...feeOutputSpecs(boot, boot.transactionLimit, f.networkId)],
      requiredSigners: [...new Set([f.owner, ...f.certificates.map((c) => c.issuer)])],
      collateral: [f.collateral],
      validityStartSlot: f.window.validityStartSlot,
      ttlSlot: f.window.ttlSlot,
    },
  };
}
