/**
 * The indexer's view of a protocol deployment: which addresses, policy and scripts are "ours". Derived from the
 * configured deployment parameters and the committed blueprint; without a deployment the view matches nothing,
 * so the indexer still records every transaction (confirmations, fees) but decodes no protocol facts.
 */
import type { ProtocolConfig } from "../config/config";
import { deploymentScripts, type NetworkId } from "../protocol";
import type { ProtocolView } from "./protocol-decoder";

export function protocolViewOf(protocol: ProtocolConfig | null, networkId: NetworkId): ProtocolView {
  if (!protocol) {
    return {
      proxyPolicyId: "",
      proxyAddress: "",
      pointerTokenName: "",
      stateScriptHashes: new Set(),
      libraryAddress: "",
      libraryAdmin: "",
    };
  }
  const scripts = deploymentScripts(protocol, networkId);
  return {
    proxyPolicyId: scripts.proxy.policyId,
    proxyAddress: scripts.proxy.address,
    pointerTokenName: scripts.pointerTokenName,
    stateScriptHashes: new Set([scripts.state.hash]),
    libraryAddress: scripts.library.address,
    libraryAdmin: protocol.serviceKeyHash,
  };
}
