/** The connected-goods extension as the registry knows it (shared/extensions/extension-module.ts). */
import type { ExtensionModule } from "../extension-module";
import { goodsFactDecoderOf } from "./goods-decoder";
import { GOODS_INDEXER_READS } from "./goods-state";
import { GOODS_ROUTES } from "./routes";

export const CONNECTED_GOODS_MODULE = {
  id: "connected-goods",
  service: "connected-goods",
  factDecoder: goodsFactDecoderOf,
  indexerReads: GOODS_INDEXER_READS,
  rebuildsRefusedSubmissions: false,
  routes: GOODS_ROUTES,
} as const satisfies ExtensionModule;
