/** The shape of one route of the table, and what several areas' routes share. */
import { HEX_PATTERNS } from "../../domain/hex";
import type { SchemaName } from "../response-schemas";
import type { CacheKind } from "../read-caching";

export type HttpMethod = "GET" | "POST" | "DELETE";

export interface QueryParamSpec {
  readonly name: string;
  readonly required: boolean;
  readonly description: string;
  /** The parameter may be given several times (`?subject=a&subject=b`). */
  readonly repeated?: true;
}

export interface RouteSpec {
  readonly method: HttpMethod;
  /** Relative to `/api/v1`, OpenAPI form: `/txs/{txHash}/scripts`. */
  readonly path: string;
  /** `<service>.<action>` the gateway calls. */
  readonly action: string;
  /** OpenAPI tag (group). */
  readonly tag: string;
  readonly summary: string;
  /** What the body carries (POST), in words. */
  readonly request?: string;
  /** What a 200 (or `successStatus`) answers, in words. */
  readonly response: string;
  /** The status of a successful answer when it is not 200 (the action sets it in `ctx.meta.$statusCode`). */
  readonly successStatus?: 201 | 202;
  /**
   * Content type of a 200 (default application/json). `text/event-stream`: the gateway answers the route itself, as
   * Server-Sent Events pulled from the route's action (../event-stream.ts), before the router.
   */
  readonly responseType?: "application/json" | "text/html" | "text/plain" | "text/event-stream";
  /** Schema of a 200 JSON body (../response-schemas/). */
  readonly responseSchema?: SchemaName;
  /** A `text/plain` route whose 200 is JSON of this schema instead for some bodies (the request form decides). */
  readonly alsoJson?: SchemaName;
  /** The error codes the route's service answers (their statuses come from ../http-status.ts). */
  readonly errors?: readonly string[];
  /** Schema of those errors' bodies, when they carry the route's own fields beside `error` and `message`. */
  readonly failureSchema?: SchemaName;
  /** Error codes of a route with a `failureSchema` that answer the plain error body all the same. */
  readonly plainErrors?: readonly string[];
  /** Content type of an error status other than JSON (an HTML page). */
  readonly errorResponseType?: Readonly<Record<number, "text/html">>;
  /** Error statuses answered as JSON to API clients and as an HTML page to a browser (`Accept: text/html`). */
  readonly htmlForBrowsers?: readonly number[];
  /** Descriptions of error statuses, in words (default: a generic one). */
  readonly statuses?: Readonly<Record<number, string>>;
  readonly query?: readonly QueryParamSpec[];
  /** Request headers the route reads (besides the gateway's own: API keys, conditional requests). */
  readonly requestHeaders?: readonly QueryParamSpec[];
  /** Regex patterns of path parameters. */
  readonly pathPatterns?: Readonly<Record<string, string>>;
  readonly implemented: boolean;
  /** "admin": needs ADMIN_API_KEY when it is configured. */
  readonly auth?: "admin";
  /**
   * The route reads a webhook management token (`Authorization: Bearer whm_…`, ../webhook-token.ts): "required"
   * answers 401 without one, "optional" reads it when it comes. The action gets its SHA-256 as `meta.webhookOwner`.
   */
  readonly bearer?: "required" | "optional";
  /** Needs the deployed protocol: answers 503 while the embedded first start is still deploying it. */
  readonly requiresProtocol?: true;
  /** The whole body (any JSON value, or raw text) is passed to the action as this param. */
  readonly wholeBodyAs?: string;
  /**
   * An `application/octet-stream` body is accepted too and passed to the action, as bytes, in this param (the
   * other params then come from the query string).
   */
  readonly binaryBodyAs?: string;
  /** This route's body limits, above the gateway's default (raised only for routes that need it). */
  readonly bodyLimitBytes?: { readonly json: number; readonly binary?: number };
  /** Params the gateway adds to every call of this route (one action serving several paths). */
  readonly fixedParams?: Readonly<Record<string, string>>;
  /** Answers carry `ETag` and `Cache-Control` and may answer 304 (../read-caching.ts, docs/api.md#caching). */
  readonly cache?: CacheKind;
  /** A GET that costs the services work: counted against the per-client read budget (RATE_LIMIT_READ_PER_MINUTE). */
  readonly readBudget?: true;
  /**
   * The action stops its work when the client leaves before the answer (../request-gone.ts; the service side:
   * shared/mesh/request-signals.ts).
   */
  readonly abandonable?: true;
}

/** Path pattern of a transaction id. */
export const TX_HASH = HEX_PATTERNS.hash32.source;
