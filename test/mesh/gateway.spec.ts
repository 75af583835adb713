import { expect } from "chai";
import { EVENT_TYPES } from "../../shared/events/event-types";
import { request as httpRequest, type Server } from "node:http";
import { connect } from "node:net";
import { API_PREFIX, toOpenApiPath } from "../../shared/gateway/openapi";
import { httpStatusOfType } from "../../shared/gateway/http-status";
import { ROUTES, type RouteSpec } from "../../shared/gateway/routes";
import { meshTestService, TEST_ROUTES } from "./fixtures/mesh-test.service";
import { errorBody, FakeClock, http, pollUntil, postJson, startGateway, type RunningGateway } from "../../fixtures/mesh/helpers";

/** A concrete URL for a table path: `{hash}` → a 64-hex value. */
const concrete = (path: string): string => API_PREFIX + path.replace(/\{[A-Za-z0-9_]+\}/g, "a".repeat(64));

describe("mesh: gateway /api/v1", function () {
  let gw: RunningGateway;

  before(async () => {
    gw = await startGateway({ routes: TEST_ROUTES, services: [meshTestService], env: { CORS_ORIGINS: "https://app.example" } });
  });
  after(() => gw.stop());

  const base = () => gw.api.slice(0, -API_PREFIX.length);

  it("answers 501 NOT_IMPLEMENTED (JSON) on every route whose service is not built", async () => {
    const unbuilt = (TEST_ROUTES as readonly RouteSpec[]).filter((r) => !r.implemented);
    expect(unbuilt.length).to.be.greaterThan(0);
    for (const route of unbuilt) {
      const res =
        route.method === "POST"
          ? await postJson(base() + concrete(route.path), route.wholeBodyAs ? "x" : {})
          : await http(base() + concrete(route.path));
      expect(res.status, `${route.method} ${route.path}`).to.equal(501);
      const body = errorBody(res);
      expect(body.error).to.equal("NOT_IMPLEMENTED");
      expect(body.message).to.contain(route.action.split(".")[0]);
    }
  });

  it("answers 404 JSON naming the route for an unknown path, inside and outside /api/v1", async () => {
    const inside = await http(`${gw.api}/no/such/thing?x=1`);
    expect(inside.status).to.equal(404);
    expect(errorBody(inside)).to.deep.equal({ error: "NOT_FOUND", message: "No route GET /api/v1/no/such/thing." });
    const outside = await http(`${base()}/favicon.ico`);
    expect(outside.status).to.equal(404);
    expect(errorBody(outside).error).to.equal("NOT_FOUND");
  });

  it("answers requests Node's parser rejects with JSON too (bad request line, oversized headers)", async () => {
    const raw = (payload: string) =>
      new Promise<string>((resolve, reject) => {
        const url = new URL(gw.api);
        const socket = connect(Number(url.port), url.hostname, () => socket.end(payload));
        let data = "";
        socket.on("data", (c: Buffer) => (data += c.toString()));
        socket.on("end", () => resolve(data));
        socket.on("error", reject);
      });
    const garbage = await raw("NOT-HTTP\r\n\r\n");
    expect(garbage).to.match(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4))).to.include({ error: "BAD_REQUEST" });
    const huge = await raw(`GET /api/v1/extensions HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(huge).to.match(/^HTTP\/1\.1 431 /);
    expect(huge).to.contain('"error":"HEADERS_TOO_LARGE"');
  });

  it("answers 400 JSON for a path parameter that is not valid percent-encoding", async () => {
    const res = await http(`${gw.api}/verify/%E0%A4%A`);
    expect(res.status).to.equal(400);
    expect(errorBody(res).error).to.equal("UNABLE_DECODE_PARAM");
  });

  it("answers 405 with Allow when the path exists for another method", async () => {
    const res = await http(`${gw.api}/transaction/build`);
    expect(res.status).to.equal(405);
    expect(res.headers.get("allow")).to.equal("POST");
    expect(errorBody(res).error).to.equal("METHOD_NOT_ALLOWED");
  });

  it("answers 413 JSON for a 600 KiB body (declared length)", async () => {
    const big = JSON.stringify({ name: "x".repeat(600 * 1024), kind: "alpha" });
    const res = await http(`${gw.api}/mesh-test/echo`, { method: "POST", headers: { "Content-Type": "application/json" }, body: big });
    expect(res.status).to.equal(413);
    expect(errorBody(res).error).to.equal("PAYLOAD_TOO_LARGE");
  });

  it("answers 413 JSON for a chunked body that grows past 512 KiB", async () => {
    const url = new URL(`${gw.api}/mesh-test/echo`);
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "Content-Type": "application/json" } },
        (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      const chunk = "x".repeat(64 * 1024);
      req.write('{"name":"');
      for (let i = 0; i < 10; i++) req.write(chunk); // 640 KiB, no Content-Length
      req.end('","kind":"alpha"}');
    });
    expect(result.status).to.equal(413);
    expect(JSON.parse(result.body)).to.include({ error: "PAYLOAD_TOO_LARGE" });
  });

  it("accepts a body just under the limit", async () => {
    const res = await postJson(`${gw.api}/mesh-test/echo`, { name: "y".repeat(500 * 1024), kind: "beta" });
    expect(res.status).to.equal(200);
    expect((res.json as { kind: string }).kind).to.equal("beta");
  });

  it("answers 400 MALFORMED_JSON for malformed JSON, also on routes not built yet", async () => {
    for (const path of ["/mesh-test/echo", "/mesh-test/unbuilt"]) {
      const res = await http(`${gw.api}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: '{"name": "x",',
      });
      expect(res.status, path).to.equal(400);
      expect(errorBody(res).error).to.equal("MALFORMED_JSON");
    }
  });

  it("answers 400 INVALID_BODY when the JSON body is not an object", async () => {
    const res = await postJson(`${gw.api}/mesh-test/echo`, [1, 2]);
    expect(res.status).to.equal(400);
    expect(errorBody(res).error).to.equal("INVALID_BODY");
  });

  it("maps validation failures (422) to 400 naming the field: missing, wrong type, unknown enum value", async () => {
    const missing = await postJson(`${gw.api}/mesh-test/echo`, { kind: "alpha" });
    expect(missing.status).to.equal(400);
    expect(errorBody(missing)).to.include({ error: "VALIDATION_ERROR" });
    expect(errorBody(missing).message).to.contain("'name'");
    expect(errorBody(missing).fields).to.deep.equal(["name"]);

    const wrongType = await postJson(`${gw.api}/mesh-test/echo`, { name: "n", kind: "alpha", count: "many" });
    expect(wrongType.status).to.equal(400);
    expect(errorBody(wrongType).message).to.contain("'count'");

    const badEnum = await postJson(`${gw.api}/mesh-test/echo`, { name: "n", kind: "gamma" });
    expect(badEnum.status).to.equal(400);
    expect(errorBody(badEnum).message).to.contain("'kind'");
  });

  it("answers 415 JSON for a body that is not JSON, and reads raw text only on routes that take it", async () => {
    for (const contentType of ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"]) {
      const res = await http(`${gw.api}/mesh-test/echo`, {
        method: "POST",
        headers: { "Content-Type": contentType },
        body: JSON.stringify({ name: "curl", kind: "alpha" }),
      });
      expect(res.status, contentType).to.equal(415);
      expect(errorBody(res).error).to.equal("UNSUPPORTED_MEDIA_TYPE");
      expect(errorBody(res).message).to.contain("application/json");
    }
    const untyped = await http(`${gw.api}/mesh-test/echo`, {
      method: "POST",
      body: new Blob([JSON.stringify({ name: "n", kind: "alpha" })]),
    });
    expect(untyped.status).to.equal(415);
    for (const contentType of ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"]) {
      const res = await http(`${gw.api}/mesh-test/echo`, {
        method: "POST",
        headers: { "Content-Type": contentType },
        body: JSON.stringify({ name: "json", kind: "alpha" }),
      });
      expect(res.status, contentType).to.equal(200);
    }
    // a POST without a body is no media-type question
    const empty = await http(`${gw.api}/mesh-test/echo`, { method: "POST" });
    expect(empty.status).to.equal(400);
    expect(errorBody(empty).error).to.not.equal("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers 415 UNSUPPORTED_CONTENT_ENCODING to a compressed body: bodies are read only as sent", async () => {
    const body = JSON.stringify({ name: "n", kind: "alpha" });
    for (const coding of ["gzip", "deflate, identity", "br"]) {
      // a real route of the table: the conformance check holds the answer to its document
      const res = await http(`${gw.api}/transaction/submit`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Encoding": coding },
        body,
      });
      expect(res.status, coding).to.equal(415);
      expect(errorBody(res).error, coding).to.equal("UNSUPPORTED_CONTENT_ENCODING");
      expect(errorBody(res).message).to.contain("uncompressed");
    }
    const identity = await http(`${gw.api}/mesh-test/echo`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Encoding": "identity" },
      body,
    });
    expect(identity.status).to.equal(200);
  });

  it("answers 415 UNSUPPORTED_CHARSET to a JSON body in a character set other than UTF-8", async () => {
    const body = JSON.stringify({ name: "n", kind: "alpha" });
    for (const contentType of [
      "application/json; charset=iso-8859-1",
      'application/json; charset="UTF-16"',
      "application/json;charset=latin1",
    ]) {
      const res = await http(`${gw.api}/transaction/submit`, { method: "POST", headers: { "Content-Type": contentType }, body });
      expect(res.status, contentType).to.equal(415);
      expect(errorBody(res).error, contentType).to.equal("UNSUPPORTED_CHARSET");
      expect(errorBody(res).message).to.contain("UTF-8");
    }
    for (const contentType of ["application/json; charset=UTF-8", "application/json; charset=utf8", "application/json; charset=us-ascii"]) {
      const res = await http(`${gw.api}/mesh-test/echo`, { method: "POST", headers: { "Content-Type": contentType }, body });
      expect(res.status, contentType).to.equal(200);
    }
  });

  it("answers a DELETE's body problems with the codes its operation declares", async () => {
    const res = await http(`${gw.api}/webhooks/${"a".repeat(32)}`, {
      method: "DELETE",
      headers: { "Content-Type": "text/plain", Authorization: `Bearer whm_${"a".repeat(43)}` },
      body: "x",
    });
    expect(res.status).to.equal(415);
    expect(errorBody(res).error).to.equal("UNSUPPORTED_MEDIA_TYPE");
  });

  it("never answers 304 where it sends no ETag, whatever the request's conditions", async () => {
    // node:http, not fetch: fetch adds `Cache-Control: no-cache` to a conditional request, which hides the condition
    const plain = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; etag: string | undefined; body: string }>((resolve, reject) => {
        const url = new URL(`${gw.api}${path}`);
        const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method, headers }, (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: text }));
        });
        req.on("error", reject);
        req.end(body);
      });
    for (const condition of ["*", '"anything"', 'W/"x", *']) {
      const get = await plain("GET", "/extensions", { "If-None-Match": condition });
      expect(get.status, condition).to.equal(200);
      expect(get.etag).to.equal(undefined);
      expect(JSON.parse(get.body)).to.be.an("object");
      const head = await plain("HEAD", "/extensions", { "If-None-Match": condition, "If-Modified-Since": new Date(0).toUTCString() });
      expect(head.status, condition).to.equal(200);
      const post = await plain(
        "POST",
        "/mesh-test/echo",
        { "Content-Type": "application/json", "If-None-Match": condition },
        JSON.stringify({ name: "n", kind: "alpha" }),
      );
      expect(post.status, condition).to.equal(200);
      expect(JSON.parse(post.body)).to.include({ kind: "alpha" });
    }
  });

  it("serves HEAD wherever GET is: the GET's status and headers, no body", async () => {
    const get = await http(`${gw.api}/extensions`);
    const head = await http(`${gw.api}/extensions`, { method: "HEAD" });
    expect(head.status).to.equal(200);
    expect(head.text).to.equal("");
    expect(head.headers.get("content-type")).to.equal(get.headers.get("content-type"));
    expect(head.headers.get("content-length")).to.equal(String(Buffer.byteLength(get.text)));
    const failing = await http(`${gw.api}/mesh-test/fail/conflict`, { method: "HEAD" });
    expect(failing.status).to.equal(409);
    expect(failing.text).to.equal("");
    const noGet = await http(`${gw.api}/transaction/build`, { method: "HEAD" });
    expect(noGet.status).to.equal(405);
  });

  it("drops __proto__ keys from bodies", async () => {
    const res = await http(`${gw.api}/mesh-test/echo`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"name":"p","kind":"alpha","__proto__":{"count":7}}',
    });
    expect(res.status).to.equal(200);
    expect(res.json).to.include({ count: null });
  });

  it("passes a whole non-object body (JSON string or raw text) to wholeBodyAs routes", async () => {
    const asJson = await postJson(`${gw.api}/mesh-test/raw`, "abcdef");
    expect(asJson.json).to.deep.equal({ payload: "abcdef" });
    const asText = await http(`${gw.api}/mesh-test/raw`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "8201a0" });
    expect(asText.json).to.deep.equal({ payload: "8201a0" });
  });

  it("turns a typed service error into its status with type and data fields (a type the status table lists)", async () => {
    const res = await http(`${gw.api}/mesh-test/fail/conflict`);
    expect(res.status).to.equal(409);
    expect(res.json).to.deep.equal({ error: "ENTRY_TAKEN", message: "That slot is already taken.", rebuiltTransaction: "84a4…" });
  });

  it("keeps 5xx bodies free of error data", async () => {
    const res = await http(`${gw.api}/mesh-test/fail/server`);
    expect(res.status).to.equal(503);
    expect(res.json).to.deep.equal({ error: "CHAIN_UNAVAILABLE", message: "The chain node is unreachable." });
  });

  it("never answers an empty 500: an untyped error is INTERNAL_ERROR without internals", async () => {
    const res = await http(`${gw.api}/mesh-test/fail/plain`);
    expect(res.status).to.equal(500);
    expect(res.json).to.deep.equal({ error: "INTERNAL_ERROR", message: "Internal server error." });
  });

  it("does not expose actions that are not published, even when a route names them", async () => {
    const res = await http(`${gw.api}/mesh-test/internal`);
    expect(res.status).to.equal(503);
    expect(errorBody(res).error).to.equal("SERVICE_UNAVAILABLE");
  });

  it("sends CORS headers for an allowed origin and answers preflights", async () => {
    const res = await http(`${gw.api}/extensions`, { headers: { Origin: "https://app.example" } });
    expect(res.status).to.equal(200);
    expect(res.headers.get("access-control-allow-origin")).to.equal("https://app.example");
    expect(res.headers.get("access-control-allow-credentials")).to.equal("true");

    const pre = await http(`${gw.api}/transaction/build`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
    });
    expect(pre.status).to.equal(204);
    expect(pre.headers.get("access-control-allow-methods")).to.contain("POST");
  });

  it("answers an OPTIONS that is no preflight with 204 and Allow, never running the route", async () => {
    const res = await http(`${gw.api}/mesh-test/fail/conflict`, { method: "OPTIONS" });
    expect(res.status).to.equal(204);
    expect(res.text).to.equal("");
    expect(res.headers.get("allow")).to.equal("GET, HEAD, OPTIONS");
  });

  it("rejects a disallowed origin with 403 JSON", async () => {
    const res = await http(`${gw.api}/extensions`, { headers: { Origin: "https://evil.example" } });
    expect(res.status).to.equal(403);
    expect(errorBody(res).error).to.equal("ORIGIN_NOT_ALLOWED");
  });

  it("exempts the HTTP entry action from retries, bulkhead and circuit breaker (merged over moleculer-web's)", () => {
    const rest = (gw.broker.getLocalService("gateway") as unknown as { schema: { actions: Record<string, Record<string, unknown>> } })
      .schema.actions.rest!;
    expect(rest.handler).to.be.a("function");
    expect(rest).to.deep.include({ retryPolicy: { enabled: false }, bulkhead: { enabled: false }, circuitBreaker: { enabled: false } });
  });

  it("reports extensions from the services that are running", async () => {
    const res = await http(`${gw.api}/extensions`);
    expect(res.json).to.deep.equal({ "connected-goods": false, "fractionized-certificate": false, "tokenizable-certificate": false });
    gw.broker.createService({ name: "tokenizable", actions: { status: { visibility: "published", handler: () => null } } });
    const after = await pollUntil(async () => {
      const r = await http(`${gw.api}/extensions`);
      return (r.json as Record<string, boolean>)["tokenizable-certificate"] ? r : undefined;
    }, "tokenizable to register");
    expect(after.json).to.deep.equal({ "connected-goods": false, "fractionized-certificate": false, "tokenizable-certificate": true });
    await gw.broker.destroyService(gw.broker.getLocalService("tokenizable")!);
  });
});

