/** The fractionized-certificate extension off chain: its codecs, requests, transactions, builds and status. */
export * from "./datum";
export * from "./redeemer";
export * from "./scripts";
export * from "./extension";
export * from "./request";
export * from "./transactions";
export * from "./build";
export * from "./status";
