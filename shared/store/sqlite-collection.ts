/**
 * A collection of the SQLite adapter: the port's reads and writes over its table (`sqlite-table.ts`). A filter is
 * first narrowed in SQL (`sqlite-narrowing.ts`), then every candidate is checked with the port's own matcher.
 *
 * Sort order: SQLite's (absent/null, then numbers and booleans as 0/1, then strings, then arrays and objects as JSON
 * text), with `_id` as tiebreak. It equals MongoDB's for fields holding one type, which is how every collection here
 * is used. A sort on a path without a column is done here, in the same order, on the narrowed candidates (decoded
 * once each).
 *
 * Multi-row writes run in one transaction (`insertMany` all-or-none, `updateMany`/`deleteMany` too).
 */
import { randomUUID } from "node:crypto";
import type { SQLInputValue, SQLOutputValue } from "node:sqlite";
import { sameValue } from "./document-values";
import { StoreError } from "./errors";
import { matchesFilter, project, upsertSeed } from "./query-language";
import { columnOf, columnValue, compareSqlValues } from "./sqlite-columns";
import type { SqliteDatabase } from "./sqlite-database";
import type { Row } from "./sqlite-document-body";
import { equalityPaths, narrowFilter, whereOf, type Narrowing } from "./sqlite-narrowing";
import { SqliteTable } from "./sqlite-table";
// `port.*`: the store port's own types.
import type * as port from "./types";
import { applyUpdate } from "./update-language";

export class SqliteCollection<T extends port.StoredDocument> implements port.Collection<T> {
  private readonly rows: SqliteTable;

  constructor(
    readonly name: string,
    private readonly database: SqliteDatabase,
  ) {
    this.rows = new SqliteTable(name, database);
  }

  private ready(): void {
    if (this.database.closed) throw new StoreError("STORE_CLOSED", `store is closed (collection ${this.name})`, { collection: this.name });
  }

  private transaction<R>(work: () => R): R {
    this.ready();
    return this.database.transaction(work, () => this.rows.loadMeta());
  }

  private narrow(filter: port.Filter): Narrowing {
    return narrowFilter(filter, (path) => this.rows.narrowable(path));
  }

  /** `SELECT _id, doc, <columns> FROM <table> WHERE <narrowing>`: rows ready for `toRow`. */
  private selectRows(n: Narrowing): string {
    return `SELECT _id, doc${this.rows.columnsRead()} FROM ${this.rows.table}${whereOf(n)}`;
  }