describe("mesh: gateway rate limit on POST", function () {
  const clock = new FakeClock();
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ env: { RATE_LIMIT_POST_PER_MINUTE: "3" }, routes: TEST_ROUTES, services: [meshTestService], now: clock.now });
  });
  after(() => gw.stop());

  it("answers 429 JSON with Retry-After after the configured number of POSTs, and again after the window", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await postJson(`${gw.api}/mesh-test/echo`, { name: "n", kind: "alpha" })).status);
    expect(statuses).to.deep.equal([200, 200, 200]);

    clock.advance(20_000);
    const limited = await postJson(`${gw.api}/mesh-test/echo`, { name: "n", kind: "alpha" });
    expect(limited.status).to.equal(429);
    expect(limited.headers.get("retry-after")).to.equal("40");
    expect(errorBody(limited)).to.include({ error: "RATE_LIMITED", retryAfterSeconds: 40 });

    // GETs are not limited.
    expect((await http(`${gw.api}/extensions`)).status).to.equal(200);

    clock.advance(40_000);
    expect((await postJson(`${gw.api}/mesh-test/echo`, { name: "n", kind: "alpha" })).status).to.equal(200);
  });
});

describe("mesh: admin routes with ADMIN_API_KEY", function () {
  let gw: RunningGateway;
  const key = "k".repeat(24);
  before(async () => {
    gw = await startGateway({ env: { ADMIN_API_KEY: key } });
  });
  after(() => gw.stop());

  it("answers 401 without the key and lets the request through with it", async () => {
    const without = await http(`${gw.api}/admin/plugins`);
    expect(without.status).to.equal(401);
    expect(errorBody(without).error).to.equal("UNAUTHORIZED");
    const wrong = await http(`${gw.api}/admin/plugins/schedulers`, { headers: { "X-Api-Key": "nope" } });
    expect(wrong.status).to.equal(401);
    // With the key the request reaches the route; plugin-monitor does not run in this gateway-only mesh: 503.
    const withKey = await http(`${gw.api}/admin/plugins/schedulers`, { headers: { "X-Api-Key": key } });
    expect(withKey.status).to.equal(503);
    const bearer = await http(`${gw.api}/admin/plugins`, { headers: { Authorization: `Bearer ${key}` } });
    expect(bearer.status).to.equal(503);
  });

  it("does not guard the public routes", async () => {
    expect((await http(`${gw.api}/verify/${"b".repeat(64)}`)).status).to.equal(503); // verifier not running here
  });
});

