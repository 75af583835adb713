/**
 * SQLite adapter on Node's built-in `node:sqlite` (`DatabaseSync`): one database file `<dataDir>/store.sqlite`
 * (or `:memory:`), one table per collection `(_id TEXT PRIMARY KEY, doc BLOB, <one column per indexed path>)`.
 * Documents stay on disk: memory holds SQLite's page cache, not the dataset. Its parts:
 * - `sqlite-database.ts`: the connection, the adapter's own tables, prepared statements, transactions;
 * - `sqlite-table.ts`: a collection's table, its declared indexes and multikey paths, rows written and read;
 * - `sqlite-columns.ts`: each indexed path's column and the value it holds (what `json_extract` would give);
 * - `sqlite-document-body.ts`: the JSON text stored for a document (without `_id` and the strings columns hold);
 * - `sqlite-dictionaries.ts`: the dictionary a collection's documents are compressed with (`document-codec.ts`);
 * - `sqlite-narrowing.ts`: a filter translated to the SQL that narrows it;
 * - `sqlite-collection.ts`: the port's reads and writes.
 *
 * Atomicity and durability: `DatabaseSync` runs each call to completion before any other JavaScript, so
 * read-modify-write updates cannot interleave within the process; multi-row writes run in one transaction
 * (`insertMany` all-or-none, `updateMany`/`deleteMany` too). Journal mode WAL with `synchronous=NORMAL`: a
 * committed write survives a crash of the process, and the file is never corrupted, but the last
 * transactions before a power loss may be lost (chain-derived data is re-synced from the chain). One process per
 * data directory, enforced by a LOCK file (`data-dir-lock.ts`).
 */
import { join } from "node:path";
import { acquireDataDirLock } from "./data-dir-lock";
import { StoreError } from "./errors";
import { SqliteCollection } from "./sqlite-collection";
import { openDatabase, type SqliteDatabase } from "./sqlite-database";
// `port.*`: the store port's own types.
import type * as port from "./types";

export interface SqliteStoreOptions {
  /** Directory of `store.sqlite`; omit for an in-memory database. */
  dataDir?: string;
  /** SQLite page cache per store, in KiB (default 16 MiB). */
  cacheKiB?: number;
}

export const SQLITE_FILE = "store.sqlite";

/**
 * Opens a SQLite store (in memory without `dataDir`). Collections are created on first use.
 * @throws StoreError `DATA_DIR_LOCKED` when another live process or open store holds `dataDir`
 */
export async function openSqliteStore(options: SqliteStoreOptions = {}): Promise<port.Store> {
  const { dataDir } = options;
  const release = dataDir === undefined ? undefined : await acquireDataDirLock(dataDir);
  let database: SqliteDatabase;
  try {
    database = openDatabase(dataDir === undefined ? ":memory:" : join(dataDir, SQLITE_FILE), options.cacheKiB ?? 16_384);
  } catch (err) {
    await release?.();
    throw err;
  }
  const collections = new Map<string, SqliteCollection<port.StoredDocument>>();
  let closing: Promise<void> | undefined;
  return {
    kind: dataDir === undefined ? "sqlite-memory" : "sqlite-files",
    collection<T extends port.StoredDocument>(name: string): port.Collection<T> {
      if (database.closed) throw new StoreError("STORE_CLOSED", `store is closed (collection ${name})`, { collection: name });
      let found = collections.get(name);
      if (found === undefined) {
        found = new SqliteCollection(name, database);
        collections.set(name, found);
      }
      return found as unknown as port.Collection<T>;
    },
    close(): Promise<void> {
      closing ??= (async () => {
        database.closed = true;
        try {
          database.db.close();
        } finally {
          await release?.();
        }
      })();
      return closing;
    },
  };
}
