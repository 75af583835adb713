/** The fractionized-certificate extension as the registry knows it (shared/extensions/extension-module.ts). */
import type { ExtensionModule } from "../extension-module";
import type * as Extension from "./extension";
import type * as Scripts from "./scripts";
import { FRACTIONIZED_NAMES, FRACTIONIZED_REFUSALS } from "./names";
import { FRACTIONIZED_ROUTES } from "./routes";

export const FRACTIONIZED_MODULE = {
  ...FRACTIONIZED_NAMES,
  // required when called (extension-module.ts)
  listLayout: (networkId) => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { FRACTIONIZED } = require("./extension") as typeof Extension;
    const { FractionizedScripts } = require("./scripts") as typeof Scripts;
    /* eslint-enable @typescript-eslint/no-require-imports */
    return FRACTIONIZED.layoutOf(new FractionizedScripts(networkId));
  },
  rebuildsRefusedSubmissions: true,
  routes: FRACTIONIZED_ROUTES,
  errorStatuses: FRACTIONIZED_REFUSALS.statuses,
} as const satisfies ExtensionModule;
