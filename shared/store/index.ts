/** The store port: types, factory, errors and the lease table. Services import from here, never a driver. */
export * from "./types";
export { createStore, readStoreConfig, DEFAULT_DATA_DIR, type StoreConfig } from "./create-store";
export { StoreError, DuplicateKeyError, isDuplicateKeyError, type StoreErrorType } from "./errors";
export { createLeaseTable, type LeaseTable, type LeaseDocument, type Lease, type AcquireResult } from "./lease-table";
export { defineCollection, openCollection, type CollectionDefinition } from "./collection-definition";
