/** What the list extensions (fractionized, tokenizable) share off chain: requests, the list as builds see it, builds, status, rebuilds. */
export * from "./list-tokens";
export * from "./list-view";
export * from "./list-source";
export * from "./transaction-parts";
export * from "./build-log";
export * from "./rebuild";
export * from "./list-errors";
export * from "./request-fields";
export * from "./list-status";
export * from "./list-state";
export * from "./list-build";
export * from "./list-scripts";
