/**
 * The gateway's requests as its hooks see them: what moleculer-web leaves on a request, the gateway service itself,
 * and the route the router resolves for a request (resolved once, whichever hook asks first).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Service } from "moleculer";
import type { BodyState } from "./body-reader";
import type { RouteSpec } from "./routes";

/** The fields moleculer-web leaves on a request that our hooks read. */
export type GatewayRequest = IncomingMessage &
  BodyState & {
    $params: Record<string, unknown>;
    $alias?: { routeSpec?: RouteSpec };
    $route?: { cors?: unknown };
    parsedUrl?: string;
    originalUrl?: string;
  };

export interface AliasLike {
  method: string;
  routeSpec?: RouteSpec;
  match(url: string): unknown;
}

/** The gateway service instance, as far as its hooks need it. */
export type GatewayThis = Service & {
  aliases: AliasLike[];
  /** moleculer-web's own alias lookup, the one its router uses */
  resolveAlias(url: string, method: string): { alias: AliasLike; params: Record<string, unknown> } | false;
  writeCorsHeaders(route: unknown, req: IncomingMessage, res: ServerResponse, isPreFlight: boolean): void;
};

/** A request's resolved route, kept so the hooks resolve each request once (null: no route). */
const RESOLVED_ROUTE = Symbol("resolvedRoute");

/** The route the router itself resolves for a request (for a CORS preflight: for the method it announces). */
export function routeSpecOf(service: GatewayThis, req: IncomingMessage): RouteSpec | undefined {
  const memo = req as IncomingMessage & { [RESOLVED_ROUTE]?: RouteSpec | null };
  const known = memo[RESOLVED_ROUTE];
  if (known !== undefined) return known ?? undefined;
  const greq = req as GatewayRequest;
  const method = req.method === "OPTIONS" ? String(req.headers["access-control-request-method"] ?? "") : (req.method ?? "GET");
  const found = service.resolveAlias(greq.parsedUrl ?? (req.url ?? "/").split("?")[0]!, method);
  const spec = found === false ? undefined : found.alias.routeSpec;
  memo[RESOLVED_ROUTE] = spec ?? null;
  return spec;
}

/** The methods the route table serves on a path, for `Allow` headers. */
export function allowedMethods(service: GatewayThis, path: string): string[] {
  return [...new Set(service.aliases.filter((a) => a.match(path) !== false).map((a) => a.method))];
}
