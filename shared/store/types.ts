/**
 * The repository port: collections of JSON-like documents with string `_id`s that we generate, queried and
 * updated with a documented subset of the MongoDB query/update language. Two adapters implement it (SQLite,
 * MongoDB); only they import a driver. Everything outside the subset is rejected at the port with a
 * `StoreError` of type `INVALID_STORE_QUERY`, so both adapters see the same, well-defined inputs.
 *
 * Values: strings, finite numbers, booleans, null, arrays and plain objects. No `bigint`, `Date`, `Buffer`,
 * `NaN`: Lovelace and token quantities are stored as decimal strings by callers (`5000000n.toString()`), times
 * as Unix milliseconds (numbers). Properties whose value is `undefined` are dropped on write.
 */

export type Scalar = string | number | boolean;

/** A storable value. */
export type Value = Scalar | null | readonly Value[] | { readonly [key: string]: Value | undefined };

/** Every stored document has a string `_id` chosen by the caller (e.g. `randomUUID()` or a natural key). */
export interface StoredDocument {
  _id: string;
}

/** Operators allowed on one field. Range operators compare numbers with numbers and strings with strings only. */
export interface FieldOperators {
  $eq?: Scalar;
  $ne?: Scalar;
  $gt?: string | number;
  $gte?: string | number;
  $lt?: string | number;
  $lte?: string | number;
  $in?: readonly Scalar[];
  $nin?: readonly Scalar[];
  $exists?: boolean;
}

/** `{ field: scalar }` is equality (on an array field: "some element equals"). */
export type FieldCondition = Scalar | FieldOperators;

/**
 * A filter: dotted paths to conditions, combined with `$and` / `$or` (non-empty arrays of filters).
 * Not in the subset: `$not`, `$nor`, `$regex`, `$where`, `$elemMatch`, `$size`, equality against `null`,
 * arrays or objects (use `$exists` and dotted paths).
 */
export interface Filter {
  $and?: readonly Filter[];
  $or?: readonly Filter[];
  [path: string]: FieldCondition | readonly Filter[] | undefined;
}

/** A `$push` / `$addToSet` operand: one value, or several with `$each`. */
export type ArrayAppend = Value | { readonly $each: readonly Value[] };

/** A `$pull` operand: an equal scalar, `{ $in: [...] }`, or an object condition matched against element fields. */
export type PullCondition = Scalar | { readonly $in: readonly Scalar[] } | { readonly [field: string]: Scalar };

/** An update: operators only (no replacement documents), `_id` is immutable, no two operators on overlapping paths. */
export interface Update {
  $set?: { readonly [path: string]: Value };
  $unset?: { readonly [path: string]: true | 1 | "" };
  $inc?: { readonly [path: string]: number };
  $push?: { readonly [path: string]: ArrayAppend };
  $pull?: { readonly [path: string]: PullCondition };
  $addToSet?: { readonly [path: string]: ArrayAppend };
}

export type SortSpec = Readonly<Record<string, 1 | -1>>;

/** All 1 (keep these fields) or all 0 (omit them); `_id` may be 0 in either form. */
export type Projection = Readonly<Record<string, 0 | 1>>;

export interface FindOptions {
  /** Ties are broken by `_id` ascending on every adapter, so paging is deterministic. */
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface UpdateOptions {
  /**
   * Insert when nothing matches. The new document starts from the filter's equality conditions (top level and
   * inside `$and`), then the update is applied. Its `_id` is the filter's `_id` equality if any, else a new UUID.
   */
  upsert?: boolean;
}

export interface UpdateResult {
  matchedCount: number;
  /** Documents whose content actually changed (a `$set` to the same value does not count). */
  modifiedCount: number;
  upsertedId?: string;
}

/** An index declaration. Field order matters for MongoDB; SQLite ignores the direction. */
export interface IndexSpec {
  fields: Readonly<Record<string, 1 | -1>>;
  unique?: boolean;
  /** Leave out documents that lack the field(s): lets a unique index accept many documents without the key. */
  sparse?: boolean;
}

export interface Collection<T extends StoredDocument> {
  readonly name: string;
  /** @throws DuplicateKeyError (`DUPLICATE_KEY`) when `_id` or a unique index key exists. */
  insertOne(doc: T): Promise<void>;
  /**
   * Inserts all documents or none: when any of them hits a unique key (already stored, or twice in the batch)
   * nothing of the batch remains and `DuplicateKeyError` is thrown. This is the atomic claim primitive used for
   * cross-replica locks (see `lease-table.ts`).
   * @throws DuplicateKeyError
   */
  insertMany(docs: readonly T[]): Promise<void>;
  /** Any one matching document (no defined order; use `find` with `sort` and `limit: 1` to pick one). */
  findOne(filter: Filter): Promise<T | undefined>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /** Like `find`, returning only the projected fields. */
  findProjected(filter: Filter, projection: Projection, options?: FindOptions): Promise<Partial<T>[]>;
  count(filter?: Filter): Promise<number>;
  /**
   * Updates one matching document (which one is undefined when several match).
   * @throws DuplicateKeyError when the change (or the upsert) would break a unique index; nothing is changed.
   */
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  /** Not atomic across documents (on either adapter): a failure part-way leaves the earlier documents updated. */
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Updates (or upserts) one document and returns it as it is after the update; undefined when nothing matched. */
  findOneAndUpdate(filter: Filter, update: Update, options?: UpdateOptions): Promise<T | undefined>;
  /** @returns the number of documents deleted (0 or 1). */
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  /**
   * Declares indexes; idempotent. Every lookup path a service uses should be declared here. Changing the
   * options of an existing index is not supported (MongoDB: `INVALID_STORE_QUERY`; SQLite keeps the old one).
   * @throws DuplicateKeyError when existing documents already violate a new unique index.
   */
  ensureIndexes(specs: readonly IndexSpec[]): Promise<void>;
}

export type StoreKind = "sqlite-memory" | "sqlite-files" | "mongodb";

export interface Store {
  readonly kind: StoreKind;
  /** Collection names: lowercase letters, digits, `_` and `-`, starting with a letter (max 64). */
  collection<T extends StoredDocument>(name: string): Collection<T>;
  /** Flushes and releases everything; later calls fail with `STORE_CLOSED`. Idempotent. */
  close(): Promise<void>;
}
