/** Wires an IssuanceEnv from the mesh's resources (the service's `started()`) or from a test's parts. */
import type { ChainClient } from "../chain";
import type { ProtocolParameters } from "../csl/protocol-parameters";
import type { ProtocolConfig } from "../config/config";
import { deploymentScripts, type NetworkId } from "../protocol";
import type { InflightRegistry } from "../inflight";
import type { Deployment, IssuanceEnv, ProtocolSource } from "./issuance-env";
import { loadSlotClock } from "./slot-clock";

const PROTOCOL_PARAMETERS_TTL_MS = 60_000;

function deploymentOf(protocol: ProtocolConfig | null, networkId: NetworkId): Deployment | null {
  if (!protocol) return null;
  const scripts = deploymentScripts(protocol, networkId);
  return {
    scripts,
    oneShot: protocol.proxyOneShot,
    bootstrapAdministrators: protocol.bootstrapAdministrators,
    serviceKeyHash: protocol.serviceKeyHash,
  };
}

export async function createIssuanceEnv(parts: {
  chain: ChainClient;
  registry: InflightRegistry;
  source: ProtocolSource;
  protocol: ProtocolConfig | null;
  networkId: NetworkId;
  now: () => number;
  claimTtlMs?: number;
}): Promise<IssuanceEnv> {
  const slots = await loadSlotClock(parts.chain);
  let cached: { at: number; pp: Promise<ProtocolParameters> } | undefined;
  return {
    chain: parts.chain,
    registry: parts.registry,
    source: parts.source,
    deployment: deploymentOf(parts.protocol, parts.networkId),
    networkId: parts.networkId,
    now: parts.now,
    slots,
    budgetHints: new Map(),
    ...(parts.claimTtlMs !== undefined ? { claimTtlMs: parts.claimTtlMs } : {}),
    protocolParameters() {
      const now = parts.now();
      if (!cached || now - cached.at > PROTOCOL_PARAMETERS_TTL_MS || now < cached.at) {
        const pp = parts.chain.protocolParameters() as Promise<ProtocolParameters>;
        cached = { at: now, pp };
        pp.catch(() => (cached = undefined));
      }
      return cached.pp;
    },
  };
}
