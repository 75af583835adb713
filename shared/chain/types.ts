/** Chain data types: the Ogmios v6 wire types, re-exported so that callers need no Ogmios import. */
import type { GenesisAlonzo, GenesisByron, GenesisConway, GenesisShelley, Utxo } from "@cardano-ogmios/schema";

export type {
  Block,
  EraSummary,
  GenesisAlonzo,
  GenesisByron,
  GenesisConway,
  GenesisShelley,
  Origin,
  Point,
  ProtocolParameters,
  Tip,
  Transaction,
  TransactionId,
  Utxo,
  MempoolSizeAndCapacity,
} from "@cardano-ogmios/schema";

/** One UTxO entry of `queryLedgerState/utxo`. */
export type UtxoEntry = Utxo[number];

export type { OutRef as OutputReference } from "../domain/out-ref";

/** Ogmios `evaluateTransaction` result item. */
export interface Evaluation {
  validator: { purpose: string; index: number };
  budget: { memory: number | bigint; cpu: number | bigint };
}

export interface GenesisByEra {
  byron: GenesisByron;
  shelley: GenesisShelley;
  alonzo: GenesisAlonzo;
  conway: GenesisConway;
}
