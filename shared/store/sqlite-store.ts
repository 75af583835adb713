/**
 * SQLite adapter on Node's built-in `node:sqlite` (`DatabaseSync`): one database file `<dataDir>/store.sqlite`
 * (or `:memory:`), one table per collection `(_id TEXT PRIMARY KEY, doc BLOB, <one column per indexed path>)`.
 * Unlike NeDB, documents stay on disk: memory holds SQLite's page cache, not the dataset.
 *
 * Documents: `doc` holds the document without its `_id` (which the row's own column holds) as JSON text,
 * compressed with a dictionary of the collection (`document-codec.ts`). A collection's dictionary is learned once
 * it holds `LEARN_AFTER` documents, from them (kept as plain JSON until then, compressed in place when it is
 * learned), stored in `_store_dictionaries` and never changed afterwards; a collection that never holds that many
 * (a checkpoint, cursors) keeps plain JSON. Learning reads a bounded head of each of those documents and never fails
 * a write: when it fails, the collection stays plain JSON until the store is opened again (`learnOnceLarge`).
 *
 * Queries: every path of a declared index gets a column of its own, filled in JavaScript on every write with the
 * value `json_extract(doc, '$.path')` would give of the JSON document (strings as text, numbers as numbers,
 * booleans as 1/0, null or absent as NULL, arrays and objects as JSON text, NULL for a path through an array),
 * and the index is built on these columns. A filter is first narrowed in SQL with the conditions an index can
 * answer (equality, `$in`, ranges on indexed paths, `_id`), then every candidate is checked with the port's own
 * matcher (`matchesFilter`), so the answer has MongoDB's meaning whatever SQL can express; a path without an
 * index is scanned. An indexed path that ever holds an array (or passes through one) is marked multikey, as
 * MongoDB does, and is no longer narrowed in SQL: equality there means "some element equals", which a scalar
 * column cannot answer. `ensureIndexes` on a collection with documents adds the column and fills it from them.
 *
 * Unique indexes: SQLite lets several rows share a NULL key, but the port counts a missing field (or null) as
 * one key unless the index is sparse, so a write whose key holds a null is checked against the other rows in
 * the same transaction. A sparse index is a partial index over rows with at least one non-NULL key column (a
 * field holding null is left out as an absent one is; both repeat freely in a sparse unique index, as before).
 * Unique indexes on array fields compare whole arrays (MongoDB: each element); none is declared today.
 *
 * Sort order: SQLite's (absent/null, then numbers and booleans as 0/1, then strings, then arrays and objects
 * as JSON text), with `_id` as tiebreak. It equals MongoDB's for fields holding one type, which is how every
 * collection here is used. A sort on a path without a column is done here, in the same order, on the narrowed
 * candidates (decoded once each).
 *
 * Atomicity and durability: `DatabaseSync` runs each call to completion before any other JavaScript, so
 * read-modify-write updates cannot interleave within the process; multi-row writes run in one transaction
 * (`insertMany` all-or-none, `updateMany`/`deleteMany` too). Journal mode WAL with `synchronous=NORMAL`: a
 * committed write survives a crash of the process, and the file is never corrupted, but the last
 * transactions before a power loss may be lost (the same promise NeDB's unsynced appends made; chain-derived
 * data is re-synced from the chain). One process per data directory, enforced by the same LOCK file as NeDB.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue, type SQLOutputValue, type StatementSync } from "node:sqlite";
import { acquireDataDirLock } from "./data-dir-lock";
import { decodeDocument, encodeDocument, learnDictionary, RAW, SAMPLE_CHARS, type Dictionary } from "./document-codec";
import { isPlainObject, sameValue } from "./document-values";
import { DuplicateKeyError, StoreError } from "./errors";
import { matchesFilter, project, upsertSeed, valuesAtPath } from "./query-language";
// `port.*`: the store port's own types.
import type * as port from "./types";
import { applyUpdate } from "./update-language";

export interface SqliteStoreOptions {
  /** Directory of `store.sqlite`; omit for an in-memory database. */
  dataDir?: string;
  /** SQLite page cache per store, in KiB (default 16 MiB). */
  cacheKiB?: number;
}

export const SQLITE_FILE = "store.sqlite";

type Row = Record<string, unknown> & { _id: string };

/** Documents written to a collection before its dictionary is learned from them. */
export const LEARN_AFTER = 32;