describe("mesh: admin routes on a real network without ADMIN_API_KEY", function () {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ env: { NETWORK: "preprod", OGMIOS_URL: "ws://127.0.0.1:9" } });
  });
  after(() => gw.stop());

  it("answers 403 JSON saying how to enable them", async () => {
    for (const path of ["/admin/plugins", "/admin/plugins/filters/x", "/admin/plugins/schedulers"]) {
      const res = await http(`${gw.api}${path}`);
      expect(res.status, path).to.equal(403);
      expect(errorBody(res).error).to.equal("FORBIDDEN");
      expect(errorBody(res).message).to.contain("ADMIN_API_KEY");
    }
  });

  it("guards the route the router resolves, however the path is spelled (letter case, trailing slash)", async () => {
    for (const path of ["/Admin/plugins", "/ADMIN/PLUGINS/schedulers", "/admin/Plugins/", "/aDmIn/plugins/filters/x"]) {
      const res = await http(`${gw.api}${path}`);
      expect(res.status, path).to.equal(403);
      expect(errorBody(res).error, path).to.equal("FORBIDDEN");
    }
  });
});

describe("mesh: OpenAPI document", function () {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ env: { RATE_LIMIT_POST_PER_MINUTE: "20" } });
  });
  after(() => gw.stop());

  it("is served at /api/v1/openapi.json and covers every gateway alias", async () => {
    const res = await http(`${gw.api}/openapi.json`);
    expect(res.status).to.equal(200);
    const doc = res.json as { openapi: string; paths: Record<string, Record<string, { "x-moleculer-action": string }>> };
    expect(doc.openapi).to.equal("3.0.3");

    const service = gw.broker.getLocalService("gateway") as unknown as {
      aliases: Array<{ method: string; fullPath: string; action: string | null }>;
    };
    // every route, and HEAD beside every GET
    expect(service.aliases.length).to.equal(ROUTES.length + ROUTES.filter((r) => r.method === "GET").length);
    for (const alias of service.aliases) {
      const op = doc.paths[toOpenApiPath(alias.fullPath)]?.[alias.method.toLowerCase()];
      expect(op, `${alias.method} ${alias.fullPath}`).to.not.equal(undefined);
    }
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).to.equal(service.aliases.length);
  });

  it("documents the docs/api.md#route-index endpoints (spot checks) with their error responses", async () => {
    const doc = (await http(`${gw.api}/openapi.json`)).json as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters: Array<{ name: string; in: string }> }>>;
    };
    expect(doc.paths["/api/v1/transaction/build"]?.post?.responses).to.include.keys("200", "400", "413", "429");
    expect(doc.paths["/api/v1/extension/tokenizable-certificate/build"]?.post?.responses).to.include.keys("200", "400", "409");
    expect(doc.paths["/api/v1/verify/by-transaction-hash/{transactionHash}/{dataHash}"]?.get?.parameters.map((p) => p.name)).to.deep.equal([
      "transactionHash",
      "dataHash",
    ]);
    expect(doc.paths["/api/v1/user/bootstrap-access"]?.get?.parameters.map((p) => `${p.in}:${p.name}`)).to.deep.equal([
      "query:address",
      "query:tokenName",
    ]);
    expect(doc.paths["/api/v1/admin/plugins/event-handlers/{name}"]?.get).to.not.equal(undefined);
  });

  it("declares every status a route can answer, with the error codes of each, from the route table and the error mapping", async () => {
    type Response = { content?: Record<string, { schema: unknown }> };
    const doc = (await http(`${gw.api}/openapi.json`)).json as {
      paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const codesOf = (r: Response | undefined): string =>
      JSON.stringify(r ?? {})
        .match(/"enum":\[[^\]]*\]/g)
        ?.join() ?? "";
    for (const route of ROUTES as readonly RouteSpec[]) {
      const op = doc.paths[API_PREFIX + route.path]![route.method.toLowerCase()]!;
      const where = `${route.method} ${route.path}`;
      for (const code of route.errors ?? []) {
        const status = httpStatusOfType(code)!;
        expect(op.responses, `${where} ${code}`).to.have.property(String(status));
        const response = op.responses[String(status)];
        if (response?.content?.["application/json"]) expect(codesOf(response), `${where} ${code}`).to.contain(`"${code}"`);
      }
      const success = String(route.successStatus ?? 200);
      expect(op.responses, where).to.include.keys(success, "400", "403", "500", "503", "504");
      if (route.method === "POST" || route.method === "DELETE") expect(op.responses, where).to.include.keys("413", "415", "429");
      // Node's parser answers these before any route (client-error.ts), on every operation
      expect(codesOf(op.responses["408"]), where).to.contain('"REQUEST_TIMEOUT"');
      expect(codesOf(op.responses["431"]), where).to.contain('"HEADERS_TOO_LARGE"');
      expect(op.responses, `${where}: 304 only where an ETag is sent`).to.satisfy(
        (r: Record<string, unknown>) => (r["304"] !== undefined) === (route.cache !== undefined),
      );
      if (route.auth === "admin") expect(codesOf(op.responses["401"])).to.contain('"UNAUTHORIZED"');
      if (route.implemented && (route.responseType ?? "application/json") === "application/json") {
        const schema = op.responses[success]?.content?.["application/json"]?.schema as { $ref?: string } | undefined;
        expect(schema?.$ref, `${where} has a ${success} schema`).to.match(/^#\/components\/schemas\//);
        expect(doc.components.schemas).to.have.property(schema!.$ref!.split("/").pop()!);
      }
      if (route.method === "GET")
        expect(doc.paths[API_PREFIX + route.path]!.head?.responses, where).to.have.keys(Object.keys(op.responses));
    }
    // what the API audit found undeclared
    const responses = (method: string, path: string) => Object.keys(doc.paths[API_PREFIX + path]![method]!.responses);
    expect(responses("post", "/user/state/action")).to.include.members(["401", "404", "409"]);
    expect(responses("post", "/faucet/claim")).to.include.members(["401", "409", "429"]);
    expect(responses("get", "/resolve/{code}")).to.include.members(["404"]);
    expect(codesOf(doc.paths[`${API_PREFIX}/extension/connected-goods/claim/item`]!.post!.responses["400"])).to.contain('"INVALID_ITEMS"');
    expect(doc.paths[`${API_PREFIX}/resolve/{code}`]!.get!.responses["404"]!.content).to.have.keys("text/html");
  });

  it("serves the AsyncAPI document of the published NATS events at /api/v1/asyncapi.json, its subjects under NAMESPACE", async () => {
    const res = await http(`${gw.api}/asyncapi.json`);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/^application\/json/);
    const doc = res.json as { asyncapi: string; channels: Record<string, { address: string }> };
    expect(doc.asyncapi).to.equal("3.0.0");
    expect(Object.values(doc.channels).map((c) => c.address)).to.deep.equal([
      `${gw.config.namespace}.chain.block`,
      `${gw.config.namespace}.chain.rollback`,
      ...EVENT_TYPES.map((type) => `${gw.config.namespace}.events.${type}`),
    ]);
    const openapi = (await http(`${gw.api}/openapi.json`)).json as { paths: Record<string, { get?: { "x-moleculer-action": string } }> };
    expect(openapi.paths[`${API_PREFIX}/asyncapi.json`]?.get?.["x-moleculer-action"]).to.equal("gateway.asyncapi");
  });
});

