/** The fractionized-certificate extension as the registry knows it (shared/extensions/extension-module.ts). */
import type { ExtensionModule } from "../extension-module";
import type { NetworkId } from "../../protocol";
import { FRACTIONIZED } from "./extension";
import { FRACTIONIZED_ROUTES } from "./routes";
import { FractionizedScripts } from "./scripts";

export const FRACTIONIZED_MODULE = {
  id: "fractionized-certificate",
  service: FRACTIONIZED.name,
  listLayout: (networkId: NetworkId) => FRACTIONIZED.layoutOf(new FractionizedScripts(networkId)),
  rebuildsRefusedSubmissions: true,
  routes: FRACTIONIZED_ROUTES,
} as const satisfies ExtensionModule;
