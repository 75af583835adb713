/**
 * A collection's table in the SQLite adapter, `(_id TEXT PRIMARY KEY, doc BLOB, <one column per indexed path>)`, and
 * what describes it: its declared indexes, its multikey paths and its dictionaries. Rows are written and read here
 * (the document's stored text, its column values, the checks SQLite cannot make); the queries are the collection's.
 *
 * Unique indexes: SQLite lets several rows share a NULL key, but the port counts a missing field (or null) as one key
 * unless the index is sparse, so a write whose key holds a null is checked against the other rows in the same
 * transaction. A sparse index is a partial index over rows with at least one non-NULL key column (a field holding
 * null is left out as an absent one is; both repeat freely in a sparse unique index). Unique indexes on array fields
 * compare whole arrays (MongoDB: each element); none is declared today.
 */
import type { SQLOutputValue, StatementSync } from "node:sqlite";
import { isPlainObject } from "./document-values";
import { DuplicateKeyError } from "./errors";
import { valuesAtPath } from "./query-language";
import { columnOf, columnValue, indexSql, reachesArray, sqlValue, type IndexMeta } from "./sqlite-columns";
import type { SqliteDatabase } from "./sqlite-database";
import { CollectionDictionaries } from "./sqlite-dictionaries";
import { bodyOf, documentOf, putBack, type Row } from "./sqlite-document-body";
// `port.*`: the store port's own types.
import type * as port from "./types";

/** Rows read per step when a new column is filled (bounds memory). */
const PAGE_ROWS = 1_000;

export class SqliteTable {
  /** The table's name, quoted. */
  readonly table: string;
  private indexes: IndexMeta[] = [];
  /** Indexed paths that hold (or pass through) an array somewhere: not narrowed in SQL. */
  private readonly multikey = new Set<string>();
  /** Paths with a column of their own (every path of a declared index but `_id`), in the table's column order. */
  columns: string[] = [];
  private readonly dictionaries: CollectionDictionaries;

