// The Ogmios wire types the devnet produces, taken from @cardano-ogmios/schema so the projection cannot drift.
import type { BlockPraos, ProtocolParameters, Transaction, TransactionOutput, Utxo } from "@cardano-ogmios/schema";

export type OgmiosBlock = BlockPraos;
export type OgmiosTransaction = Transaction;
export type OgmiosTransactionOutput = TransactionOutput;
export type OgmiosUtxo = Utxo[number];
export type OgmiosProtocolParameters = ProtocolParameters;
/** An output reference as Ogmios writes it. */
export interface OutputReference {
  transaction: { id: string };
  index: number;
}
