/**
 * The indexer's view of a protocol deployment: which addresses, policy and scripts are "ours". Derived from the
 * configured deployment parameters and the committed blueprint; without a deployment the view matches nothing,
 * so the indexer still records every transaction (confirmations, fees) but decodes no protocol facts.
 */
import type { ProtocolConfig } from "../mesh/config";
import { deriveProtocolScripts, loadBlueprint, type NetworkId } from "../protocol";
import type { ProtocolView } from "./protocol-decoder";

export function networkIdOf(network: string): NetworkId {
  return network === "mainnet" ? 1 : 0;
}

export function protocolViewOf(protocol: ProtocolConfig | null, networkId: NetworkId): ProtocolView {
  if (!protocol) {
    return { proxyPolicyId: "", proxyAddress: "", pointerTokenName: "", stateScriptHashes: new Set(), libraryAddress: "", libraryAdmin: "" };
  }
  const scripts = deriveProtocolScripts(loadBlueprint(), {
    proxyOneShot: protocol.proxyOneShot,
    bootstrapAdministrators: protocol.bootstrapAdministrators,
    libraryAdministrator: protocol.serviceKeyHash,
    networkId,
  });
  return {
    proxyPolicyId: scripts.proxy.policyId,
    proxyAddress: scripts.proxy.address,
    pointerTokenName: scripts.pointerTokenName,
    stateScriptHashes: new Set([scripts.state.hash]),
    libraryAddress: scripts.library.address,
    libraryAdmin: protocol.serviceKeyHash,
  };
}
