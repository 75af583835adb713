/**
 * The SQLite adapter's connection: the database with the adapter's own tables, its prepared statements, and one
 * transaction at a time. `DatabaseSync` runs each call to completion before any other JavaScript, so a
 * read-modify-write inside `transaction` cannot interleave with another within the process.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";

/** Prepared statements kept per database (filters with many `$in` values make many texts: bounded). */
const STATEMENT_CACHE = 256;

export class SqliteDatabase {
  closed = false;
  private readonly statements = new Map<string, StatementSync>();
  private inTransaction = false;

  constructor(readonly db: DatabaseSync) {}

  /** A prepared statement, cached by its text. */
  statement(sql: string): StatementSync {
    let found = this.statements.get(sql);
    if (found === undefined) {
      if (this.statements.size >= STATEMENT_CACHE) this.statements.clear();
      found = this.db.prepare(sql);
      this.statements.set(sql, found);
    }
    return found;
  }

  /** Runs `work` in one transaction (joining the one running, if any); `onRollback` runs after a rollback. */
  transaction<R>(work: () => R, onRollback: () => void): R {
    if (this.inTransaction) return work();
    this.db.exec("BEGIN IMMEDIATE");
    this.inTransaction = true;
    try {
      const result = work();
      this.db.exec("COMMIT");
      return result;
    } catch (err) {
      this.db.exec("ROLLBACK");
      onRollback();
      throw err;
    } finally {
      this.inTransaction = false;
    }
  }
}

/**
 * Opens the database file (`:memory:` for none) in WAL mode with `synchronous=NORMAL` and the given page cache, with
 * the adapter's own tables: each collection's declared indexes, its multikey paths and its dictionaries.
 */
export function openDatabase(file: string, cacheKiB: number): SqliteDatabase {
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -${Math.max(1024, cacheKiB)};`);
  db.exec(
    "CREATE TABLE IF NOT EXISTS _store_indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name))",
  );
  db.exec("CREATE TABLE IF NOT EXISTS _store_multikey (collection TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (collection, path))");
  db.exec(
    "CREATE TABLE IF NOT EXISTS _store_dictionaries (collection TEXT NOT NULL, id INTEGER NOT NULL, dictionary BLOB NOT NULL, PRIMARY KEY (collection, id))",
  );
  return new SqliteDatabase(db);
}
