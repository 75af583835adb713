// Mocha root-hook plugin: every answer of the public API a test receives through fetch is checked against the
// OpenAPI document the gateway serves (generated from the same route table, shared/gateway/openapi.ts): the status
// must be declared for its route, an error's `error` code must be one the document lists for that status, a 304 must
// carry the ETag it confirms, and a JSON body must match the schema declared for that status. A root afterAll
// fails the run listing the first failures. Answers of paths outside the route table (unknown routes, the test
// gateway's own mesh-test routes) are not operations of the document and are not checked.
import Ajv, { type ValidateFunction } from "ajv";
import { appendFileSync } from "node:fs";
import { buildOpenApiDocument, API_PREFIX } from "../../shared/gateway/openapi";
import { ROUTES, type RouteSpec } from "../../shared/gateway/routes";

interface Failure {
  operation: string;
  status: number;
  problem: string;
  body: string;
}

type Json = Record<string, unknown>;

const document = buildOpenApiDocument(ROUTES, {
  title: "conformance",
  version: "0",
  adminKeyConfigured: true,
  rateLimitPostPerMinute: 1,
  bodyLimitBytes: 512 * 1024,
});
const paths = document["paths"] as Record<string, Record<string, { responses: Record<string, Json> }>>;
const ajv = new Ajv({ strict: false, allErrors: false });
ajv.addSchema({ components: (document["components"] as Json) ?? {} }, "openapi");
const validators = new Map<object, ValidateFunction>();

/** `{x}` segments match one path segment; routes with more literal segments win, as the gateway's router does. */
const matchers = ROUTES.map((route) => ({
  route,
  regex: new RegExp(`^${(API_PREFIX + route.path).replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, "[^/]+")}/?$`),
  literals: route.path.split("/").filter((s) => s !== "" && !s.startsWith("{")).length,
})).sort((a, b) => b.literals - a.literals);

export function routeOf(method: string, pathname: string): RouteSpec | undefined {
  const m = method === "HEAD" ? "GET" : method;
  return matchers.find((x) => x.route.method === m && x.regex.test(pathname))?.route;
}

function validatorFor(schema: Json): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    // Component references point into the document; compile each schema beside them.
    v = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as Json);
    validators.set(schema, v);
  }
  return v;
}

/** Every `error` code a declared error body lists (the enums of its schema, through allOf and anyOf). */
function declaredCodes(schema: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) declaredCodes(s, into);
  else if (typeof schema === "object" && schema !== null) {
    const s = schema as Json;
    const error = (s["properties"] as Json | undefined)?.["error"] as Json | undefined;
    for (const code of (error?.["enum"] as string[] | undefined) ?? []) into.add(code);
    for (const key of ["allOf", "anyOf", "oneOf"]) if (s[key] !== undefined) declaredCodes(s[key], into);
  }
  return into;
}

/**
 * Checks one answer; undefined when it conforms (or is not an operation of the document). `etag` is the answer's
 * ETag header (null: none; undefined: not known).
 */
export function checkAnswer(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  text: string,
  etag?: string | null,
): Failure | undefined {
  const { pathname } = new URL(url);
  const route = routeOf(method, pathname);
  if (route === undefined) return undefined;
  const operation = `${method} ${API_PREFIX}${route.path}`;
  const declared = paths[API_PREFIX + route.path]?.[method.toLowerCase()]?.responses;
  const response = declared?.[String(status)];
  if (response === undefined) {
    return {
      operation,
      status,
      problem: `status ${status} is not declared (declared: ${Object.keys(declared ?? {}).join(", ")})`,
      body: text.slice(0, 400),
    };
  }
  if (status === 304 && etag === null) {
    return { operation, status, problem: "304 without an ETag: it confirms no validator the client holds", body: "" };
  }
  if (method === "HEAD" || status === 204 || status === 304) return undefined;
  const content = response["content"] as Record<string, { schema?: Json }> | undefined;
  const type = (contentType ?? "").split(";")[0]!.trim();
  const declaredType = content?.[type];
  if (content === undefined || declaredType === undefined) {
    return {
      operation,
      status,
      problem: `content type ${type} is not declared (declared: ${Object.keys(content ?? {}).join(", ")})`,
      body: text.slice(0, 400),
    };
  }
  if (type !== "application/json" || declaredType.schema === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { operation, status, problem: "body is not JSON", body: text.slice(0, 400) };
  }
  const code = status >= 400 && typeof body === "object" && body !== null ? (body as Json)["error"] : undefined;
  if (status >= 400 && type === "application/json") {
    const codes = declaredCodes(declaredType.schema);
    if (typeof code !== "string" || !codes.has(code)) {
      return {
        operation,
        status,
        problem: `error code ${JSON.stringify(code)} is not declared for ${status} (declared: ${[...codes].sort().join(", ")})`,
        body: text.slice(0, 400),
      };
    }
  }
  const validate = validatorFor(declaredType.schema);
  if (validate(body)) return undefined;
  return {
    operation,
    status,
    problem: `body does not match its schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
    body: text.slice(0, 400),
  };
}

const failures: Failure[] = [];
let checked = 0;
const record = process.env["OPENAPI_RECORD"];

const realFetch = globalThis.fetch;
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const res = await realFetch(input, init);
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  if (!new URL(url).pathname.startsWith(API_PREFIX)) return res;
  const text = await res.clone().text();
  checked += 1;
  if (record)
    appendFileSync(
      record,
      `${JSON.stringify({ method, path: new URL(url).pathname, route: routeOf(method, new URL(url).pathname)?.path, status: res.status, contentType: res.headers.get("content-type"), body: text.slice(0, 300) })}\n`,
    );
  const failure = checkAnswer(method, url, res.status, res.headers.get("content-type"), text, res.headers.get("etag"));
  if (failure) failures.push(failure);
  return res;
};

export const mochaHooks = {
  afterAll(): void {
    if (checked === 0) return;
    if (failures.length > 0) {
      const first = failures
        .slice(0, 8)
        .map((f, i) => `  ${i + 1}. ${f.operation} → ${f.status}: ${f.problem}\n     body: ${f.body}`)
        .join("\n");
      throw new Error(`OpenAPI conformance: ${failures.length} of ${checked} API answers do not match the document:\n${first}`);
    }
    process.stdout.write(`  OpenAPI conformance: ${checked} API answers checked, 0 failures\n`);
  },
};
