/**
 * MongoDB adapter (official `mongodb` 7.9.0 driver). The port's subset *is* MongoDB's language, so filters and
 * updates pass through unchanged; this file adds what the port promises beyond that:
 * - `insertMany` all-or-none: an ordered insert stops at the first duplicate; the documents inserted before it
 *   (ours: they had just been written) are deleted again before `DuplicateKeyError` is thrown. Works on a
 *   standalone server and on replica sets alike (no transaction needed). Another writer may briefly see the
 *   partial batch and fail its own claim, which is the safe direction for locks. If the process dies between
 *   insert and rollback, the partial batch stays; lock documents carry an expiry for that reason.
 * - upserts get a string `_id` (`$setOnInsert`) instead of an ObjectId.
 * - driver errors become `StoreError`s: 11000 → `DUPLICATE_KEY`; bad-value/type/path errors →
 *   `INVALID_STORE_QUERY`; server selection / network → `STORE_UNAVAILABLE` (retryable).
 */
import { randomUUID } from "node:crypto";
import { MongoClient, type Collection as MongoCollection, type Document, type Filter as MongoFilter, type UpdateFilter } from "mongodb";
import { DuplicateKeyError, StoreError } from "./errors";
import { upsertSeed } from "./query-language";
// `port.*`: the store port's own types, kept apart from the driver's (MongoCollection, MongoFilter, …).
import type * as port from "./types";

export interface MongoStoreOptions {
  url: string;
  /** Database name; default: the one in the URL, else `cert_anchor`. */
  dbName?: string;
  /** How long to wait for a reachable server before `STORE_UNAVAILABLE` (ms). Default 10 s. */
  serverSelectionTimeoutMS?: number;
}

type Row = Document & { _id: string };

const DUPLICATE_KEY_CODES = new Set([11000, 11001]);
/** BadValue, TypeMismatch, PathNotViable, ConflictingUpdateOperators, DollarPrefixedFieldName, InvalidIdField,
 * IndexOptionsConflict / IndexKeySpecsConflict (an index redeclared with other options)… */
const INVALID_QUERY_CODES = new Set([2, 9, 14, 28, 40, 52, 53, 56, 66, 85, 86]);
const UNAVAILABLE_ERRORS = new Set([
  "MongoServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoTopologyClosedError",
  "MongoNotConnectedError",
]);

interface WriteErrorLike {
  index?: number;
  code?: number;
  errmsg?: string;
}

function writeErrorsOf(err: unknown): WriteErrorLike[] {
  const w = (err as { writeErrors?: WriteErrorLike | WriteErrorLike[] })?.writeErrors;
  if (w === undefined) return [];
  return Array.isArray(w) ? w : [w];
}

/**
 * The position in an ordered bulk insert of the document that hit a duplicate key, or undefined when `err` is
 * not a duplicate-key failure. @internal exported for tests
 */
export function duplicateIndexOf(err: unknown): number | undefined {
  const dup = writeErrorsOf(err).find((w) => w.code !== undefined && DUPLICATE_KEY_CODES.has(w.code));
  if (dup !== undefined) return dup.index ?? 0;
  const code = (err as { code?: unknown })?.code;
  return typeof code === "number" && DUPLICATE_KEY_CODES.has(code) ? 0 : undefined;
}

/** Maps a driver error to the port's errors (other errors pass through unchanged). @internal exported for tests */
export function mapMongoError(err: unknown, collection: string): unknown {
  if (err instanceof StoreError || typeof err !== "object" || err === null) return err;
  const e = err as { code?: unknown; name?: string; message?: string; keyValue?: unknown; errmsg?: string };
  if (duplicateIndexOf(err) !== undefined) {
    const message = writeErrorsOf(err)[0]?.errmsg ?? e.message ?? "";
    const index = /index: (\S+)/.exec(message)?.[1];
    return new DuplicateKeyError(`duplicate key in ${collection}: ${message}`, {
      collection,
      ...(e.keyValue !== undefined ? { key: e.keyValue } : {}),
      ...(index !== undefined ? { index } : {}),
    });
  }
  if (typeof e.code === "number" && INVALID_QUERY_CODES.has(e.code)) {
    return new StoreError("INVALID_STORE_QUERY", e.message ?? "invalid query", { reason: e.message, collection, mongoCode: e.code });
  }
  if (e.name !== undefined && UNAVAILABLE_ERRORS.has(e.name)) {
    return new StoreError(
      "STORE_UNAVAILABLE",
      `MongoDB unreachable: ${e.message ?? e.name}`,
      { collection, cause: e.name },
      { retryable: true },
    );
  }
  return err;
}

/** Adds a fresh string `_id` for the insert branch of an upsert unless the filter pins `_id`. */
function upsertUpdate(filter: port.Filter, update: port.Update, upsert: boolean): UpdateFilter<Row> {
  if (!upsert || typeof upsertSeed(filter)._id === "string") return update as UpdateFilter<Row>;
  return { ...update, $setOnInsert: { _id: randomUUID() } } as UpdateFilter<Row>;
}

class MongoStoreCollection<T extends port.StoredDocument> implements port.Collection<T> {
  constructor(
    readonly name: string,
    private readonly coll: MongoCollection<Row>,
    private readonly isClosed: () => boolean,
  ) {}