describe("mesh: gateway without CORS, with short timeouts", function () {
  let gw: RunningGateway;

  before(async () => {
    gw = await startGateway({
      routes: TEST_ROUTES,
      services: [meshTestService],
      env: { CORS_ORIGINS: "none" },
      gateway: { requestTimeoutMs: 1_500, headersTimeoutMs: 800 },
    });
  });
  after(() => gw.stop());

  /** Sends `payload` on a raw socket and keeps it open (a client that trickles): resolves with what the server says. */
  const trickle = (payload: string) =>
    new Promise<string>((resolve, reject) => {
      const url = new URL(gw.api);
      const socket = connect(Number(url.port), url.hostname, () => socket.write(payload));
      let data = "";
      socket.on("data", (c: Buffer) => (data += c.toString()));
      socket.on("close", () => resolve(data));
      socket.on("error", reject);
    });

  it("never runs a route for OPTIONS, even one announcing a method (a preflight without CORS)", async () => {
    const res = await http(`${gw.api}/mesh-test/fail/conflict`, { method: "OPTIONS", headers: { "Access-Control-Request-Method": "GET" } });
    expect(res.status).to.equal(204);
    expect(res.text).to.equal("");
    expect(res.headers.get("allow")).to.equal("GET, HEAD, OPTIONS");
    expect(res.headers.get("access-control-allow-origin")).to.equal(null);
  });

  it("cuts headers that trickle in with 408 JSON", async () => {
    const reply = await trickle("GET /api/v1/extensions HTTP/1.1\r\nHost: x\r\n");
    expect(reply).to.match(/^HTTP\/1\.1 408 /);
    expect(reply).to.contain('"error":"REQUEST_TIMEOUT"');
  });

  it("cuts a body that trickles in with 408 JSON", async () => {
    const reply = await trickle(
      'POST /api/v1/mesh-test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    expect(reply).to.match(/^HTTP\/1\.1 408 /);
    expect(reply).to.contain('"error":"REQUEST_TIMEOUT"');
  });

  it("defaults to 30 s for a whole request and 10 s for its headers", async () => {
    const server = (gw.broker.getLocalService("gateway") as unknown as { server: Server }).server;
    expect(server.requestTimeout).to.equal(1_500);
    const defaults = await startGateway({ routes: TEST_ROUTES, services: [] });
    try {
      const s = (defaults.broker.getLocalService("gateway") as unknown as { server: Server }).server;
      expect([s.requestTimeout, s.headersTimeout]).to.deep.equal([30_000, 10_000]);
    } finally {
      await defaults.stop();
    }
  });
});
