/** What every handler of the fractionized list works with in one script evaluation: the list extensions' env. */
import type { ExtensionEnv } from "../sorted-list";

export type FractionizedEnv = ExtensionEnv;
