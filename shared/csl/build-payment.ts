/** A plain payment (optionally with metadata and a validity interval), balanced from the given UTxOs. */
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import { buildTx } from "./build-tx";
import type { TxMetadata } from "./metadata";
import type { OgmiosUtxo } from "./utxo";
import type { AssetMap } from "./value";

export interface PaymentSpec {
  protocolParameters: ProtocolParameters;
  utxos: readonly OgmiosUtxo[];
  changeAddress: string;
  outputs: ReadonlyArray<{ address: string; lovelace: bigint; assets?: AssetMap }>;
  validityStartSlot?: number | bigint;
  ttlSlot?: number | bigint;
  metadata?: TxMetadata;
}

/**
 * Unsigned payment tx. Fee covers one vkey witness per distinct input key.
 * @throws CslError INSUFFICIENT_FUNDS, OUTPUT_BELOW_MIN_UTXO, INVALID_ADDRESS
 */
export function buildPayment(spec: PaymentSpec): { cborHex: string; txId: string; fee: bigint } {
  const { cborHex, txId, fee } = buildTx({
    protocolParameters: spec.protocolParameters,
    utxos: spec.utxos,
    changeAddress: spec.changeAddress,
    outputs: spec.outputs,
    ...(spec.validityStartSlot !== undefined ? { validityStartSlot: spec.validityStartSlot } : {}),
    ...(spec.ttlSlot !== undefined ? { ttlSlot: spec.ttlSlot } : {}),
    ...(spec.metadata ? { metadata: spec.metadata } : {}),
  });
  return { cborHex, txId, fee };
}
