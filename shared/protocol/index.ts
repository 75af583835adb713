/** Off-chain twins of the validators: codecs, derivations and deployment script helpers. */
export * from "./errors";
export * from "./plutus-data";
export * from "./metadata-chunks";
export * from "./certificate";
export * from "./proxy-datum";
export * from "./proxy-redeemer";
export * from "./bootstrap-datum";
export * from "./state-datum";
export * from "./state-redeemer";
export * from "./token-names";
export * from "./blueprint";
export * from "./scripts";
export * from "./blake2b";
