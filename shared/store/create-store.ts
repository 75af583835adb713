/**
 * The store factory: picks the adapter from configuration and wraps it in the port's checks.
 * Precedence: `mongoUrl` → MongoDB; else SQLite, in memory when `inMemory`, else in files under `dataDir`.
 */
import { checkedStore } from "./checked-store";
import { openMongoStore } from "./mongo-store";
import { openSqliteStore } from "./sqlite-store";
import type { Store } from "./types";

export interface StoreConfig {
  /** `mongodb://…` / `mongodb+srv://…`: use MongoDB (production, several replicas). */
  mongoUrl?: string;
  /** Embedded store directory (single process). Default `./data`. */
  dataDir?: string;
  /** Embedded store in memory, nothing written (tests). */
  inMemory?: boolean;
  /** MongoDB database name (default: from the URL, else `cert_anchor`). */
  dbName?: string;
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
  if (config.inMemory === true) return checkedStore(await openSqliteStore({}));
  return checkedStore(await openSqliteStore({ dataDir: config.dataDir ?? DEFAULT_DATA_DIR }));
}

/** Reads the store configuration from the environment: `MONGO_URL`, `MONGO_DB`, `DATA_DIR`, `STORE_IN_MEMORY=true`. */
export function readStoreConfig(env: Readonly<Record<string, string | undefined>>): StoreConfig {
  const config: StoreConfig = {};
  if (env.MONGO_URL) config.mongoUrl = env.MONGO_URL;
  if (env.MONGO_DB) config.dbName = env.MONGO_DB;
  if (env.DATA_DIR) config.dataDir = env.DATA_DIR;
  if (env.STORE_IN_MEMORY === "true") config.inMemory = true;
  return config;
}
