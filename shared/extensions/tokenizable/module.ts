/** The tokenizable-certificate extension as the registry knows it (shared/extensions/extension-module.ts). */
import type { ExtensionModule } from "../extension-module";
import type { NetworkId } from "../../protocol";
import { TOKENIZABLE } from "./extension";
import { TOKENIZABLE_ROUTES } from "./routes";
import { TokenizableScripts } from "./scripts";

export const TOKENIZABLE_MODULE = {
  id: "tokenizable-certificate",
  service: TOKENIZABLE.name,
  listLayout: (networkId: NetworkId) => TOKENIZABLE.layoutOf(new TokenizableScripts(networkId)),
  rebuildsRefusedSubmissions: true,
  routes: TOKENIZABLE_ROUTES,
} as const satisfies ExtensionModule;
