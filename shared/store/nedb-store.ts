/**
 * NeDB adapter (@seald-io/nedb 4.1.2): one datastore per collection, either in memory or as `<dataDir>/<name>.db`.
 *
 * Caveats (see README "Store"): one process per data directory (enforced by a LOCK file); the whole dataset
 * lives in RAM; each write is an append without fsync (survives a process crash, not a power loss); files are
 * compacted on load, every `compactionIntervalMs`, and on close; loading is O(data).
 *
 * Atomicity: NeDB runs one operation at a time per datastore, and a multi-document insert is rolled back in
 * memory when any document violates a unique index, which makes `insertMany` all-or-none. Read-modify-write
 * updates (and upserts) run in this adapter's per-collection write queue, so no other write of this process
 * can interleave. Updates are applied with `update-language.ts` (MongoDB semantics), then written back whole.
 */
import Datastore from "@seald-io/nedb";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { acquireDataDirLock } from "./data-dir-lock";
import { sameValue } from "./document-values";
import { DuplicateKeyError, StoreError } from "./errors";
import { toNedbQuery } from "./nedb-filter";
import { project, upsertSeed } from "./query-language";
import { createSerialQueue, type SerialQueue } from "./serial-queue";
// `port.*`: the store port's own types (a port filter reaches NeDB through `toNedbQuery`).
import type * as port from "./types";
import { applyUpdate } from "./update-language";

export interface NedbStoreOptions {
  /** Directory of the `<collection>.db` files; omit for an in-memory store. */
  dataDir?: string;
  /** How often NeDB rewrites each file to drop superseded lines (ms, min 5000). Default 10 minutes. */
  compactionIntervalMs?: number;
}

type Row = Record<string, unknown> & { _id: string };

function mapNedbError(err: unknown, collection: string): unknown {
  const e = err as { errorType?: unknown; key?: unknown; message?: string };
  if (e?.errorType === "uniqueViolated") {
    return new DuplicateKeyError(`duplicate key in ${collection}: ${e.message ?? ""}`, { collection, key: e.key });
  }
  return err;
}

class NedbCollection<T extends port.StoredDocument> implements port.Collection<T> {
  private readonly writes: SerialQueue = createSerialQueue();
  private readonly loaded: Promise<void>;

  constructor(
    readonly name: string,
    private readonly db: Datastore<Row>,
    private readonly isClosed: () => boolean,
    compactionIntervalMs: number | undefined,
  ) {
    this.loaded = db.loadDatabaseAsync().then(() => {
      if (compactionIntervalMs !== undefined) db.setAutocompactionInterval(compactionIntervalMs);
    });
    this.loaded.catch(() => undefined); // surfaced by the first call that awaits it
  }

  private closedError(): StoreError {
    return new StoreError("STORE_CLOSED", `store is closed (collection ${this.name})`, { collection: this.name });
  }

  private async ready(): Promise<Datastore<Row>> {
    if (this.isClosed()) throw this.closedError();
    await this.loaded;
    return this.db;
  }

  /** Queues the write synchronously, so `close()` (which drains the queue) waits for every write issued before it. */
  private write<R>(task: (db: Datastore<Row>) => Promise<R>): Promise<R> {
    if (this.isClosed()) return Promise.reject(this.closedError());
    return this.writes.run(async () => {
      await this.loaded;
      try {
        return await task(this.db);
      } catch (err) {
        throw mapNedbError(err, this.name);
      }
    });
  }

  /** Waits for queued writes, stops autocompaction and (for files) compacts once more. */
  async close(compact: boolean): Promise<void> {
    await this.loaded.catch(() => undefined);
    await this.writes.drain();
    this.db.stopAutocompaction();
    if (compact) await this.db.compactDatafileAsync();
  }

  async insertOne(doc: T): Promise<void> {
    await this.write((db) => db.insertAsync(doc as unknown as Row));
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    await this.write((db) => db.insertAsync([...docs] as unknown as Row[]));
  }

  async findOne(filter: port.Filter): Promise<T | undefined> {
    const db = await this.ready();
    const found = await db.findOneAsync(toNedbQuery(filter));
    return (found ?? undefined) as T | undefined;
  }

  async find(filter: port.Filter, options: port.FindOptions = {}): Promise<T[]> {
    return (await this.cursor(filter, options)) as unknown as T[];
  }

  async findProjected(filter: port.Filter, projection: port.Projection, options: port.FindOptions = {}): Promise<Partial<T>[]> {
    return (await this.cursor(filter, options, projection)) as unknown as Partial<T>[];
  }

