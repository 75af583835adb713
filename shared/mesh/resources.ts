/**
 * The per-process shared resources behind `ServiceDeps.resources`: the store and the chain endpoint.
 * Both open LAZILY, on a service's first request, so a process that runs only the gateway never locks the
 * SQLite data directory or starts a devnet. `close()` releases whatever was opened (scripts/start.ts calls it
 * after the broker has stopped).
 *
 * Embedded mode: a SQLite file under DATA_DIR and an in-process devnet (Ogmios-compatible server on a free
 * loopback port) under DATA_DIR/devnet. Scale mode: MONGO_URL and OGMIOS_URL; a process with a transporter
 * refuses to start its own devnet, since every process would otherwise see a different chain.
 */
import { TypedError } from "../domain/errors";
import { join } from "node:path";
import type * as DevnetModule from "../devnet";
import type { Devnet, DevnetOptions } from "../devnet";
import type * as StoreModule from "../store";
import type { Store } from "../store";
import type { AppConfig, Network } from "../config/config";

export interface ChainEndpoint {
  /** Ogmios v6 WebSocket URL (the embedded devnet's, or OGMIOS_URL). */
  ogmiosUrl: string;
  network: Network;
  /** The in-process devnet when embedded (tests and tooling may drive it), else null. */
  devnet: Devnet | null;
}

export interface MeshResourceHandles {
  /** The store (SQLite under DATA_DIR, or MongoDB with MONGO_URL), opened on first call. */
  store(): Promise<Store>;
  /** The chain endpoint (OGMIOS_URL, or an embedded devnet started on first call). */
  chain(): Promise<ChainEndpoint>;
}

class ResourceError extends TypedError<"RESOURCE_UNAVAILABLE"> {
  override readonly name = "ResourceError";
  constructor(message: string) {
    super("RESOURCE_UNAVAILABLE", message);
  }
}

export interface MeshResourceOptions {
  /** Genesis funds of a NEW embedded devnet (an existing DATA_DIR/devnet keeps its own). */
  devnetGenesis?: DevnetOptions["genesis"];
  /** Block production interval of the embedded devnet (default 1000 ms). */
  devnetBlockTimeMs?: number;
}

/** Memoises an async opener; a failed open is retried on the next call. */
function once<T>(open: () => Promise<T>): { get(): Promise<T>; opened(): Promise<T> | null; value(): T | null } {
  let pending: Promise<T> | null = null;
  let value: T | null = null;
  return {
    get() {
      pending ??= open().then(
        (v) => (value = v),
        (err: unknown) => {
          pending = null;
          throw err;
        },
      );
      return pending;
    },
    opened: () => pending,
    value: () => value,
  };
}

export function createMeshResources(
  config: AppConfig,
  options: MeshResourceOptions = {},
): {
  resources: MeshResourceHandles;
  /** What has been opened so far (for the start banner). */
  opened(): { store: Store["kind"] | null; chain: ChainEndpoint | null };
  close(): Promise<void>;
} {
  const closers: Array<() => Promise<void>> = [];

  const store = once(async () => {
    // Required on first use: a gateway-only process never loads the store drivers.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createStore } = require("../store") as typeof StoreModule;
    const s = await createStore(config.mongoUrl !== null ? { mongoUrl: config.mongoUrl } : { dataDir: config.dataDir });
    closers.push(() => s.close());
    return s;
  });

  const chain = once(async (): Promise<ChainEndpoint> => {
    if (config.ogmiosUrl !== null) return { ogmiosUrl: config.ogmiosUrl, network: config.network, devnet: null };
    if (config.transporter !== null) {
      throw new ResourceError(
        "Scale mode (TRANSPORTER set) needs OGMIOS_URL: each process would otherwise run its own devnet. Run `npm run devnet` once and point OGMIOS_URL at it.",
      );
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Devnet, startDevnetServer } = require("../devnet") as typeof DevnetModule;
    const devnet = await Devnet.create({
      dataDir: join(config.dataDir, "devnet"),
      blockTimeMs: options.devnetBlockTimeMs ?? 1000,
      ...(options.devnetGenesis !== undefined ? { genesis: options.devnetGenesis } : {}),
    });
    const server = await startDevnetServer(devnet, { host: "127.0.0.1", port: 0 });
    closers.push(async () => {
      await server.close();
      await devnet.close();
    });
    return { ogmiosUrl: server.url, network: "devnet", devnet };
  });

  return {
    resources: { store: store.get, chain: chain.get },
    opened: () => ({ store: store.value()?.kind ?? null, chain: chain.value() }),
    async close() {
      // Wait for opens still in flight, then close in reverse order of opening.
      await Promise.allSettled([store.opened(), chain.opened()].filter((p) => p !== null));
      for (const close of closers.reverse()) await close();
      closers.length = 0;
    },
  };
}
