/** The off-chain sorted-list machinery shared by the list extensions (fractionized, tokenizable). */
export * from "./layout";
export * from "./list-view";
export * from "./list-store";
export * from "./list-plugin";
export * from "./list-source";
export * from "./transaction-parts";
export * from "./build-log";
export * from "./rebuild";
export * from "./extension-errors";
export * from "./request-fields";
export * from "./extension-status";
export * from "./extension-list";
export * from "./extension-build";
export * from "./list-scripts";