  private async cursor(filter: port.Filter, options: port.FindOptions, projection?: port.Projection): Promise<Row[]> {
    const db = await this.ready();
    let cursor = db.findAsync(toNedbQuery(filter));
    if (options.sort !== undefined) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    const rows = (await cursor) as unknown as Row[];
    // The port's own projection, not NeDB's: NeDB reads `{ _id: 1 }` alone as "everything".
    return projection === undefined ? rows : (rows.map((r) => project(r, projection)) as Row[]);
  }

  async count(filter: port.Filter = {}): Promise<number> {
    const db = await this.ready();
    return (await db.countAsync(toNedbQuery(filter))) as unknown as number;
  }

  async updateOne(filter: port.Filter, update: port.Update, options: port.UpdateOptions = {}): Promise<port.UpdateResult> {
    return (await this.updateFirst(filter, update, options.upsert === true)).result;
  }

  async findOneAndUpdate(filter: port.Filter, update: port.Update, options: port.UpdateOptions = {}): Promise<T | undefined> {
    return (await this.updateFirst(filter, update, options.upsert === true)).after as T | undefined;
  }

  private updateFirst(filter: port.Filter, update: port.Update, upsert: boolean): Promise<{ result: port.UpdateResult; after?: Row }> {
    return this.write(async (db) => {
      const before = (await db.findOneAsync(toNedbQuery(filter))) as Row | null;
      if (before !== null) {
        const after = applyUpdate(before, update);
        const modified = !sameValue(before, after);
        if (modified) await db.updateAsync({ _id: before._id }, after, {});
        return { result: { matchedCount: 1, modifiedCount: modified ? 1 : 0 }, after };
      }
      if (!upsert) return { result: { matchedCount: 0, modifiedCount: 0 } };
      const seed = upsertSeed(filter);
      const _id = typeof seed._id === "string" ? seed._id : randomUUID();
      const inserted = applyUpdate({ ...seed, _id } as Row, update);
      await db.insertAsync(inserted);
      return { result: { matchedCount: 0, modifiedCount: 0, upsertedId: _id }, after: inserted };
    });
  }

  async updateMany(filter: port.Filter, update: port.Update): Promise<port.UpdateResult> {
    return this.write(async (db) => {
      const matches = (await db.findAsync(toNedbQuery(filter))) as unknown as Row[];
      let modifiedCount = 0;
      for (const before of matches) {
        const after = applyUpdate(before, update);
        if (sameValue(before, after)) continue;
        await db.updateAsync({ _id: before._id }, after, {});
        modifiedCount++;
      }
      return { matchedCount: matches.length, modifiedCount };
    });
  }

  async deleteOne(filter: port.Filter): Promise<number> {
    return this.write((db) => db.removeAsync(toNedbQuery(filter), { multi: false }));
  }

  async deleteMany(filter: port.Filter): Promise<number> {
    return this.write((db) => db.removeAsync(toNedbQuery(filter), { multi: true }));
  }

  async ensureIndexes(specs: readonly port.IndexSpec[]): Promise<void> {
    await this.write(async (db) => {
      for (const spec of specs) {
        const fields = Object.keys(spec.fields);
        await db.ensureIndexAsync({
          fieldName: fields.length === 1 ? (fields[0] as string) : fields,
          unique: spec.unique === true,
          sparse: spec.sparse === true,
        });
      }
    });
  }
}

/**
 * Opens a NeDB store (in memory without `dataDir`). Collections load lazily on first use.
 * @throws StoreError `DATA_DIR_LOCKED` when another live process or open store holds `dataDir`
 */
export async function openNedbStore(options: NedbStoreOptions = {}): Promise<port.Store> {
  const { dataDir } = options;
  const release = dataDir === undefined ? undefined : await acquireDataDirLock(dataDir);
  const compactionIntervalMs = dataDir === undefined ? undefined : Math.max(5_000, options.compactionIntervalMs ?? 600_000);
  const collections = new Map<string, NedbCollection<port.StoredDocument>>();
  let closed = false;
  let closing: Promise<void> | undefined;
  return {
    kind: dataDir === undefined ? "nedb-memory" : "nedb-files",
    collection<T extends port.StoredDocument>(name: string): port.Collection<T> {
      if (closed) throw new StoreError("STORE_CLOSED", `store is closed (collection ${name})`, { collection: name });
      let found = collections.get(name);
      if (found === undefined) {
        const db = new Datastore<Row>(dataDir === undefined ? { inMemoryOnly: true } : { filename: join(dataDir, `${name}.db`) });
        found = new NedbCollection(name, db, () => closed, compactionIntervalMs);
        collections.set(name, found);
      }
      return found as unknown as port.Collection<T>;
    },
    close(): Promise<void> {
      closing ??= (async () => {
        closed = true;
        try {
          await Promise.all([...collections.values()].map((c) => c.close(dataDir !== undefined)));
        } finally {
          await release?.();
        }
      })();
      return closing;
    },
  };
}
