export * from "./merkle-tree";
export * from "./inclusion-proof";
export * from "./tree-store";
export * from "./batch-limits";
export * from "./calendar";
export * from "./calendar-access";
export * from "./anchor-transaction";
export * from "./chain-anchor";