  constructor(
    readonly name: string,
    private readonly database: SqliteDatabase,
  ) {
    this.table = `"${name}"`;
    this.dictionaries = new CollectionDictionaries(database, name, this.table);
    database.db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (_id TEXT PRIMARY KEY NOT NULL, doc BLOB NOT NULL)`);
    this.loadMeta();
  }

  /** Reads the declared indexes, multikey paths, columns and dictionaries (at open, and after a rolled-back transaction). */
  loadMeta(): void {
    this.indexes = this.sql("SELECT spec FROM _store_indexes WHERE collection = ?")
      .all(this.name)
      .map((row) => JSON.parse(row.spec as string) as IndexMeta);
    this.multikey.clear();
    for (const row of this.sql("SELECT path FROM _store_multikey WHERE collection = ?").all(this.name))
      this.multikey.add(row.path as string);
    this.columns = this.database.db
      .prepare(`PRAGMA table_info(${this.table})`)
      .all()
      .map((row) => row.name as string)
      .filter((column) => column.startsWith("@"))
      .map((column) => column.slice(1));
    this.dictionaries.load();
  }

  sql(text: string): StatementSync {
    return this.database.statement(text);
  }

  /** Whether a filter on `path` can be narrowed in SQL: `_id`, or a path with a column that never held an array. */
  narrowable(path: string): boolean {
    if (path === "_id") return true;
    return !this.multikey.has(path) && this.columns.includes(path);
  }

  /**
   * Whether a declared index gives rows in `order` (sort keys ending with `_id`, one direction throughout: the indexes
   * are ascending, read backwards for a descending order) once the filter fixes `equal` paths: its paths are some of
   * `equal`, then the order's. Equalities count only on paths SQL narrows, as only those reach the index.
   */
  servesOrder(order: readonly (readonly [string, number])[], equal: ReadonlySet<string>): boolean {
    if (order.some(([, direction]) => direction !== order[0]?.[1])) return false;
    return this.indexes.some((index) => {
      let at = 0;
      while (at < index.paths.length && equal.has(index.paths[at] as string) && this.narrowable(index.paths[at] as string)) at++;
      return order.every(([path], i) => index.paths[at + i] === path && (path === "_id" || !this.multikey.has(path)));
    });
  }

  /**
   * A document from its row (read with `columnsRead()`), `_id` first as written, each string its body left to an
   * indexed column (`bodyOf`) put back from that column.
   */
  toRow(r: Record<string, SQLOutputValue>): Row {
    const doc = documentOf(r._id as string, this.dictionaries.decode(r.doc as Uint8Array));
    if (this.columns.length > 0 && !Object.hasOwn(r, "c0")) throw new Error(`internal: a row of ${this.name} read without its columns`);
    for (let i = 0; i < this.columns.length; i++) {
      const value = r[`c${i}`];
      if (typeof value === "string") putBack(doc, this.columns[i] as string, value);
    }
    return doc;
  }

  /** The indexed columns every read selects for `toRow` (aliased `c0`, `c1`, … in `columns` order). */
  columnsRead(): string {
    return this.columns.map((path, i) => `, ${columnOf(path)} AS c${i}`).join("");
  }

  insertRow(doc: Row): void {
    const columns = this.columns.map((path) => `, ${columnOf(path)}`).join("");
    const values = this.columns.map((path) => columnValue(doc, path));
    try {
      this.sql(`INSERT INTO ${this.table} (_id, doc${columns}) VALUES (?, ?${", ?".repeat(values.length)})`).run(
        doc._id,
        this.dictionaries.encode(bodyOf(doc, this.columns, values)),
        ...values,
      );
    } catch (err) {
      throw isUniqueViolation(err) ? this.duplicate((err as Error).message) : err;
    }
    this.noteArrays(doc);
    this.checkNullKeys(doc);
    this.dictionaries.afterInsert();
  }

  replaceRow(doc: Row): void {
    const columns = this.columns.map((path) => `, ${columnOf(path)} = ?`).join("");
    const values = this.columns.map((path) => columnValue(doc, path));
    try {
      this.sql(`UPDATE ${this.table} SET doc = ?${columns} WHERE _id = ?`).run(
        this.dictionaries.encode(bodyOf(doc, this.columns, values)),
        ...values,
        doc._id,
      );
    } catch (err) {
      throw isUniqueViolation(err) ? this.duplicate((err as Error).message) : err;
    }
    this.noteArrays(doc);
    this.checkNullKeys(doc);
  }

  /**
   * Declares indexes (in the caller's transaction): a column per new path, filled from the stored documents, then the
   * index on the columns. Idempotent by name; the options of an existing index are kept.
   * @throws DuplicateKeyError when stored documents repeat the key of a new unique index
   */
  declareIndexes(specs: readonly port.IndexSpec[]): void {
    for (const spec of specs) {
      const paths = Object.keys(spec.fields);
      const name = `${this.name}__${paths.join("__")}`;
      if (this.indexes.some((index) => index.name === name)) continue;
      const meta: IndexMeta = { name, paths, unique: spec.unique === true, sparse: spec.sparse === true };
      this.addColumns(paths.filter((path) => path !== "_id" && !this.columns.includes(path)));
      const keys = paths.map(columnOf);
      if (meta.unique && !meta.sparse) {
        // rows sharing a key with a null in it would pass CREATE UNIQUE INDEX; the port counts them as duplicates
        const clash = this.sql(`SELECT count(*) AS n FROM ${this.table} GROUP BY ${keys.join(", ")} HAVING count(*) > 1 LIMIT 1`).get();
        if (clash !== undefined) throw this.duplicate(`existing documents repeat the key of the new unique index ${name}`, name);
      }
      try {
        this.database.db.exec(indexSql(this.table, meta));
      } catch (err) {
        if (isUniqueViolation(err)) throw this.duplicate(`existing documents repeat the key of the new unique index ${name}`, name);
        throw err;
      }
      this.sql("INSERT OR REPLACE INTO _store_indexes (collection, name, spec) VALUES (?, ?, ?)").run(
        this.name,
        name,
        JSON.stringify(meta),
      );
      this.indexes.push(meta);
    }
  }

  /**
   * Adds a column per new indexed path and fills it from the stored documents, page by page; a path that holds
   * (or runs through) an array in some document is marked multikey on the way.
   */
  private addColumns(paths: readonly string[]): void {
    if (paths.length === 0) return;
    for (const path of paths) this.database.db.exec(`ALTER TABLE ${this.table} ADD COLUMN ${columnOf(path)}`);
    this.columns.push(...paths);
    const page = this.sql(
      `SELECT rowid AS id, _id, doc${this.columnsRead()} FROM ${this.table} WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE_ROWS}`,
    );
    const fill = this.sql(`UPDATE ${this.table} SET ${paths.map((path) => `${columnOf(path)} = ?`).join(", ")} WHERE rowid = ?`);
    let after = -Infinity;
    for (let rows = page.all(after); rows.length > 0; rows = page.all(after)) {
      for (const r of rows) {
        const doc = this.toRow(r);
        fill.run(...paths.map((path) => columnValue(doc, path)), r.id as number);
        this.noteArraysAt(doc, paths);
        after = r.id as number;
      }
    }
  }

  /** Marks indexed paths holding arrays in `doc` as multikey (persisted with the write's transaction). */
  private noteArrays(doc: Row): void {
    for (const index of this.indexes) this.noteArraysAt(doc, index.paths);
  }

  private noteArraysAt(doc: Row, paths: readonly string[]): void {
    for (const path of paths) {
      if (this.multikey.has(path) || !reachesArray(doc, path)) continue;
      this.multikey.add(path);
      this.sql("INSERT OR IGNORE INTO _store_multikey (collection, path) VALUES (?, ?)").run(this.name, path);
    }
  }

  /** The port counts null / absent as a key of a non-sparse unique index; SQLite does not: check it here. */
  private checkNullKeys(doc: Row): void {
    for (const index of this.indexes) {
      if (!index.unique || index.sparse) continue;
      const values = index.paths.map((path) => valuesAtPath(doc, path));
      if (!values.some((v) => v.length === 0 || v[0] === null)) continue;
      const sameKey = index.paths.map((path) => `${columnOf(path)} IS ?`).join(" AND ");
      const params = values.map((v) => {
        const value = v[0];
        return value === undefined || value === null
          ? null
          : isPlainObject(value) || Array.isArray(value)
            ? JSON.stringify(value)
            : sqlValue(value as port.Scalar);
      });
      const clash = this.sql(`SELECT _id FROM ${this.table} WHERE ${sameKey} AND _id <> ? LIMIT 1`).get(...params, doc._id);
      if (clash !== undefined) throw this.duplicate(`index ${index.name} already holds this key`, index.name);
    }
  }

  private duplicate(message: string, index?: string): DuplicateKeyError {
    return new DuplicateKeyError(`duplicate key in ${this.name}: ${message}`, { collection: this.name, ...(index ? { index } : {}) });
  }
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { errcode?: number; message?: string };
  // SQLITE_CONSTRAINT_UNIQUE (2067) and SQLITE_CONSTRAINT_PRIMARYKEY (1555)
  return e?.errcode === 2067 || e?.errcode === 1555 || /UNIQUE constraint failed/.test(e?.message ?? "");
}