/** Bytes read of a row to sample its first `SAMPLE_CHARS` characters: the header, then 3 UTF-8 bytes per UTF-16 unit at most. */
const SAMPLE_READ_BYTES = 1 + 3 * SAMPLE_CHARS;

/** Rows read per step when a new column is filled (bounds memory). */
const PAGE_ROWS = 1_000;

/** The column holding an indexed path's value (`_id` is its own column). */
function columnOf(path: string): string {
  return path === "_id" ? "_id" : `"@${path.replaceAll('"', '""')}"`;
}

/**
 * The value of a path in a document as `json_extract(doc, '$.path')` gives it for the document's JSON: strings as
 * text, integers as integers, other numbers as reals, booleans as 1/0, null or absent as NULL, arrays and objects
 * as JSON text, and NULL when the path runs through an array.
 */
function columnValue(doc: unknown, path: string): SQLInputValue {
  const node = valueAt(doc, path);
  switch (typeof node) {
    case "string":
      return node;
    case "number":
      return Number.isSafeInteger(node) ? BigInt(node) : node;
    case "boolean":
      return node ? 1n : 0n;
    default:
      return node === null || node === undefined ? null : JSON.stringify(node);
  }
}

/** The value `json_extract` gives for a scalar (booleans become 1/0). */
function sqlValue(value: string | number | boolean): SQLInputValue {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

interface IndexMeta {
  name: string;
  paths: string[];
  unique: boolean;
  sparse: boolean;
}

/** A SQL condition implied by a filter (every matching document satisfies it), and whether it is the whole filter. */
interface Narrowing {
  sql: string;
  params: SQLInputValue[];
  /** True when the SQL condition alone selects exactly the matching documents. */
  exact: boolean;
}

const NO_NARROWING: Narrowing = { sql: "", params: [], exact: false };

function isUniqueViolation(err: unknown): boolean {
  const e = err as { errcode?: number; message?: string };
  // SQLITE_CONSTRAINT_UNIQUE (2067) and SQLITE_CONSTRAINT_PRIMARYKEY (1555)
  return e?.errcode === 2067 || e?.errcode === 1555 || /UNIQUE constraint failed/.test(e?.message ?? "");
}

/** SQLite's order of column values: NULL, then numbers (integers and reals alike), then text by UTF-8 bytes. */
function compareSqlValues(a: SQLInputValue, b: SQLInputValue): number {
  const rank = (v: SQLInputValue): number =>
    v === null ? 0 : typeof v === "string" ? 2 : typeof v === "number" || typeof v === "bigint" ? 1 : 3;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return Math.sign(Number(a) - Number(b));
  if (ra !== 2) return 0;
  const x = a as string;
  const y = b as string;
  if (x === y) return 0;
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const cx = x.charCodeAt(i);
    const cy = y.charCodeAt(i);
    if (cx === cy) continue;
    // UTF-8 bytes sort by code point, where a surrogate pair (above U+FFFF) comes after U+E000–U+FFFF
    const surrogate = (c: number): number => (c >= 0xd800 && c < 0xe000 ? c + 0x10000 : c);
    return surrogate(cx) - surrogate(cy);
  }
  return x.length - y.length;
}

/** The statement creating a declared index on its columns (a sparse one over rows with a non-NULL key column). */
function indexSql(table: string, meta: IndexMeta): string {
  const columns = meta.paths.map(columnOf);
  const partial = meta.sparse ? ` WHERE ${columns.map((column) => `${column} IS NOT NULL`).join(" OR ")}` : "";
  return `CREATE ${meta.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS "${meta.name}" ON ${table} (${columns.join(", ")})${partial}`;
}

class SqliteCollection<T extends port.StoredDocument> implements port.Collection<T> {
  private readonly table: string;
  private indexes: IndexMeta[] = [];
  /** Indexed paths that hold (or pass through) an array somewhere: not narrowed in SQL. */
  private readonly multikey = new Set<string>();
  /** Paths with a column of their own (every path of a declared index but `_id`), in the table's column order. */
  private columns: string[] = [];
  /** The dictionary new documents are compressed with; undefined until it is learned. */
  private dictionary: Dictionary | undefined;
  private readonly dictionaries = new Map<number, Uint8Array>();
  /** Set when learning the dictionary failed: the collection stays plain JSON until the store is opened again. */
  private learningFailed = false;

