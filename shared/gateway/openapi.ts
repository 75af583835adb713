/**
 * Generates the OpenAPI 3.0 document of the public API from the route table (routes/), so the document
 * lists exactly what the gateway serves: every operation (HEAD beside each GET), every status it can answer with
 * the error codes of each, and the body schemas (response-schemas/).
 */
import { httpStatusOfType } from "./http-status";
import { RESPONSE_SCHEMAS, type SchemaName } from "./response-schemas";
import type { RouteSpec } from "./routes";

export const API_PREFIX = "/api/v1";

export interface OpenApiOptions {
  title: string;
  version: string;
  /** Whether an admin key is configured (documents the security scheme on admin routes). */
  adminKeyConfigured: boolean;
  rateLimitPostPerMinute: number;
  /** RATE_LIMIT_READ_PER_MINUTE, for the 429 of `readBudget` routes (absent or 0: not mentioned). */
  rateLimitReadPerMinute?: number;
  bodyLimitBytes: number;
}

type Json = Record<string, unknown>;

/** Path parameter names of an OpenAPI-form path: `/a/{x}/b/{y}` → ["x", "y"]. */
function pathParamNames(path: string): string[] {
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

const schemaRef = (name: SchemaName): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * What the gateway (and Node's HTTP parser, and the mesh under it) may answer on a route whatever its service does,
 * as [status, code]: the codes error-mapping.ts, client-error.ts and the gateway's middlewares write.
 */
export function gatewayAnswers(route: RouteSpec): [number, string][] {
  const answers: [number, string][] = [
    [400, "VALIDATION_ERROR"],
    [400, "BAD_REQUEST"],
    [403, "ORIGIN_NOT_ALLOWED"],
    [408, "REQUEST_TIMEOUT"],
    [431, "HEADERS_TOO_LARGE"],
    [500, "INTERNAL_ERROR"],
    // the service behind the route (or what it uses: the store, the chain) is not there, busy or still starting
    ...MESH_UNAVAILABLE_CODES.map((code): [number, string] => [503, code]),
    [504, "TIMEOUT"],
  ];
  if (pathParamNames(route.path).length > 0) answers.push([400, "UNABLE_DECODE_PARAM"]);
  if (route.method === "POST" || route.method === "DELETE") {
    answers.push(
      [400, "MALFORMED_JSON"],
      [400, "INVALID_BODY"],
      [413, "PAYLOAD_TOO_LARGE"],
      [415, "UNSUPPORTED_MEDIA_TYPE"],
      [415, "UNSUPPORTED_CONTENT_ENCODING"],
      [415, "UNSUPPORTED_CHARSET"],
      [429, "RATE_LIMITED"],
    );
  }
  if (route.readBudget) answers.push([429, "RATE_LIMITED"]);
  if (route.bearer !== undefined) answers.push([401, "INVALID_WEBHOOK_TOKEN"]);
  if (route.bearer === "required") answers.push([401, "WEBHOOK_TOKEN_REQUIRED"]);
  if (route.auth === "admin") answers.push([401, "UNAUTHORIZED"], [403, "FORBIDDEN"]);
  if (route.requiresProtocol) answers.push([503, "PROTOCOL_DEPLOYING"]);
  if (!route.implemented) answers.push([501, "NOT_IMPLEMENTED"]);
  return answers;
}

/** 503 codes any route may answer: its service is missing or busy, starting, or what it uses is unreachable. */
const MESH_UNAVAILABLE_CODES = [
  "SERVICE_UNAVAILABLE",
  "SERVICE_BUSY",
  "SERVICE_STARTING",
  "STORE_UNAVAILABLE",
  "CHAIN_UNAVAILABLE",
  "CHAIN_TIMEOUT",
  "RESOURCE_UNAVAILABLE",
];

/** The status of an error code; a code the error mapping does not know is a defect of the route table. */
function statusOf(code: string, route: RouteSpec): number {
  const status = httpStatusOfType(code);
  if (status === undefined) throw new Error(`${route.method} ${route.path} declares error ${code}, which HTTP_STATUS_OF_TYPE does not map`);
  return status;
}

/** `{ error, message }` whose `error` is one of `codes`, in the shape `failure` (the route's own fields, or Error). */
const failureOf = (failure: SchemaName, codes: readonly string[]): Json => ({
  allOf: [
    schemaRef(failure),
    { type: "object", required: ["error"], properties: { error: { type: "string", enum: [...new Set(codes)].sort() } } },
  ],
});

const GENERIC_DESCRIPTION: Record<number, string> = {
  400: "invalid request: malformed JSON, wrong types or values",
  401: "admin API key missing or wrong",
  403: "origin not allowed (CORS_ORIGINS), or an admin route on a network without ADMIN_API_KEY",
  404: "not found",
  408: "the request did not arrive in time (headers within 10 s, the whole request within 30 s)",
  409: "conflict with a transaction in flight",
  413: "body too large",
  415: "body not sent as application/json (uncompressed, UTF-8)",
  429: "too many requests",
  431: "request headers over 16 KiB",
  500: "unexpected server error",
  501: "not implemented yet",
  502: "an upstream call failed",
  503: "the service behind this route is not available (Retry-After)",
  504: "the service did not answer in time",
};

/**
 * Every status the route can answer, each with its body: 200 with the route's schema, and per error status the
 * codes it can carry — the gateway's own (gatewayAnswers) and the route's (`errors`, placed by HTTP_STATUS_OF_TYPE).
 */
function responsesOf(route: RouteSpec, opts: OpenApiOptions): Json {
  const contentType = route.responseType ?? "application/json";
  const success = contentType === "application/json" ? (route.responseSchema ? schemaRef(route.responseSchema) : {}) : { type: "string" };
  const content: Json = { [contentType]: { schema: success } };
  if (route.alsoJson) content["application/json"] = { schema: schemaRef(route.alsoJson) };
  const success200 = String(route.successStatus ?? 200);
  const responses: Json = { [success200]: { description: route.response, content } };
  if (route.cache !== undefined) {
    // docs/api.md#caching: validators and freshness on the answer, 304 to a conditional request that names it.
    const headers = {
      ETag: { description: "strong validator of this answer; send it back as If-None-Match", schema: { type: "string" } },
      "Cache-Control": {
        description: "how long the answer may be reused (shorter while a rollback may still change it)",
        schema: { type: "string" },
      },
    };
    (responses[success200] as Json)["headers"] = headers;
    responses["304"] = { description: "not modified: If-None-Match names the current answer's ETag (no body)", headers };
  }

  const byStatus = new Map<number, { own: string[]; gateway: string[] }>();
  const add = (status: number, code: string, kind: "own" | "gateway") => {
    if (status < 400) return;
    const entry = byStatus.get(status) ?? { own: [], gateway: [] };
    if (!entry[kind].includes(code)) entry[kind].push(code);
    byStatus.set(status, entry);
  };
  for (const [status, code] of gatewayAnswers(route)) add(status, code, "gateway");
  for (const code of route.plainErrors ?? []) add(statusOf(code, route), code, "gateway");
  for (const code of route.errors ?? []) add(statusOf(code, route), code, "own");
  for (const [status, { own, gateway }] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schemas = [
      ...(own.length > 0 ? [failureOf(route.failureSchema ?? "Error", own)] : []),
      ...(gateway.length > 0 ? [failureOf("Error", gateway)] : []),
    ];
    const routeLimits = route.bodyLimitBytes;
    const limits =
      status === 413
        ? routeLimits
          ? ` (JSON over ${Math.round(routeLimits.json / 1024)} KiB${routeLimits.binary !== undefined ? `, bytes over ${Math.round(routeLimits.binary / 1024)} KiB` : ""})`
          : ` (over ${Math.round(opts.bodyLimitBytes / 1024)} KiB)`
        : status === 429 && (route.method === "POST" || route.method === "DELETE") && opts.rateLimitPostPerMinute > 0
          ? ` (more than ${opts.rateLimitPostPerMinute} POST and DELETE requests per minute from one client)`
          : status === 429 && route.readBudget && (opts.rateLimitReadPerMinute ?? 0) > 0
            ? ` (more than ${opts.rateLimitReadPerMinute} reads per minute from one client)`
            : "";
    const codes = `: ${[...new Set([...own, ...gateway])].sort().join(", ")}`;
    const description = `${route.statuses?.[status] ?? GENERIC_DESCRIPTION[status] ?? "error"}${limits}${codes}`;
    const schema = schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
    const errorContentType = route.errorResponseType?.[status] ?? "application/json";
    responses[String(status)] = {
      description,
      content: {
        [errorContentType]: { schema: errorContentType === "application/json" ? schema : { type: "string" } },
        ...(route.htmlForBrowsers?.includes(status) ? { "text/html": { schema: { type: "string" } } } : {}),
      },
      ...(status === 429 || status === 503
        ? { headers: { "Retry-After": { description: "seconds to wait", schema: { type: "integer" } } } }
        : {}),
    };
  }
  return responses;
}

function operation(route: RouteSpec, opts: OpenApiOptions): Json {
  const parameters: Json[] = pathParamNames(route.path).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: route.pathPatterns?.[name] ? { type: "string", pattern: route.pathPatterns[name] } : { type: "string" },
  }));
  for (const q of route.query ?? []) {
    const schema = q.repeated ? { type: "array", items: { type: "string" } } : { type: "string" };
    parameters.push({ name: q.name, in: "query", required: q.required, description: q.description, schema });
  }
  for (const h of route.requestHeaders ?? []) {
    parameters.push({ name: h.name, in: "header", required: h.required, description: h.description, schema: { type: "string" } });
  }

  const op: Json = {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.tag],
    parameters,
    responses: responsesOf(route, opts),
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
            content: {
              "application/json": { schema: { type: "object" } },
              ...(route.binaryBodyAs !== undefined ? { "application/octet-stream": { schema: { type: "string", format: "binary" } } } : {}),
            },
          };
  }
  if (route.auth === "admin" && opts.adminKeyConfigured) op.security = [{ adminApiKey: [] }];
  // an optional token: with it or without (a registration under a token the caller has, or a new one)
  if (route.bearer !== undefined) op.security = route.bearer === "required" ? [{ managementToken: [] }] : [{ managementToken: [] }, {}];
  return op;
}

/** HEAD of a GET route: the same statuses and headers, no body. */
function headOperation(get: Json): Json {
  const responses = Object.fromEntries(
    Object.entries(get["responses"] as Record<string, Json>).map(([status, r]) => [
      status,
      { description: r["description"], headers: r["headers"] },
    ]),
  );
  return { ...get, operationId: `head${String(get["operationId"]).replace(/^get/, "")}`, responses };
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
    if (method === "get") item["head"] = headOperation(item[method]);
  }
  return {
    openapi: "3.0.3",
    info: {
      title: opts.title,
      version: opts.version,
      description:
        "Anchors hashes of files and texts (certificates) on Cardano and verifies them. " + "Every error answers JSON { error, message }.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: RESPONSE_SCHEMAS,
      securitySchemes: {
        adminApiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        managementToken: {
          type: "http",
          scheme: "bearer",
          description: "a webhook endpoint's management token (whm_…), answered once by its registration (docs/webhooks.md)",
        },
      },
    },
  };
}
