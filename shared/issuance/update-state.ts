/**
 * UPDATE_STATE (docs/protocol.md#update_state): spend the state output (the pending one when a submitted transaction
 * produced it) and re-create it at the same address with the same value, the new certificate hash and
 * countdown − 1; fee shares when due on the spent countdown.
 */
import type { OgmiosUtxo } from "../csl/utxo";
import { certificateDataHash, encodeStateDatum, type OnchainCertificate, type StateDatum } from "../protocol";
import type { BuildSpec } from "./evaluated-build";
import type { LiveProtocol } from "./live-protocol";
import { feeOutputSpecs, proxySpend, stateWithdrawal, tokenOutput } from "./protocol-parts";
import type { ValidityWindow } from "./validity-window";

/** What every certificate transaction is built from, whether it updates a state or forks a new one. */
export interface CertificateTxInput {
  live: LiveProtocol;
  address: string;
  certificates: readonly OnchainCertificate[];
  payable: readonly OgmiosUtxo[];
  collateral: OgmiosUtxo;
  window: ValidityWindow;
  networkId: number;
}

export interface UpdateInput extends CertificateTxInput {
  state: { utxo: OgmiosUtxo; datum: StateDatum };
}

function nextStateDatum(cur: StateDatum, certificates: readonly OnchainCertificate[]): StateDatum {
  return { ...cur, countdown: cur.countdown - 1n, certificateDataHash: certificateDataHash(certificates) };
}

export function updateSpec(u: UpdateInput): BuildSpec {
  const cur = u.state.datum;
  return {
    utxos: u.payable,
    changeAddress: u.address,
    referenceInputs: [u.live.pointer],
    scriptInputs: [proxySpend(u.live, u.state.utxo)],
    withdrawals: [stateWithdrawal(u.live, "UPDATE_STATE", u.certificates)],
    outputs: [
      // at the spent state's own address: the validator requires the whole address (stake part too) to stay
      tokenOutput(
        u.live,
        cur.id,
        encodeStateDatum(nextStateDatum(cur, u.certificates)),
        BigInt(u.state.utxo.value.ada.lovelace),
        u.state.utxo.address,
      ),
      ...feeOutputSpecs(cur, cur.countdown, u.networkId),
    ],
    requiredSigners: [...new Set([cur.owner, ...u.certificates.map((c) => c.issuer)])],
    collateral: [u.collateral],
    validityStartSlot: u.window.validityStartSlot,
    ttlSlot: u.window.ttlSlot,
  };
}
