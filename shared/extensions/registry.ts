/**
 * THE list of extensions: each declares itself in its own folder (`<name>/module.ts`, extension-module.ts), and the
 * gateway (`GET /extensions`, the route table), the submitter (rebuilds after a refusal), the indexer (fact
 * decoders and reads, sorted lists) and the service names (checked by test/unit/extensions/registry.spec.ts) derive
 * from it. Adding an extension is its own folder and one line here.
 */
import type { FactDecoder } from "../indexer/protocol-decoder";
import type { NetworkId } from "../protocol";
import type { SortedListLayout } from "../sorted-list/layout";
import { CONNECTED_GOODS_MODULE } from "./connected-goods/module";
import type { ExtensionModule, IndexerRead } from "./extension-module";
import { FRACTIONIZED_MODULE } from "./fractionized/module";
import { TOKENIZABLE_MODULE } from "./tokenizable/module";

export const EXTENSIONS = [CONNECTED_GOODS_MODULE, FRACTIONIZED_MODULE, TOKENIZABLE_MODULE] as const satisfies readonly ExtensionModule[];

type Extension = (typeof EXTENSIONS)[number];
const modules: readonly ExtensionModule[] = EXTENSIONS;

/** The extensions' routes, in registry order (their literal types kept, for the route table's action checks). */
type ExtensionRoute = Extension["routes"][number];
export const EXTENSION_ROUTES: readonly ExtensionRoute[] = EXTENSIONS.flatMap((m): readonly ExtensionRoute[] => m.routes);

/** `GET /extensions`: each extension's identifier and the service that provides it. */
export const EXTENSION_SERVICES: Readonly<Record<Extension["id"], Extension["service"]>> = Object.fromEntries(
  EXTENSIONS.map((m) => [m.id, m.service]),
) as Record<Extension["id"], Extension["service"]>;

/** The services whose builds a refused submission may be (each answers an internal `rebuild`). */
export const REBUILDING_SERVICES: readonly string[] = modules.filter((m) => m.rebuildsRefusedSubmissions).map((m) => m.service);

/** The extensions' fact decoders, for the indexer. */
export function extensionFactDecoders(networkId: NetworkId): FactDecoder[] {
  return modules.flatMap((m) => (m.factDecoder ? [m.factDecoder(networkId)] : []));
}

/** The extensions' reads the indexer serves, by action name. */
export const EXTENSION_INDEXER_READS: Readonly<Record<string, IndexerRead<never>>> = Object.assign(
  {},
  ...modules.map((m) => m.indexerReads ?? {}),
) as Record<string, IndexerRead<never>>;

/** The layouts of the extensions' sorted lists, for the indexer's list plugins. */
export function extensionListLayouts(networkId: NetworkId): SortedListLayout[] {
  return modules.flatMap((m) => (m.listLayout ? [m.listLayout(networkId)] : []));
}

/** The HTTP status of every type the extensions refuse with; two extensions naming one type must agree. */
export const EXTENSION_ERROR_STATUSES: Readonly<Record<string, number>> = modules.reduce<Record<string, number>>((all, m) => {
  for (const [type, status] of Object.entries(m.errorStatuses)) {
    if (all[type] !== undefined && all[type] !== status)
      throw new Error(`Extension ${m.id} answers ${type} with ${status}, another extension with ${all[type]}.`);
    all[type] = status;
  }
  return all;
}, {});
