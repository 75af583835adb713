/**
 * The store factory: picks the adapter from configuration and wraps it in the port's checks.
 * Precedence: `mongoUrl` → MongoDB; else the embedded `engine` (SQLite by default), in memory when `inMemory`,
 * else in files under `dataDir`.
 */
import { checkedStore } from "./checked-store";
import { openMongoStore } from "./mongo-store";
import { openNedbStore } from "./nedb-store";
import { openSqliteStore } from "./sqlite-store";
import type { Store } from "./types";

/** The embedded engines: SQLite keeps documents on disk, NeDB keeps every document in memory. */
export type EmbeddedEngine = "sqlite" | "nedb";

export const EMBEDDED_ENGINES: readonly EmbeddedEngine[] = ["sqlite", "nedb"];

export interface StoreConfig {
  /** The embedded engine (without `mongoUrl`). Default: `sqlite`. */
  engine?: EmbeddedEngine;
  /** `mongodb://…` / `mongodb+srv://…`: use MongoDB (production, several replicas). */
  mongoUrl?: string;
  /** Embedded store directory (single process). Default `./data`. */
  dataDir?: string;
  /** Embedded store in memory, nothing written (tests). */
  inMemory?: boolean;
  /** MongoDB database name (default: from the URL, else `cert_anchor`). */
  dbName?: string;
  /** NeDB: autocompaction interval in ms (default 10 min, minimum 5 s). */
  compactionIntervalMs?: number;
  /** MongoDB: how long to wait for a server at startup and per operation before `STORE_UNAVAILABLE` (ms). */
  serverSelectionTimeoutMS?: number;
}

export const DEFAULT_DATA_DIR = "./data";

/**
 * Opens the configured store. Call it from a service's `started()` and `close()` it in `stopped()`.
 * @throws StoreError `STORE_UNAVAILABLE` (MongoDB unreachable) or `DATA_DIR_LOCKED` (data directory in use)
 */
export async function createStore(config: StoreConfig): Promise<Store> {
  if (config.mongoUrl !== undefined && config.mongoUrl !== "") {
    return checkedStore(
      await openMongoStore({
        url: config.mongoUrl,
        ...(config.dbName !== undefined ? { dbName: config.dbName } : {}),
        ...(config.serverSelectionTimeoutMS !== undefined ? { serverSelectionTimeoutMS: config.serverSelectionTimeoutMS } : {}),
      }),
    );
  }
  if (config.inMemory === true) {
    return checkedStore(config.engine === "nedb" ? await openNedbStore({}) : await openSqliteStore({}));
  }
  if ((config.engine ?? "sqlite") === "sqlite") return checkedStore(await openSqliteStore({ dataDir: config.dataDir ?? DEFAULT_DATA_DIR }));
  return checkedStore(
    await openNedbStore({
      dataDir: config.dataDir ?? DEFAULT_DATA_DIR,
      ...(config.compactionIntervalMs !== undefined ? { compactionIntervalMs: config.compactionIntervalMs } : {}),
    }),
  );
}

/**
 * Reads the store configuration from the environment: `MONGO_URL`, `MONGO_DB`, `STORE_ENGINE`, `DATA_DIR`,
 * `STORE_IN_MEMORY=true`, `NEDB_COMPACTION_INTERVAL_MS`.
 */
export function readStoreConfig(env: Readonly<Record<string, string | undefined>>): StoreConfig {
  const config: StoreConfig = {};
  if (env.MONGO_URL) config.mongoUrl = env.MONGO_URL;
  if (env.MONGO_DB) config.dbName = env.MONGO_DB;
  if (env.STORE_ENGINE === "sqlite" || env.STORE_ENGINE === "nedb") config.engine = env.STORE_ENGINE;
  if (env.DATA_DIR) config.dataDir = env.DATA_DIR;
  if (env.STORE_IN_MEMORY === "true") config.inMemory = true;
  const interval = Number(env.NEDB_COMPACTION_INTERVAL_MS);
  if (env.NEDB_COMPACTION_INTERVAL_MS && Number.isFinite(interval)) config.compactionIntervalMs = interval;
  return config;
}
