/**
 * What `npm start` does on the embedded devnet, in two halves around the broker start:
 * - `prepareDevnetFirstStart` (before): service wallet, genesis funds of a NEW chain, and the config with the
 *   deployment fixed up front (`protocol`, `serviceAddress`);
 * - `deployDefaultProtocol` (after the services started): init → deploy → default bootstrap.
 * Applies only to the embedded devnet (no OGMIOS_URL, no TRANSPORTER) without a configured deployment.
 */
import { join } from "node:path";
import { createChainClient, type ChainClient } from "../chain";
import type { OgmiosUtxo } from "../csl/utxo";
import { BlockLog } from "../devnet/block-log";
import type { AppConfig } from "../config/config";
import { InflightRegistry } from "../inflight";
import { loadSlotClock } from "../issuance/slot-clock";
import type { Store } from "../store";
import type { Wallet } from "../wallet";
import type { OwnTransactionPorts } from "../submission/own-transaction";
import { devnetProtocolConfig, genesisFundsWallet, serviceGenesisFunds, type GenesisFundSpec } from "./devnet-deployment";
import {
  defaultBootstrapTerms,
  deployProtocol,
  type DeploymentPorts,
  type DeploymentStepReport,
  type ProtocolSnapshot,
} from "./protocol-deployment";
import { loadOrCreateServiceWallet, type ServiceWallet } from "./service-wallet";

export type DevnetFirstStartPreparation =
  /** genesis: only `extraGenesis`, for a new embedded chain (other first-start funds, e.g. a faucet wallet) */
  | { kind: "not-applicable"; reason: string; config: AppConfig; genesis: GenesisFundSpec[] | undefined }
  | { kind: "ready"; config: AppConfig; service: ServiceWallet; genesis: GenesisFundSpec[] | undefined; newChain: boolean }
  | { kind: "unfunded-chain"; reason: string; config: AppConfig; service: ServiceWallet; genesis: undefined };

export function prepareDevnetFirstStart(config: AppConfig, extraGenesis: readonly GenesisFundSpec[] = []): DevnetFirstStartPreparation {
  if (config.ogmiosUrl !== null || config.transporter !== null)
    return { kind: "not-applicable", reason: "not the embedded devnet", config, genesis: undefined };
  const stored = new BlockLog(join(config.dataDir, "devnet")).readChain();
  const onlyExtra = stored || extraGenesis.length === 0 ? undefined : [...extraGenesis];
  if (config.protocol !== null)
    return { kind: "not-applicable", reason: "a deployment is configured (PROXY_TX_HASH)", config, genesis: onlyExtra };
  if (!config.devnetBootstrap) return { kind: "not-applicable", reason: "DEVNET_BOOTSTRAP=false", config, genesis: onlyExtra };
  const service = loadOrCreateServiceWallet({ dataDir: config.dataDir, mnemonic: config.serviceMnemonic });
  if (stored && !genesisFundsWallet(stored.genesis, service.wallet)) {
    return {
      kind: "unfunded-chain",
      reason: `the devnet chain in ${join(config.dataDir, "devnet")} was created without the service wallet at genesis; delete that folder to start a fresh chain with the protocol deployed`,
      config,
      service,
      genesis: undefined,
    };
  }
  const withDeployment: AppConfig = { ...config, protocol: devnetProtocolConfig(service.wallet), serviceAddress: service.wallet.address };
  // A stored chain keeps its own genesis (passing a different one would be refused).
  const genesis = stored ? undefined : [...serviceGenesisFunds(service.wallet), ...extraGenesis];
  return { kind: "ready", config: withDeployment, service, genesis, newChain: !stored };
}

/**
 * Ports of the bootstrap: builds and indexer reads go through the services; the service wallet's transactions go
 * to the chain and are recorded in the in-flight registry of `store` (the store the builders share).
 */
export function deploymentPortsFor(
  call: <T>(action: string, params?: Record<string, unknown>) => Promise<T>,
  ogmiosUrl: string,
  store: Store,
  now: () => number,
): DeploymentPorts & { close(): Promise<void> } {
  const client: ChainClient = createChainClient({ url: ogmiosUrl });
  let own: Promise<OwnTransactionPorts> | undefined;
  const openOwnTransactions = async (): Promise<OwnTransactionPorts> => {
    const [registry, slots] = await Promise.all([InflightRegistry.open(store, now), loadSlotClock(client)]);
    return { submit: (signed) => client.submit(signed), inflight: registry, slotToTime: (slot) => slots.timeOfSlot(slot), now };
  };
  return {
    build: (req) => call("tx-builder.build", { ...req }),
    ownTransactions: () => (own ??= openOwnTransactions()),
    protocol: () => call<ProtocolSnapshot>("indexer.protocol"),
    bootstrapNames: async () => (await call<Array<{ name: string }>>("indexer.bootstraps", {})).map((b) => b.name),
    utxosAt: async (address) => (await client.utxosByAddresses([address])) as unknown as OgmiosUtxo[],
    protocolParameters: () => client.protocolParameters(),
    now,
    pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    close: () => client.close(),
  };
}

/**
 * The deployment through the services (deploymentPortsFor): init → library → the free `default` bootstrap, paid and
 * signed by `wallet`; the step reports.
 */
export async function deployDefaultProtocol(
  call: <T>(action: string, params?: Record<string, unknown>) => Promise<T>,
  ogmiosUrl: string,
  store: Store,
  wallet: Wallet,
): Promise<DeploymentStepReport[]> {
  const ports = deploymentPortsFor(call, ogmiosUrl, store, Date.now);
  try {
    return await deployProtocol(ports, { wallet, bootstrapName: "default", bootstrapTerms: defaultBootstrapTerms(wallet) });
  } finally {
    await ports.close();
  }
}
