/**
 * THE route table of the public HTTP API (docs/api.md#route-index). The gateway's aliases, its action
 * whitelist and the OpenAPI document are all generated from this one list, so they cannot drift apart.
 *
 * Conventions:
 * - `path` is relative to `/api/v1` and written in OpenAPI form (`/verify/{hash}`).
 * - `action` is `<service>.<action>` (services are not versioned, see shared/config/service-names.ts).
 * - `implemented: false` makes the gateway answer 501 `NOT_IMPLEMENTED` without calling anything. A service's
 *   issue flips it to `true`; from then on `defineRouteActions` (../route-actions.ts) makes the service file fail to
 *   compile until it declares that action, and test/mesh/route-actions.spec.ts checks it is registered.
 */
import type { ServiceName } from "../../mesh/service-names";
import { ADMIN_ROUTES } from "./admin";
import { CERTIFICATE_ROUTES } from "./certificates";
import { CREDENTIAL_ROUTES } from "./credentials";
import { EVENT_ROUTES } from "./events";
import { EXTENSION_ROUTES } from "../../extensions/registry";
import { LIBRARY_ROUTES } from "./library";
import { META_ROUTES } from "./meta";
import type { RouteSpec } from "./route-spec";
import { SCRIPT_ROUTES } from "./scripts";
import { TRANSPARENCY_LOG_ROUTES } from "./transparency-log";
import { STATISTIC_ROUTES } from "./statistics";
import { TRANSACTION_ROUTES } from "./transactions";
import { USER_ROUTES } from "./users";
import { WEBHOOK_ROUTES } from "./webhooks";

export type { HttpMethod, QueryParamSpec, RouteSpec } from "./route-spec";

/** Every route, area by area; this order is the OpenAPI document's (and the router's, first match first). */
export const ROUTES = [
  ...META_ROUTES,
  ...TRANSACTION_ROUTES,
  ...CERTIFICATE_ROUTES,
  ...TRANSPARENCY_LOG_ROUTES,
  ...EVENT_ROUTES,
  ...WEBHOOK_ROUTES,
  ...USER_ROUTES,
  ...CREDENTIAL_ROUTES,
  ...LIBRARY_ROUTES,
  ...EXTENSION_ROUTES,
  ...STATISTIC_ROUTES,
  ...SCRIPT_ROUTES,
  ...ADMIN_ROUTES,
] as const satisfies readonly RouteSpec[];

type RouteEntry = (typeof ROUTES)[number];

type ActionNamesOf<R, S extends string> = R extends { readonly action: `${S}.${infer N}` } ? N : never;

/** Action names of service S that some route targets. */
export type RouteActionName<S extends ServiceName> = ActionNamesOf<RouteEntry, S>;

/** Action names of service S that an implemented route targets (the service MUST declare these). */
export type ImplementedRouteActionName<S extends ServiceName> = ActionNamesOf<Extract<RouteEntry, { readonly implemented: true }>, S>;

/** `<service>` part of an action id. */
export function serviceOfAction(action: string): string {
  const dot = action.indexOf(".");
  return dot < 0 ? action : action.slice(0, dot);
}
