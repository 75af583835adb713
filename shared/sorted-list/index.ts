/** The off-chain sorted-list machinery shared by the list extensions (fractionized, tokenizable). */
export * from "./layout";
export * from "./list-view";
export * from "./list-store";
export * from "./list-plugin";
