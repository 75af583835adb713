import type { NetworkId } from "../protocol";
import type { Network } from "./env-vars";

/** The address network id of a configured network: 1 on mainnet, 0 on every test network and the devnet. */
export function networkIdOfNetwork(network: Network): NetworkId {
  return network === "mainnet" ? 1 : 0;
}
