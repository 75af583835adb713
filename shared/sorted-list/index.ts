/** The indexer's record of the sorted lists the list extensions keep on chain (one store and plugin per kind of list). */
export * from "./layout";
export * from "./list-store";
export * from "./list-plugin";
