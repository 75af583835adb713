/**
 * Chain access for services: one client over Ogmios v6 (real node or our devnet). The only module that imports
 * @cardano-ogmios/client.
 */
export { createChainClient, type ChainClient, type ChainClientOptions, type ReconnectOptions } from "./chain-client";
export { ChainError, toChainError, type ChainErrorType } from "./errors";
export { OGMIOS_ERROR_NAMES } from "./ogmios-error-codes";
export { isUnknownInputsRejection } from "./ledger-rejection";
export type { ChainSyncHandler, ChainSyncOptions, ChainSyncState, ChainSyncSubscription } from "./chain-sync";
export type { MempoolMonitor, MempoolSnapshot, MempoolWatch, MempoolWatchHandler } from "./mempool";
export type * from "./types";
