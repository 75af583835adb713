/** What every handler of the tokenizable list works with in one script evaluation: the list extensions' env. */
import type { ExtensionEnv } from "../sorted-list";

export type TokenizableEnv = ExtensionEnv;