  constructor(
    readonly name: string,
    private readonly store: SqliteStore,
  ) {
    this.table = `"${name}"`;
    store.db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (_id TEXT PRIMARY KEY NOT NULL, doc BLOB NOT NULL)`);
    this.loadMeta();
  }

  /** Reads the declared indexes, multikey paths, columns and dictionaries (at open, and after a rolled-back transaction). */
  private loadMeta(): void {
    this.indexes = this.sql("SELECT spec FROM _store_indexes WHERE collection = ?")
      .all(this.name)
      .map((row) => JSON.parse(row.spec as string) as IndexMeta);
    this.multikey.clear();
    for (const row of this.sql("SELECT path FROM _store_multikey WHERE collection = ?").all(this.name))
      this.multikey.add(row.path as string);
    this.columns = this.store.db
      .prepare(`PRAGMA table_info(${this.table})`)
      .all()
      .map((row) => row.name as string)
      .filter((column) => column.startsWith("@"))
      .map((column) => column.slice(1));
    this.dictionaries.clear();
    this.dictionary = undefined;
    for (const row of this.sql("SELECT id, dictionary FROM _store_dictionaries WHERE collection = ? ORDER BY id").all(this.name)) {
      const dictionary = { id: Number(row.id), bytes: row.dictionary as Uint8Array };
      this.dictionaries.set(dictionary.id, dictionary.bytes);
      this.dictionary = dictionary;
    }
  }

  /**
   * A document from its row (read with `this.columnsRead()`), `_id` first as written, each string its body left to
   * an indexed column (`bodyOf`) put back from that column.
   */
  private toRow(r: Record<string, SQLOutputValue>): Row {
    const body = this.bodyText(r.doc as Uint8Array);
    const doc = JSON.parse(`{"_id":${JSON.stringify(r._id)}${body === "{}" ? "}" : `,${body.slice(1)}`}`) as Row;
    if (this.columns.length > 0 && !Object.hasOwn(r, "c0")) throw new Error(`internal: a row of ${this.name} read without its columns`);
    for (let i = 0; i < this.columns.length; i++) {
      const value = r[`c${i}`];
      if (typeof value === "string") putBack(doc, this.columns[i] as string, value);
    }
    return doc;
  }

  /** The indexed columns every read selects for `toRow` (aliased `c0`, `c1`, … in `this.columns` order). */
  private columnsRead(): string {
    return this.columns.map((path, i) => `, ${columnOf(path)} AS c${i}`).join("");
  }

  /** The JSON text (without `_id`) of a stored document. @throws StoreError `STORE_CORRUPT` */
  bodyText(stored: Uint8Array): string {
    return decodeDocument(stored, (id) => this.dictionaries.get(id));
  }

  private ready(): void {
    if (this.store.closed) throw new StoreError("STORE_CLOSED", `store is closed (collection ${this.name})`, { collection: this.name });
  }

  private sql(text: string): StatementSync {
    return this.store.statement(text);
  }

  // ---- narrowing ----------------------------------------------------------------------------------------

  private narrowable(path: string): boolean {
    if (path === "_id") return true;
    return !this.multikey.has(path) && this.columns.includes(path);
  }

  private narrowField(path: string, condition: port.FieldCondition): Narrowing {
    if (!this.narrowable(path)) return NO_NARROWING;
    const key = columnOf(path);
    const terms: string[] = [];
    const params: SQLInputValue[] = [];
    let exact = true;
    const note = (value: unknown): void => {
      // numbers also match booleans stored as 1/0, booleans also match numbers: the matcher decides
      if (typeof value !== "string") exact = false;
    };
    const conditions = isPlainObject(condition) ? Object.entries(condition) : [["$eq", condition] as const];
    for (const [operator, operand] of conditions) {
      switch (operator) {
        case "$eq":
          terms.push(`${key} = ?`);
          params.push(sqlValue(operand as port.Scalar));
          note(operand);
          break;
        case "$in": {
          const list = operand as port.Scalar[];
          terms.push(list.length === 0 ? "0" : `${key} IN (${list.map(() => "?").join(", ")})`);
          params.push(...list.map(sqlValue));
          list.forEach(note);
          break;
        }
        case "$gt":
        case "$gte":
        case "$lt":
        case "$lte": {
          const sign = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" }[operator];
          // keep the bound's type: numbers sort below text, text below blobs
          const typeBound = typeof operand === "number" ? `${key} < ''` : `${key} >= '' AND ${key} < x''`;
          terms.push(`${key} ${sign} ? AND ${typeBound}`);
          params.push(operand as string | number);
          note(operand);
          break;
        }
        default: // $ne $nin $exists: left to the matcher
          exact = false;
      }
    }
    if (terms.length === 0) return NO_NARROWING;
    return { sql: terms.join(" AND "), params, exact };
  }

  private narrow(filter: port.Filter): Narrowing {
    const parts: Narrowing[] = [];
    let exact = true;
    for (const [key, condition] of Object.entries(filter)) {
      let part: Narrowing;
      if (key === "$and") {
        part = this.narrowAll((condition as port.Filter[]).map((f) => this.narrow(f)));
      } else if (key === "$or") {
        const branches = (condition as port.Filter[]).map((f) => this.narrow(f));
        part = branches.some((b) => b.sql === "")
          ? NO_NARROWING
          : {
              sql: branches.map((b) => `(${b.sql})`).join(" OR "),
              params: branches.flatMap((b) => b.params),
              exact: branches.every((b) => b.exact),
            };
      } else {
        part = this.narrowField(key, condition as port.FieldCondition);
      }
      if (part.sql === "") exact = false;
      else parts.push(part);
      exact &&= part.exact;
    }
    if (parts.length === 0) return { sql: "", params: [], exact: Object.keys(filter).length === 0 };
    return { sql: parts.map((p) => `(${p.sql})`).join(" AND "), params: parts.flatMap((p) => p.params), exact };
  }

  private narrowAll(parts: Narrowing[]): Narrowing {
    const kept = parts.filter((p) => p.sql !== "");
    if (kept.length === 0) return NO_NARROWING;
    return {
      sql: kept.map((p) => `(${p.sql})`).join(" AND "),
      params: kept.flatMap((p) => p.params),
      exact: kept.length === parts.length && parts.every((p) => p.exact),
    };
  }

  private where(n: Narrowing): string {
    return n.sql === "" ? "" : ` WHERE ${n.sql}`;
  }

  /**
   * Matching rows in sort order, after skip and limit. SQL orders by the sort keys without the `_id` tiebreak,
   * so an index on the first key serves the order (an `ORDER BY key DESC, _id ASC` would sort the whole table);
   * rows come in key order and each run of equal keys is put in `_id` order here before skip and limit apply.
   */
  private select(filter: port.Filter, options: port.FindOptions): Row[] {
    this.ready();
    const n = this.narrow(filter);
    const skip = options.skip ?? 0;
    const limit = options.limit ? options.limit : Number.POSITIVE_INFINITY;
    const sort = Object.entries(options.sort ?? { _id: 1 });
    const idAt = sort.findIndex(([path]) => path === "_id");
    const ordered = idAt === -1 ? sort : sort.slice(0, idAt + 1); // nothing after the unique _id matters
    if (ordered.some(([path]) => path !== "_id" && !this.columns.includes(path)))
      return this.selectSortedHere(filter, n, ordered, skip, limit);
    const [tiebreak] = ordered.length > 1 && idAt === ordered.length - 1 ? ordered.splice(-1) : [];
    const keys = ordered.map(([path]) => columnOf(path));
    const columns = keys.map((key, i) => `, ${key} AS k${i}`).join("");
    const order = ordered.map(([, direction], i) => `${keys[i]} ${direction === -1 ? "DESC" : "ASC"}`).join(", ");
    let sql = `SELECT _id, doc${this.columnsRead()}${columns} FROM ${this.table}${this.where(n)} ORDER BY ${order}`;
    if (n.exact && tiebreak === undefined) {
      if (Number.isFinite(limit)) sql += ` LIMIT ${limit} OFFSET ${skip}`;
      else if (skip > 0) sql += ` LIMIT -1 OFFSET ${skip}`;
      return this.sql(sql)
        .all(...n.params)
        .map((r) => this.toRow(r));
    }
    const found: Row[] = [];
    let skipped = 0;
    let run: Record<string, SQLOutputValue>[] = [];
    const sameKeys = (a: Record<string, SQLOutputValue>, b: Record<string, SQLOutputValue>): boolean =>
      keys.every((_, i) => a[`k${i}`] === b[`k${i}`]);
    /** Takes a run of equal sort keys, in `_id` order; false once the limit is reached. */
    const take = (rows: Record<string, SQLOutputValue>[]): boolean => {
      if (tiebreak !== undefined && rows.length > 1) {
        const sign = tiebreak[1] === -1 ? -1 : 1;
        rows.sort((a, b) => sign * ((a._id as string) < (b._id as string) ? -1 : (a._id as string) > (b._id as string) ? 1 : 0));
      }
      for (const r of rows) {
        const doc = n.exact ? undefined : this.toRow(r);
        if (doc !== undefined && !matchesFilter(doc, filter)) continue;
        if (skipped < skip) {
          skipped++;
          continue;
        }
        found.push(doc ?? this.toRow(r));
        if (found.length >= limit) return false;
      }
      return true;
    };
    // all() is several times cheaper per row than iterate(); a limited read stops early instead
    const rows = Number.isFinite(limit) ? this.sql(sql).iterate(...n.params) : this.sql(sql).all(...n.params);
    for (const r of rows) {
      if (run.length > 0 && !sameKeys(run[0] as Record<string, SQLOutputValue>, r)) {
        if (!take(run)) return found;
        run = [];
      }
      run.push(r);
    }
    take(run);
    return found;
  }

  /**
   * `select` for a sort on a path without a column: the narrowed candidates are decoded once and sorted here by
   * the values their columns would hold, in SQLite's order (`compareSqlValues`), then skip and limit apply.
   */
  private selectSortedHere(filter: port.Filter, n: Narrowing, sort: [string, number][], skip: number, limit: number): Row[] {
    const found: { doc: Row; keys: SQLInputValue[] }[] = [];
    for (const r of this.sql(`SELECT _id, doc${this.columnsRead()} FROM ${this.table}${this.where(n)}`).all(...n.params)) {
      const doc = this.toRow(r);
      if (n.exact || matchesFilter(doc, filter))
        found.push({ doc, keys: sort.map(([path]) => (path === "_id" ? doc._id : columnValue(doc, path))) });
    }
    found.sort((a, b) => {
      for (let i = 0; i < sort.length; i++) {
        const order = compareSqlValues(a.keys[i] as SQLInputValue, b.keys[i] as SQLInputValue);
        if (order !== 0) return (sort[i] as [string, number])[1] * order;
      }
      return 0;
    });
    return found.slice(skip, skip + limit).map((entry) => entry.doc);
  }

  private first(filter: port.Filter): Row | undefined {
    const n = this.narrow(filter);
    const statement = this.sql(`SELECT _id, doc${this.columnsRead()} FROM ${this.table}${this.where(n)}${n.exact ? " LIMIT 1" : ""}`);
    if (n.exact) {
      const r = statement.get(...n.params);
      return r === undefined ? undefined : this.toRow(r);
    }
    for (const r of statement.iterate(...n.params)) {
      const doc = this.toRow(r);
      if (n.exact || matchesFilter(doc, filter)) return doc;
    }
    return undefined;
  }

  // ---- writes -----------------------------------------------------------------------------------------

  /** Marks indexed paths holding arrays in `doc` as multikey (persisted with the write's transaction). */
  private noteArrays(doc: Row): void {
    for (const index of this.indexes) {
      for (const path of index.paths) {
        if (this.multikey.has(path) || !reachesArray(doc, path)) continue;
        this.multikey.add(path);
        this.sql("INSERT OR IGNORE INTO _store_multikey (collection, path) VALUES (?, ?)").run(this.name, path);
      }
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

  private insertRow(doc: Row): void {
    const columns = this.columns.map((path) => `, ${columnOf(path)}`).join("");
    const values = this.columns.map((path) => columnValue(doc, path));
    try {
      this.sql(`INSERT INTO ${this.table} (_id, doc${columns}) VALUES (?, ?${", ?".repeat(values.length)})`).run(
        doc._id,
        encodeDocument(bodyOf(doc, this.columns, values), this.dictionary),
        ...values,
      );
    } catch (err) {
      throw isUniqueViolation(err) ? this.duplicate((err as Error).message) : err;
    }
    this.noteArrays(doc);
    this.checkNullKeys(doc);
    if (this.dictionary === undefined) this.learnOnceLarge();
  }

  private replaceRow(doc: Row): void {
    const columns = this.columns.map((path) => `, ${columnOf(path)} = ?`).join("");
    const values = this.columns.map((path) => columnValue(doc, path));
    try {
      this.sql(`UPDATE ${this.table} SET doc = ?${columns} WHERE _id = ?`).run(
        encodeDocument(bodyOf(doc, this.columns, values), this.dictionary),
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
   * Learns the collection's dictionary once it holds `LEARN_AFTER` documents (in the inserting write's transaction).
   * Rows, not writes, are counted: a small collection rewritten often (a checkpoint, a cursor) stays plain JSON,
   * where compression would cost every write and save nothing worth it. Learning never fails the write: on any
   * error its own changes are undone (a savepoint), the write goes on storing plain JSON, one warning is emitted,
   * and the collection is not tried again until the store is next opened.
   */
  private learnOnceLarge(): void {
    if (this.learningFailed) return;
    const held = this.sql(`SELECT count(*) AS n FROM (SELECT 1 FROM ${this.table} LIMIT ${LEARN_AFTER})`).get()?.n;
    if (Number(held) < LEARN_AFTER) return;
    this.store.db.exec("SAVEPOINT learn_dictionary");
    try {
      this.learnDictionary();
      this.store.db.exec("RELEASE learn_dictionary");
    } catch (err) {
      this.store.db.exec("ROLLBACK TO learn_dictionary");
      this.store.db.exec("RELEASE learn_dictionary");
      this.dictionaries.clear();
      this.dictionary = undefined;
      this.learningFailed = true;
      warnNotLearned(this.name, err);
    }
  }

  /**
   * Learns the dictionary from the first `LEARN_AFTER` rows, each read only up to its first `SAMPLE_CHARS`
   * characters, stores it, and compresses those rows in place, one at a time (rows written plain after them, when
   * an earlier attempt failed, stay plain until rewritten: header 0 always reads).
   */
  private learnDictionary(): void {
    const firstRows = this.sql(
      `SELECT rowid AS id, substr(doc, 1, ${SAMPLE_READ_BYTES}) AS head FROM ${this.table} ORDER BY rowid LIMIT ${LEARN_AFTER}`,
    ).all();
    const dictionary: Dictionary = { id: 1, bytes: learnDictionary(firstRows.map((r) => this.bodyText(r.head as Uint8Array))) };
    this.sql("INSERT INTO _store_dictionaries (collection, id, dictionary) VALUES (?, ?, ?)").run(
      this.name,
      dictionary.id,
      dictionary.bytes,
    );
    this.dictionaries.set(dictionary.id, dictionary.bytes);
    this.dictionary = dictionary;
    const read = this.sql(`SELECT doc FROM ${this.table} WHERE rowid = ?`);
    const update = this.sql(`UPDATE ${this.table} SET doc = ? WHERE rowid = ?`);
    for (const row of firstRows) {
      const id = row.id as number;
      const stored = read.get(id)?.doc as Uint8Array;
      if (stored[0] !== RAW) continue;
      const packed = encodeDocument(this.bodyText(stored), dictionary);
      if (packed[0] !== RAW) update.run(packed, id);
    }
  }

  private transaction<R>(work: () => R): R {
    this.ready();
    return this.store.transaction(work, () => this.loadMeta());
  }

  async insertOne(doc: T): Promise<void> {
    this.transaction(() => this.insertRow(doc as unknown as Row));
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    this.transaction(() => {
      for (const doc of docs) this.insertRow(doc as unknown as Row);
    });
  }

  async findOne(filter: port.Filter): Promise<T | undefined> {
    this.ready();
    return this.first(filter) as T | undefined;
  }

  async find(filter: port.Filter, options: port.FindOptions = {}): Promise<T[]> {
    return this.select(filter, options) as unknown as T[];
  }

  async findProjected(filter: port.Filter, projection: port.Projection, options: port.FindOptions = {}): Promise<Partial<T>[]> {
    return this.select(filter, options).map((doc) => project(doc, projection)) as Partial<T>[];
  }

  async count(filter: port.Filter = {}): Promise<number> {
    this.ready();
    const n = this.narrow(filter);
    if (n.exact) return Number(this.sql(`SELECT count(*) AS n FROM ${this.table}${this.where(n)}`).get(...n.params)?.n ?? 0);
    let count = 0;
    for (const r of this.sql(`SELECT _id, doc${this.columnsRead()} FROM ${this.table}${this.where(n)}`).iterate(...n.params)) {
      if (matchesFilter(this.toRow(r), filter)) count++;
    }
    return count;
  }

  async updateOne(filter: port.Filter, update: port.Update, options: port.UpdateOptions = {}): Promise<port.UpdateResult> {
    return this.updateFirst(filter, update, options.upsert === true).result;
  }

  async findOneAndUpdate(filter: port.Filter, update: port.Update, options: port.UpdateOptions = {}): Promise<T | undefined> {
    return this.updateFirst(filter, update, options.upsert === true).after as T | undefined;
  }

  private updateFirst(filter: port.Filter, update: port.Update, upsert: boolean): { result: port.UpdateResult; after?: Row } {
    return this.transaction(() => {
      const before = this.first(filter);
      if (before !== undefined) {
        const after = applyUpdate(before, update);
        const modified = !sameValue(before, after);
        if (modified) this.replaceRow(after);
        return { result: { matchedCount: 1, modifiedCount: modified ? 1 : 0 }, after };
      }
      if (!upsert) return { result: { matchedCount: 0, modifiedCount: 0 } };
      const seed = upsertSeed(filter);
      const _id = typeof seed._id === "string" ? seed._id : randomUUID();
      const inserted = applyUpdate({ ...seed, _id } as Row, update);
      this.insertRow(inserted);
      return { result: { matchedCount: 0, modifiedCount: 0, upsertedId: _id }, after: inserted };
    });
  }

  async updateMany(filter: port.Filter, update: port.Update): Promise<port.UpdateResult> {
    return this.transaction(() => {
      const matches = this.select(filter, {});
      let modifiedCount = 0;
      for (const before of matches) {
        const after = applyUpdate(before, update);
        if (sameValue(before, after)) continue;
        this.replaceRow(after);
        modifiedCount++;
      }
      return { matchedCount: matches.length, modifiedCount };
    });
  }

  async deleteOne(filter: port.Filter): Promise<number> {
    return this.transaction(() => {
      const found = this.first(filter);
      if (found === undefined) return 0;
      this.sql(`DELETE FROM ${this.table} WHERE _id = ?`).run(found._id);
      return 1;
    });
  }

  async deleteMany(filter: port.Filter): Promise<number> {
    return this.transaction(() => {
      const n = this.narrow(filter);
      if (n.exact) return Number(this.sql(`DELETE FROM ${this.table}${this.where(n)}`).run(...n.params).changes);
      const remove = this.sql(`DELETE FROM ${this.table} WHERE _id = ?`);
      let deleted = 0;
      for (const doc of this.select(filter, {})) deleted += Number(remove.run(doc._id).changes);
      return deleted;
    });
  }

  async ensureIndexes(specs: readonly port.IndexSpec[]): Promise<void> {
    this.transaction(() => {
      for (const spec of specs) {
        const paths = Object.keys(spec.fields);
        const name = `${this.name}__${paths.join("__")}`;
        if (this.indexes.some((index) => index.name === name)) continue; // idempotent; options of an existing index are kept
        const meta: IndexMeta = { name, paths, unique: spec.unique === true, sparse: spec.sparse === true };
        this.addColumns(paths.filter((path) => path !== "_id" && !this.columns.includes(path)));
        const keys = paths.map(columnOf);
        if (meta.unique && !meta.sparse) {
          // rows sharing a key with a null in it would pass CREATE UNIQUE INDEX; the port counts them as duplicates
          const clash = this.sql(`SELECT count(*) AS n FROM ${this.table} GROUP BY ${keys.join(", ")} HAVING count(*) > 1 LIMIT 1`).get();
          if (clash !== undefined) throw this.duplicate(`existing documents repeat the key of the new unique index ${name}`, name);
        }
        try {
          this.store.db.exec(indexSql(this.table, meta));
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
    });
  }

  /**
   * Adds a column per new indexed path and fills it from the stored documents, page by page; a path that holds
   * (or runs through) an array in some document is marked multikey on the way.
   */
  private addColumns(paths: readonly string[]): void {
    if (paths.length === 0) return;
    for (const path of paths) this.store.db.exec(`ALTER TABLE ${this.table} ADD COLUMN ${columnOf(path)}`);
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
        for (const path of paths) {
          if (this.multikey.has(path) || !reachesArray(doc, path)) continue;
          this.multikey.add(path);
          this.sql("INSERT OR IGNORE INTO _store_multikey (collection, path) VALUES (?, ?)").run(this.name, path);
        }
        after = r.id as number;
      }
    }
  }
}

/**
 * The stored text of a document: its JSON without `_id`, which the row's own column holds, and without the strings
 * its indexed columns hold (each left as a 0 in its place, so the keys keep their order; `putBack` restores it when
 * the column holds a string, and a real 0 has an integer column). A hash is the only string of most documents the
 * dictionary cannot compress: stored once, in its column, instead of twice.
 */
function bodyOf(doc: Row, columns: readonly string[], values: readonly SQLInputValue[]): string {
  const { _id, ...body } = doc;
  for (let i = 0; i < columns.length; i++) {
    // the column holds JSON text for an array or object: only a string value itself is left to it
    if (typeof values[i] !== "string" || typeof valueAt(doc, columns[i] as string) !== "string") continue;
    const segments = (columns[i] as string).split(".");
    let node: Record<string, unknown> = body;
    for (const segment of segments.slice(0, -1)) {
      const copy = { ...(node[segment] as Record<string, unknown>) };
      node[segment] = copy;
      node = copy;
    }
    node[segments[segments.length - 1] as string] = 0;
  }
  return JSON.stringify(body);
}

/** The value at a path through plain objects only (undefined otherwise). */
function valueAt(doc: unknown, path: string): unknown {
  let node = doc;
  for (const segment of path.split(".")) {
    if (!isPlainObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/** Puts an indexed string back where `bodyOf` left its 0 (a document stored before its index was declared is whole: left as read). */
function putBack(doc: Row, path: string, value: string): void {
  const segments = path.split(".");
  let node: unknown = doc;
  for (const segment of segments.slice(0, -1)) {
    if (!isPlainObject(node)) return;
    node = node[segment];
  }
  const last = segments[segments.length - 1] as string;
  if (isPlainObject(node) && node[last] === 0) node[last] = value;
}

/** Whether the path, from the document's root, meets an array (at its end or on the way). */
function reachesArray(doc: unknown, path: string): boolean {
  let node = doc;
  for (const segment of path.split(".")) {
    if (Array.isArray(node)) return true;
    if (!isPlainObject(node) || !Object.hasOwn(node, segment)) return false;
    node = node[segment];
  }
  return Array.isArray(node);
}

const STATEMENT_CACHE = 256;

class SqliteStore {
  closed = false;
  private readonly statements = new Map<string, StatementSync>();
  private inTransaction = false;

  constructor(readonly db: DatabaseSync) {}

  /** A prepared statement, cached by its text (filters with many `$in` values make many texts: bounded). */
  statement(sql: string): StatementSync {
    let found = this.statements.get(sql);
    if (found === undefined) {
      if (this.statements.size >= STATEMENT_CACHE) this.statements.clear();
      found = this.db.prepare(sql);
      this.statements.set(sql, found);
    }
    return found;
  }

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

/** Tells, once per collection and process, that its dictionary could not be learned and why (its documents stay plain). */
function warnNotLearned(collection: string, err: unknown): void {
  const e = err as { type?: string; name?: string; message?: string };
  process.emitWarning(
    `collection ${collection}: no compression dictionary learned, documents stay plain JSON (${e?.type ?? e?.name}: ${e?.message ?? String(err)})`,
    { code: "STORE_DICTIONARY_NOT_LEARNED" },
  );
}

/**
 * Opens a SQLite store (in memory without `dataDir`). Collections are created on first use.
 * @throws StoreError `DATA_DIR_LOCKED` when another live process or open store holds `dataDir`
 */
export async function openSqliteStore(options: SqliteStoreOptions = {}): Promise<port.Store> {
  const { dataDir } = options;
  const release = dataDir === undefined ? undefined : await acquireDataDirLock(dataDir);
  let store: SqliteStore;
  try {
    const db = new DatabaseSync(dataDir === undefined ? ":memory:" : join(dataDir, SQLITE_FILE));
    db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -${Math.max(1024, options.cacheKiB ?? 16_384)};`);
    db.exec(
      "CREATE TABLE IF NOT EXISTS _store_indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name))",
    );
    db.exec("CREATE TABLE IF NOT EXISTS _store_multikey (collection TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (collection, path))");
    db.exec(
      "CREATE TABLE IF NOT EXISTS _store_dictionaries (collection TEXT NOT NULL, id INTEGER NOT NULL, dictionary BLOB NOT NULL, PRIMARY KEY (collection, id))",
    );
    store = new SqliteStore(db);
  } catch (err) {
    await release?.();
    throw err;
  }
  const collections = new Map<string, SqliteCollection<port.StoredDocument>>();
  let closing: Promise<void> | undefined;
  return {
    kind: dataDir === undefined ? "sqlite-memory" : "sqlite-files",
    collection<T extends port.StoredDocument>(name: string): port.Collection<T> {
      if (store.closed) throw new StoreError("STORE_CLOSED", `store is closed (collection ${name})`, { collection: name });
      let found = collections.get(name);
      if (found === undefined) {
        found = new SqliteCollection(name, store);
        collections.set(name, found);
      }
      return found as unknown as port.Collection<T>;
    },
    close(): Promise<void> {
      closing ??= (async () => {
        store.closed = true;
        try {
          store.db.close();
        } finally {
          await release?.();
        }
      })();
      return closing;
    },
  };
}
