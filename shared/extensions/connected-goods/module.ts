/** The connected-goods extension as the registry knows it (shared/extensions/extension-module.ts). */
import type { ExtensionModule } from "../extension-module";
import type * as GoodsDecoder from "./goods-decoder";
import { GOODS_ERROR_STATUSES } from "./errors";
import { GOODS_INDEXER_READS } from "./goods-state";
import { GOODS_ROUTES } from "./routes";

export const CONNECTED_GOODS_MODULE = {
  id: "connected-goods",
  service: "connected-goods",
  // required when called (extension-module.ts)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  factDecoder: (networkId) => (require("./goods-decoder") as typeof GoodsDecoder).goodsFactDecoderOf(networkId),
  indexerReads: GOODS_INDEXER_READS,
  rebuildsRefusedSubmissions: false,
  routes: GOODS_ROUTES,
  errorStatuses: GOODS_ERROR_STATUSES,
} as const satisfies ExtensionModule;
