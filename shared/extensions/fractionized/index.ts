/** The fractionized-certificate extension off chain: requests, the list as builds see it, transactions, status. */
export * from "./errors";
export * from "./request";
export * from "./list-layout";
export * from "./list-state";
export * from "./transactions";
export * from "./build";
export * from "./status";
