/**
 * The records services exchange about the protocol's on-chain state, as the indexer confirmed it: live user
 * states, bootstrap datums, the proxy pointer, the library's reference scripts, and seen transactions.
 * Plain JSON (amounts as decimal strings), so they cross NATS unchanged. The indexer produces them
 * (shared/indexer); builders, user actions and the library read them.
 */
import type { OutRef } from "../domain/out-ref";

/** A live user state: the latest `state.minted` / `state.updated` fact of its id. */
export interface StateInfo {
  type: "state.minted" | "state.updated";
  stateId: string;
  owner: string;
  countdown: string;
  fee: string;
  feeInterval: string;
  feeReceivers: string[];
  ttl: string;
  batchSize: string;
  bootstrapName: string;
  certificateDataHash: string;
  keepAsOracle: boolean;
  outRef: OutRef;
  /** the output's address: the proxy script's, with or without a stake part */
  address: string;
  lovelace: string;
}

/** A live bootstrap datum: the latest `bootstrap.minted` fact of its token. */
export interface BootstrapInfo {
  type: "bootstrap.minted";
  name: string;
  tokenName: string;
  allowedCredentials: string[];
  fee: string;
  feeInterval: string;
  feeReceivers: string[];
  ttl: string;
  transactionLimit: string;
  batchSize: string;
  outRef: OutRef;
}

/** The proxy pointer: which state script certificate transactions use now, and who may change it. */
export interface PointerInfo {
  scriptPointer: string;
  owner: string;
  outRef: OutRef;
}

/** A reference-script UTxO the library administrator deployed (spent ones included: check the chain). */
export interface LibraryEntry {
  scriptHash: string;
  language: string;
  outRef: OutRef;
  slot: number;
}

/** A transaction the indexer saw on chain (`_id` = transaction id): confirmations and fees. */
export interface TransactionRecord {
  _id: string;
  slot: number;
  blockId: string;
  height: number;
  time: number;
  /** lovelace */
  fee: string;
  valid: boolean;
}
