/**
 * What an extension declares about itself, in its own folder (`<name>/module.ts`), for the one registry
 * (registry.ts) from which the gateway, the submitter, the indexer and the service names derive. Plain data and
 * functions: no Moleculer here (its service file and shared/mesh/list-extension-service.ts are that side).
 */
import { HEX_PATTERNS } from "../domain/hex";
import type { FactLog } from "../indexer/fact-log";
import type { FactDecoder } from "../indexer/protocol-decoder";
import type { NetworkId } from "../protocol";
import type { SortedListLayout } from "../sorted-list/layout";

/** A read the indexer serves for an extension, as its internal action of that name (params: a fastest-validator schema). */
export interface IndexerRead<P> {
  readonly params: Readonly<Record<string, unknown>>;
  read(log: FactLog, params: P): Promise<unknown>;
}

/** A route of the extension's slice of the route table (checked against the full route spec where the table is built). */
export interface ExtensionRoute {
  readonly method: "GET" | "POST";
  /** relative to `/api/v1`, under `/extension/<id>/` */
  readonly path: string;
  /** `<service>.<action>` */
  readonly action: string;
}

export interface ExtensionModule {
  /** its identifier in `GET /extensions` (docs/api.md#extensions) */
  readonly id: string;
  /** its Moleculer service: `services/<service>.service.ts` (shared/mesh/service-names.ts adds it to the known services) */
  readonly service: string;
  /**
   * The decoder of its facts, which the indexer service gives the indexer. This and `listLayout` require their
   * modules when called: they need CSL, which the gateway, reading the registry for its routes, should not load.
   */
  readonly factDecoder?: (networkId: NetworkId) => FactDecoder;
  /** the reads of its facts the indexer serves (internal actions `indexer.<name>`) */
  readonly indexerReads?: Readonly<Record<string, IndexerRead<never>>>;
  /** the layout of its sorted lists, which the indexer records (`<name>-lists` plugin, `indexer.sortedList`) */
  readonly listLayout?: (networkId: NetworkId) => SortedListLayout;
  /**
   * A submission refused because an input was taken may be one of its builds that lost its list entry: the
   * submitter then asks its service's internal `rebuild` for a replacement (docs/decisions.md#racing-extension-inserts).
   */
  readonly rebuildsRefusedSubmissions: boolean;
  /** its slice of the route table */
  readonly routes: readonly ExtensionRoute[];
  /** the HTTP status of each type it refuses with (the gateway's status table takes them: shared/gateway/http-status.ts) */
  readonly errorStatuses: Readonly<Record<string, number>>;
}

/** What any extension's build can answer besides its own refusals: the issuance's build-status codes, and an unexpected failure. */
export const BUILD_REFUSAL_TYPES = ["ERROR", "UNKNOWN_ERROR", "INSUFFICIENT_FUNDS", "COLLATERAL_REQUIRED", "PENDING_TRANSACTION"] as const;

/** The pattern of a path parameter that is a transaction hash. */
export const TX_HASH_PATTERN = HEX_PATTERNS.hash32.source;
