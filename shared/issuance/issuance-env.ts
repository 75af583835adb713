/**
 * What the builders need, injected: the chain, the in-flight registry, the indexer's view of the protocol, the
 * deployment parameters, the clock. The service wires these; tests and the benchmark build them directly.
 */
import type { ChainClient } from "../chain";
import type { ProtocolParameters } from "../csl/protocol-parameters";
import type { BootstrapInfo, LibraryEntry, PointerInfo, StateInfo } from "../records/protocol-records";
import type { InflightRegistry } from "../inflight";
import type { NetworkId, ProtocolScripts } from "../protocol";
import type { SlotClock } from "./slot-clock";

/** The indexer's confirmed view (indexer.states / bootstraps / protocol). */
export interface ProtocolSource {
  states(filter: { owner?: string; id?: string }): Promise<StateInfo[]>;
  bootstraps(filter: { name?: string }): Promise<BootstrapInfo[]>;
  protocol(): Promise<{ pointer: PointerInfo | null; library: LibraryEntry[] }>;
}

export interface Deployment {
  scripts: ProtocolScripts;
  oneShot: { txHash: string; index: number };
  bootstrapAdministrators: readonly string[];
  serviceKeyHash: string;
}

export interface IssuanceEnv {
  chain: ChainClient;
  registry: InflightRegistry;
  source: ProtocolSource;
  /** null: no deployment configured (only `init` without configuration can work) */
  deployment: Deployment | null;
  networkId: NetworkId;
  now: () => number;
  slots: SlotClock;
  protocolParameters(): Promise<ProtocolParameters>;
  /** ex-units of earlier builds by shape (evaluated-build.ts), so a steady flow needs one evaluation per build */
  budgetHints?: Map<string, Map<string, { memory: bigint; cpu: bigint }>>;
  /** learned about the chain's evaluator: does it resolve mempool outputs itself (our devnet) */
  evaluator?: { seesMempool: boolean };
  /** how long a build holds its inputs before it is submitted (default 30 s) */
  claimTtlMs?: number;
}
