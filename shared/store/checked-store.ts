/**
 * The port's gatekeeper: wraps an adapter so every call is checked against the documented subset before any
 * driver sees it, documents are copied clean (no `undefined`, no foreign types), and sorts get the `_id`
 * tiebreak. Adapters may therefore assume well-formed input.
 */
import { checkPath, isPlainObject, toStoredDocument } from "./document-values";
import { invalidQuery } from "./errors";
import { checkFilter, checkFindOptions, checkProjection, withIdTiebreak } from "./query-language";
import type {
  Collection,
  Filter,
  FindOptions,
  IndexSpec,
  Projection,
  Store,
  StoredDocument,
  Update,
  UpdateOptions,
  UpdateResult,
} from "./types";
import { checkUpdate } from "./update-language";

const COLLECTION_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/** @throws StoreError `INVALID_STORE_QUERY` */
function checkCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name)) {
    invalidQuery(`collection name "${name}" must match ${COLLECTION_NAME.source} (it becomes a table name on SQLite)`, {
      collection: name,
    });
  }
}

/** @throws StoreError `INVALID_STORE_QUERY` */
function checkIndexSpec(spec: IndexSpec): void {
  if (!isPlainObject(spec) || !isPlainObject(spec.fields)) invalidQuery("an index spec needs { fields: { path: 1 | -1 } }");
  const entries = Object.entries(spec.fields);
  if (entries.length === 0) invalidQuery("an index needs at least one field");
  for (const [path, direction] of entries) {
    checkPath(path, "index");
    if (path.includes(",")) invalidQuery(`index field "${path}" may not contain a comma`, { path });
    if (direction !== 1 && direction !== -1) invalidQuery(`index direction for "${path}" must be 1 or -1`, { path });
  }
  if (entries.length === 1 && entries[0]?.[0] === "_id") invalidQuery("_id is always uniquely indexed; do not declare it", { path: "_id" });
}

function checkOptions(options: FindOptions | undefined): FindOptions {
  const checked = options ?? {};
  checkFindOptions(checked);
  return { ...checked, sort: withIdTiebreak(checked.sort) };
}

function checkUpdateOptions(options: UpdateOptions | undefined): UpdateOptions {
  if (options?.upsert !== undefined && typeof options.upsert !== "boolean") invalidQuery("upsert must be a boolean");
  return options ?? {};
}

class CheckedCollection<T extends StoredDocument> implements Collection<T> {
  constructor(private readonly inner: Collection<T>) {}
  get name(): string {
    return this.inner.name;
  }
  async insertOne(doc: T): Promise<void> {
    return this.inner.insertOne(toStoredDocument(doc));
  }
  async insertMany(docs: readonly T[]): Promise<void> {
    if (!Array.isArray(docs)) invalidQuery("insertMany needs an array");
    if (docs.length === 0) return;
    return this.inner.insertMany(docs.map((d) => toStoredDocument(d)));
  }
  async findOne(filter: Filter): Promise<T | undefined> {
    checkFilter(filter);
    return this.inner.findOne(filter);
  }
  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    checkFilter(filter);
    return this.inner.find(filter, checkOptions(options));
  }
  async findProjected(filter: Filter, projection: Projection, options?: FindOptions): Promise<Partial<T>[]> {
    checkFilter(filter);
    checkProjection(projection);
    return this.inner.findProjected(filter, projection, checkOptions(options));
  }
  async count(filter: Filter = {}): Promise<number> {
    checkFilter(filter);
    return this.inner.count(filter);
  }
  async updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult> {
    checkFilter(filter);
    checkUpdate(update);
    return this.inner.updateOne(filter, update, checkUpdateOptions(options));
  }
  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    checkFilter(filter);
    checkUpdate(update);
    return this.inner.updateMany(filter, update);
  }
  async findOneAndUpdate(filter: Filter, update: Update, options?: UpdateOptions): Promise<T | undefined> {
    checkFilter(filter);
    checkUpdate(update);
    return this.inner.findOneAndUpdate(filter, update, checkUpdateOptions(options));
  }
  async deleteOne(filter: Filter): Promise<number> {
    checkFilter(filter);
    return this.inner.deleteOne(filter);
  }
  async deleteMany(filter: Filter): Promise<number> {
    checkFilter(filter);
    return this.inner.deleteMany(filter);
  }
  async ensureIndexes(specs: readonly IndexSpec[]): Promise<void> {
    if (!Array.isArray(specs)) invalidQuery("ensureIndexes needs an array of index specs");
    specs.forEach(checkIndexSpec);
    return this.inner.ensureIndexes(specs);
  }
}

/** Wraps an adapter's store so that every collection it hands out checks its inputs first. */
export function checkedStore(inner: Store): Store {
  const collections = new Map<string, Collection<StoredDocument>>();
  return {
    kind: inner.kind,
    collection<T extends StoredDocument>(name: string): Collection<T> {
      checkCollectionName(name);
      let found = collections.get(name);
      if (found === undefined) {
        found = new CheckedCollection(inner.collection<StoredDocument>(name));
        collections.set(name, found);
      }
      return found as unknown as Collection<T>;
    },
    close: () => inner.close(),
  };
}
