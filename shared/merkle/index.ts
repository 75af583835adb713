export * from "./merkle-tree";
export * from "./inclusion-proof";
