// The Ogmios wire types the devnet produces, taken from @cardano-ogmios/schema so the projection cannot drift.
import type {
  Block,
  BlockPraos,
  PointOrOrigin,
  ProtocolParameters,
  TipOrOrigin,
  Transaction,
  TransactionOutput,
  Utxo,
} from "@cardano-ogmios/schema";

export type OgmiosBlock = BlockPraos;
export type OgmiosAnyBlock = Block;
export type OgmiosTransaction = Transaction;
export type OgmiosTransactionOutput = TransactionOutput;
export type OgmiosUtxo = Utxo[number];
export type OgmiosProtocolParameters = ProtocolParameters;
export type OgmiosPoint = PointOrOrigin;
export type OgmiosTip = TipOrOrigin;
/** An output reference as Ogmios writes it. */
export interface OutputReference {
  transaction: { id: string };
  index: number;
}
