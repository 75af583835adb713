/** The tokenizable-certificate extension off chain: its codecs, requests, CIP-68 metadata, transactions, builds and status. */
export * from "./datum";
export * from "./redeemer";
export * from "./cip68";
export * from "./scripts";
export * from "./extension";
export * from "./request";
export * from "./metadata";
export * from "./transactions";
export * from "./build";
export * from "./status";