  /**
   * Matching rows in sort order, after skip and limit. When a declared index ends with the sort keys and `_id`
   * (after paths the filter fixes by equality), SQL orders by all of them and rows stream from that index in their
   * final order: a limited read stops after `skip + limit` matches, however many rows share a sort key. Otherwise SQL
   * orders by the sort keys without the `_id` tiebreak, so an index on the first key serves the order (SQLite would
   * put every run of equal keys through a temporary B-tree for the tiebreak); rows come in key order and each run of
   * equal keys is put in `_id` order here before skip and limit apply.
   */
  private select(filter: port.Filter, options: port.FindOptions): Row[] {
    this.ready();
    const n = this.narrow(filter);
    const skip = options.skip ?? 0;
    const limit = options.limit ? options.limit : Number.POSITIVE_INFINITY;
    const sort = Object.entries(options.sort ?? { _id: 1 });
    const idAt = sort.findIndex(([path]) => path === "_id");
    const ordered = idAt === -1 ? sort : sort.slice(0, idAt + 1); // nothing after the unique _id matters
    if (ordered.some(([path]) => path !== "_id" && !this.rows.columns.includes(path)))
      return this.selectSortedHere(filter, n, ordered, skip, limit);
    const idLast = ordered.length > 1 && idAt === ordered.length - 1;
    const [tiebreak] = idLast && !this.rows.servesOrder(ordered, equalityPaths(filter)) ? ordered.splice(-1) : [];
    const keys = ordered.map(([path]) => columnOf(path));
    const columns = keys.map((key, i) => `, ${key} AS k${i}`).join("");
    const order = ordered.map(([, direction], i) => `${keys[i]} ${direction === -1 ? "DESC" : "ASC"}`).join(", ");
    let sql = `SELECT _id, doc${this.rows.columnsRead()}${columns} FROM ${this.rows.table}${whereOf(n)} ORDER BY ${order}`;
    if (n.exact && tiebreak === undefined) {
      if (Number.isFinite(limit)) sql += ` LIMIT ${limit} OFFSET ${skip}`;
      else if (skip > 0) sql += ` LIMIT -1 OFFSET ${skip}`;
      return this.rows
        .sql(sql)
        .all(...n.params)
        .map((r) => this.rows.toRow(r));
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
        const doc = n.exact ? undefined : this.rows.toRow(r);
        if (doc !== undefined && !matchesFilter(doc, filter)) continue;
        if (skipped < skip) {
          skipped++;
          continue;
        }
        found.push(doc ?? this.rows.toRow(r));
        if (found.length >= limit) return false;
      }
      return true;
    };
    // all() is several times cheaper per row than iterate(); a limited read stops early instead
    const statement = this.rows.sql(sql);
    const rows = Number.isFinite(limit) ? statement.iterate(...n.params) : statement.all(...n.params);
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
    for (const r of this.rows.sql(this.selectRows(n)).all(...n.params)) {
      const doc = this.rows.toRow(r);
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
    const statement = this.rows.sql(`${this.selectRows(n)}${n.exact ? " LIMIT 1" : ""}`);
    if (n.exact) {
      const r = statement.get(...n.params);
      return r === undefined ? undefined : this.rows.toRow(r);
    }
    for (const r of statement.iterate(...n.params)) {
      const doc = this.rows.toRow(r);
      if (matchesFilter(doc, filter)) return doc;
    }
    return undefined;
  }

  async insertOne(doc: T): Promise<void> {
    this.transaction(() => this.rows.insertRow(doc as unknown as Row));
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    this.transaction(() => {
      for (const doc of docs) this.rows.insertRow(doc as unknown as Row);
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
    if (n.exact) return Number(this.rows.sql(`SELECT count(*) AS n FROM ${this.rows.table}${whereOf(n)}`).get(...n.params)?.n ?? 0);
    let count = 0;
    for (const r of this.rows.sql(this.selectRows(n)).iterate(...n.params)) {
      if (matchesFilter(this.rows.toRow(r), filter)) count++;
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
        if (modified) this.rows.replaceRow(after);
        return { result: { matchedCount: 1, modifiedCount: modified ? 1 : 0 }, after };
      }
      if (!upsert) return { result: { matchedCount: 0, modifiedCount: 0 } };
      const seed = upsertSeed(filter);
      const _id = typeof seed._id === "string" ? seed._id : randomUUID();
      const inserted = applyUpdate({ ...seed, _id } as Row, update);
      this.rows.insertRow(inserted);
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
        this.rows.replaceRow(after);
        modifiedCount++;
      }
      return { matchedCount: matches.length, modifiedCount };
    });
  }

  async deleteOne(filter: port.Filter): Promise<number> {
    return this.transaction(() => {
      const found = this.first(filter);
      if (found === undefined) return 0;
      this.rows.sql(`DELETE FROM ${this.rows.table} WHERE _id = ?`).run(found._id);
      return 1;
    });
  }

  async deleteMany(filter: port.Filter): Promise<number> {
    return this.transaction(() => {
      const n = this.narrow(filter);
      if (n.exact) return Number(this.rows.sql(`DELETE FROM ${this.rows.table}${whereOf(n)}`).run(...n.params).changes);
      const remove = this.rows.sql(`DELETE FROM ${this.rows.table} WHERE _id = ?`);
      let deleted = 0;
      for (const doc of this.select(filter, {})) deleted += Number(remove.run(doc._id).changes);
      return deleted;
    });
  }

  async ensureIndexes(specs: readonly port.IndexSpec[]): Promise<void> {
    this.transaction(() => this.rows.declareIndexes(specs));
  }
}
