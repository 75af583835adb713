/** The tokenizable-certificate extension as the registry knows it (shared/extensions/extension-module.ts). */
import type { ExtensionModule } from "../extension-module";
import type * as Extension from "./extension";
import type * as Scripts from "./scripts";
import { TOKENIZABLE_NAMES, TOKENIZABLE_REFUSALS } from "./names";
import { TOKENIZABLE_ROUTES } from "./routes";

export const TOKENIZABLE_MODULE = {
  ...TOKENIZABLE_NAMES,
  // required when called (extension-module.ts)
  listLayout: (networkId) => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { TOKENIZABLE } = require("./extension") as typeof Extension;
    const { TokenizableScripts } = require("./scripts") as typeof Scripts;
    /* eslint-enable @typescript-eslint/no-require-imports */
    return TOKENIZABLE.layoutOf(new TokenizableScripts(networkId));
  },
  rebuildsRefusedSubmissions: true,
  routes: TOKENIZABLE_ROUTES,
  errorStatuses: TOKENIZABLE_REFUSALS.statuses,
} as const satisfies ExtensionModule;
