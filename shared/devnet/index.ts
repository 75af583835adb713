// Public surface of the embedded devnet (an Ogmios v6-compatible chain for development and tests).
export { Devnet, MEMPOOL_CAPACITY_BYTES, type DevnetOptions, type DevnetEvent, type DevnetPoint, type DevnetTip } from "./devnet";
export { DevnetError } from "./errors";
export { startDevnetServer, setOutgoingMessageObserver, type DevnetServer, type DevnetServerOptions } from "./server";
export type { OgmiosBlock, OgmiosProtocolParameters, OgmiosTransaction, OgmiosUtxo, OutputReference } from "./ogmios-types";