  private async run<R>(task: () => Promise<R>): Promise<R> {
    if (this.isClosed()) throw new StoreError("STORE_CLOSED", `store is closed (collection ${this.name})`, { collection: this.name });
    try {
      return await task();
    } catch (err) {
      throw mapMongoError(err, this.name);
    }
  }

  async insertOne(doc: T): Promise<void> {
    await this.run(() => this.coll.insertOne(doc as unknown as Row));
  }

  async insertMany(docs: readonly T[]): Promise<void> {
    await this.run(async () => {
      try {
        await this.coll.insertMany(docs as unknown as Row[], { ordered: true });
      } catch (err) {
        const failedAt = duplicateIndexOf(err);
        if (failedAt !== undefined && failedAt > 0) {
          const ours = docs.slice(0, failedAt).map((d) => d._id);
          await this.coll.deleteMany({ _id: { $in: ours } });
        }
        throw err;
      }
    });
  }

  findOne(filter: port.Filter): Promise<T | undefined> {
    return this.run(async () => ((await this.coll.findOne(filter as MongoFilter<Row>)) ?? undefined) as T | undefined);
  }

  find(filter: port.Filter, options: port.FindOptions = {}): Promise<T[]> {
    return this.run(async () => (await this.coll.find(filter as MongoFilter<Row>, cursorOptions(options)).toArray()) as unknown as T[]);
  }

  findProjected(filter: port.Filter, projection: port.Projection, options: port.FindOptions = {}): Promise<Partial<T>[]> {
    return this.run(
      async () =>
        (await this.coll.find(filter as MongoFilter<Row>, { ...cursorOptions(options), projection }).toArray()) as unknown as Partial<T>[],
    );
  }

  count(filter: port.Filter = {}): Promise<number> {
    return this.run(() => this.coll.countDocuments(filter as MongoFilter<Row>));
  }

  updateOne(filter: port.Filter, update: port.Update, options: port.UpdateOptions = {}): Promise<port.UpdateResult> {
    const upsert = options.upsert === true;
    return this.run(async () => {
      const r = await this.coll.updateOne(filter as MongoFilter<Row>, upsertUpdate(filter, update, upsert), { upsert });
      return {
        matchedCount: r.matchedCount,
        modifiedCount: r.modifiedCount,
        ...(r.upsertedId !== null && r.upsertedId !== undefined ? { upsertedId: String(r.upsertedId) } : {}),
      };
    });
  }

  updateMany(filter: port.Filter, update: port.Update): Promise<port.UpdateResult> {
    return this.run(async () => {
      const r = await this.coll.updateMany(filter as MongoFilter<Row>, update as UpdateFilter<Row>);
      return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount };
    });
  }

  findOneAndUpdate(filter: port.Filter, update: port.Update, options: port.UpdateOptions = {}): Promise<T | undefined> {
    const upsert = options.upsert === true;
    return this.run(async () => {
      const after = await this.coll.findOneAndUpdate(filter as MongoFilter<Row>, upsertUpdate(filter, update, upsert), {
        upsert,
        returnDocument: "after",
      });
      return (after ?? undefined) as T | undefined;
    });
  }

  deleteOne(filter: port.Filter): Promise<number> {
    return this.run(async () => (await this.coll.deleteOne(filter as MongoFilter<Row>)).deletedCount);
  }

  deleteMany(filter: port.Filter): Promise<number> {
    return this.run(async () => (await this.coll.deleteMany(filter as MongoFilter<Row>)).deletedCount);
  }

  async ensureIndexes(specs: readonly port.IndexSpec[]): Promise<void> {
    if (specs.length === 0) return;
    await this.run(() =>
      this.coll.createIndexes(
        specs.map((s) => ({
          key: { ...s.fields },
          ...(s.unique === true ? { unique: true } : {}),
          ...(s.sparse === true ? { sparse: true } : {}),
        })),
      ),
    );
  }
}

function cursorOptions(options: port.FindOptions): { sort?: Record<string, 1 | -1>; skip?: number; limit?: number } {
  return {
    ...(options.sort !== undefined ? { sort: { ...options.sort } } : {}),
    ...(options.skip ? { skip: options.skip } : {}),
    ...(options.limit ? { limit: options.limit } : {}),
  };
}

/**
 * Connects to MongoDB and returns the store.
 * @throws StoreError `STORE_UNAVAILABLE` when no server answers within `serverSelectionTimeoutMS`
 */
export async function openMongoStore(options: MongoStoreOptions): Promise<port.Store> {
  const client = new MongoClient(options.url, {
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 10_000,
    ignoreUndefined: true,
  });
  try {
    await client.connect();
  } catch (err) {
    await client.close().catch(() => undefined);
    throw mapMongoError(err, "");
  }
  const urlDbName = client.options.dbName;
  const db = client.db(options.dbName ?? (urlDbName && urlDbName !== "test" ? urlDbName : "cert_anchor"));
  const collections = new Map<string, MongoStoreCollection<port.StoredDocument>>();
  let closed = false;
  return {
    kind: "mongodb",
    collection<T extends port.StoredDocument>(name: string): port.Collection<T> {
      if (closed) throw new StoreError("STORE_CLOSED", `store is closed (collection ${name})`, { collection: name });
      let found = collections.get(name);
      if (found === undefined) {
        found = new MongoStoreCollection(name, db.collection<Row>(name), () => closed);
        collections.set(name, found);
      }
      return found as unknown as port.Collection<T>;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
