/**
 * Keeps service files and the gateway's route table in sync, at compile time and at run time.
 *
 * A service declares the actions the gateway calls with `defineRouteActions("verifier", { byHash: {...} })`:
 * - every action an IMPLEMENTED route of the route table (routes/) targets must be present (else tsc fails);
 * - a key that no route targets is rejected (typos, or actions that belong in `internalActions`);
 * - the actions come back `visibility: "published"` (the only visibility the gateway may call).
 * Actions only other services call go through `internalActions(...)`, which marks them `public`: callable over
 * the broker, never through the gateway.
 */
import type { ActionSchema } from "moleculer";
import type { ImplementedRouteActionName, RouteActionName } from "./routes";
import type { ServiceName } from "../mesh/service-names";

export type RouteActions<S extends ServiceName> = { [K in ImplementedRouteActionName<S>]: ActionSchema } & {
  [K in RouteActionName<S>]?: ActionSchema;
};

/** The gateway-facing actions of service S, checked against the route table. */
export function defineRouteActions<S extends ServiceName>(_service: S, actions: RouteActions<S>): Record<string, ActionSchema> {
  return withVisibility(actions as Record<string, ActionSchema>, "published");
}

/** Actions for other services only: never reachable through the gateway. */
export function internalActions(actions: Record<string, ActionSchema>): Record<string, ActionSchema> {
  return withVisibility(actions, "public");
}

function withVisibility(actions: Record<string, ActionSchema>, visibility: "published" | "public"): Record<string, ActionSchema> {
  return Object.fromEntries(Object.entries(actions).map(([name, schema]) => [name, { ...schema, visibility }]));
}
