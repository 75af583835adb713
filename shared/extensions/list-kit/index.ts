/** What the list extensions (fractionized, tokenizable) share off chain: requests, the list as builds see it, builds, status, rebuilds. */
export * from "./list-tokens";
export * from "./list-datum";
export * from "./list-view";
export * from "./list-source";
export * from "./list-state";
export * from "./list-errors";
export * from "./request-fields";
export * from "./list-request";
export * from "./list-extension";
export * from "./list-scripts";
export * from "./transaction-parts";
export * from "./build-answer";
export * from "./list-build";
export * from "./list-status";
export * from "./build-log";
export * from "./rebuild";
