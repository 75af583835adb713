import type { Network } from "./env-vars";

/** A Cardano address network id: 1 for mainnet, 0 for every test network. */
export type NetworkId = 0 | 1;

/** The address network id of a configured network: 1 on mainnet, 0 on every test network and the devnet. */
export function networkIdOfNetwork(network: Network): NetworkId {
  return network === "mainnet" ? 1 : 0;
}
