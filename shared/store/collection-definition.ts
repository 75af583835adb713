/**
 * A collection's name and the indexes its lookups need, declared once next to the code that queries it, so
 * every lookup path a service uses is indexed on both adapters.
 */
import type { Collection, IndexSpec, Store, StoredDocument } from "./types";

export interface CollectionDefinition<T extends StoredDocument> {
  readonly name: string;
  readonly indexes: readonly IndexSpec[];
  /** Phantom field carrying the document type; never set. */
  readonly _type?: T;
}

export function defineCollection<T extends StoredDocument>(name: string, indexes: readonly IndexSpec[] = []): CollectionDefinition<T> {
  return { name, indexes };
}

/**
 * Returns the collection after declaring its indexes (idempotent; call it in a service's `started()`).
 * @throws DuplicateKeyError when stored documents already violate a declared unique index
 */
export async function openCollection<T extends StoredDocument>(store: Store, definition: CollectionDefinition<T>): Promise<Collection<T>> {
  const collection = store.collection<T>(definition.name);
  if (definition.indexes.length > 0) await collection.ensureIndexes(definition.indexes);
  return collection;
}
