/**
 * Generates the OpenAPI 3.0 document of the public API from the route table (routes.ts), so the document
 * lists exactly what the gateway serves. Request/response shapes are described in words (the table's notes)
 * until each service's issue adds schemas.
 */
import type { RouteSpec } from "./routes";
import { serviceOfAction } from "./routes";

export const API_PREFIX = "/api/v1";

export interface OpenApiOptions {
  title: string;
  version: string;
  /** Whether an admin key is configured (documents the security scheme on admin routes). */
  adminKeyConfigured: boolean;
  rateLimitPostPerMinute: number;
  bodyLimitBytes: number;
}

type Json = Record<string, unknown>;

/** Path parameter names of an OpenAPI-form path: `/a/{x}/b/{y}` → ["x", "y"]. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
}

/** OpenAPI path form → moleculer-web (path-to-regexp 8) form: `{hash}` → `:hash`. */
export function toAliasPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");
}

/** moleculer-web form → OpenAPI form: `:hash` → `{hash}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function operationId(route: RouteSpec): string {
  const words = `${route.method.toLowerCase()} ${route.path}`
    .replace(/[{}]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join("");
}

const errorRef = (description: string): Json => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

function operation(route: RouteSpec, opts: OpenApiOptions): Json {
  const parameters: Json[] = pathParamNames(route.path).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: route.pathPatterns?.[name] ? { type: "string", pattern: route.pathPatterns[name] } : { type: "string" },
  }));
  for (const q of route.query ?? []) {
    parameters.push({ name: q.name, in: "query", required: q.required, description: q.description, schema: { type: "string" } });
  }

  const contentType = route.responseType ?? "application/json";
  const responses: Json = {
    "200": {
      description: route.response,
      content: { [contentType]: { schema: contentType === "application/json" ? {} : { type: "string" } } },
    },
  };
  for (const [status, description] of Object.entries(route.statuses ?? {})) {
    responses[status] = errorRef(description);
  }
  responses["400"] ??= errorRef("invalid request: malformed JSON, wrong types or unknown enum values");
  if (route.method === "POST") {
    responses["413"] = errorRef(`body larger than ${Math.round(opts.bodyLimitBytes / 1024)} KiB`);
    if (opts.rateLimitPostPerMinute > 0) {
      responses["429"] = {
        ...errorRef(`more than ${opts.rateLimitPostPerMinute} POST requests per minute from one client`),
        headers: { "Retry-After": { description: "seconds to wait", schema: { type: "integer" } } },
      };
    }
  }
  if (route.auth === "admin") responses["401"] = errorRef("admin API key missing or wrong (when one is configured)");
  if (!route.implemented) responses["501"] = errorRef(`not implemented yet (${serviceOfAction(route.action)} service)`);
  responses["500"] = errorRef("unexpected server error");
  responses["503"] = errorRef("the service behind this route is not available");

  const op: Json = {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.tag],
    parameters,
    responses,
    "x-moleculer-action": route.action,
    "x-implemented": route.implemented,
  };
  if (route.method === "POST") {
    op.requestBody =
      route.wholeBodyAs !== undefined
        ? {
            required: false,
            description: route.request ?? "",
            content: { "application/json": { schema: { type: "string" } }, "text/plain": { schema: { type: "string" } } },
          }
        : {
            required: route.request !== "none",
            description: route.request ?? "",
            content: { "application/json": { schema: { type: "object" } } },
          };
  }
  if (route.auth === "admin" && opts.adminKeyConfigured) op.security = [{ adminApiKey: [] }];
  return op;
}

/** The whole document. Paths are absolute (`/api/v1/...`). */
export function buildOpenApiDocument(routes: readonly RouteSpec[], opts: OpenApiOptions): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = API_PREFIX + route.path;
    const method = route.method.toLowerCase();
    const item = (paths[path] ??= {});
    if (item[method] !== undefined) throw new Error(`Route table has ${route.method} ${path} twice`);
    item[method] = operation(route, opts);
  }
  return {
    openapi: "3.0.3",
    info: {
      title: opts.title,
      version: opts.version,
      description:
        "Anchors hashes of files and texts (certificates) on Cardano and verifies them. " +
        "Every error answers JSON { error, message }.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          required: ["error", "message"],
          properties: {
            error: { type: "string", description: "stable SCREAMING_SNAKE code, e.g. VALIDATION_ERROR" },
            message: { type: "string", description: "what is wrong, in words" },
          },
          additionalProperties: true,
        },
      },
      securitySchemes: { adminApiKey: { type: "apiKey", in: "header", name: "X-Api-Key" } },
    },
  };
}
