import { expect } from "chai";
import { clientIp, clientKeyOf, FixedWindowRateLimiter, ReadRateLimit } from "../../shared/gateway/rate-limiter";
import { errorBody, FakeClock, http, postJson, startGateway, type RunningGateway } from "../../fixtures/mesh/helpers";
import type { IncomingMessage, ServerResponse } from "node:http";
import { meshTestService, TEST_ROUTES } from "./fixtures/mesh-test.service";
import { answerFromMemory } from "../../shared/gateway/answer-from-memory";
import { API_PREFIX } from "../../shared/gateway/openapi";
import type { RouteSpec } from "../../shared/gateway/routes";
import { ValidatorCache } from "../../shared/gateway/validator-cache";

describe("mesh: POST rate limiter", function () {
  it("allows `limit` hits per client per window and tells how long to wait", () => {
    const clock = new FakeClock();
    const limiter = new FixedWindowRateLimiter(2, 60_000, clock.now);
    expect(limiter.hit("a")).to.deep.equal({ allowed: true, remaining: 1, retryAfterSeconds: 60 });
    expect(limiter.hit("a").allowed).to.equal(true);
    clock.advance(59_001);
    expect(limiter.hit("a")).to.deep.equal({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(limiter.hit("b").allowed, "other clients have their own window").to.equal(true);
    clock.advance(999);
    expect(limiter.hit("a")).to.deep.equal({ allowed: true, remaining: 1, retryAfterSeconds: 60 });
  });

  it("forgets expired clients so memory stays bounded", () => {
    const clock = new FakeClock();
    const limiter = new FixedWindowRateLimiter(5, 60_000, clock.now);
    for (let i = 0; i < 1000; i++) limiter.hit(`10.0.${i >> 8}.${i & 255}`);
    expect(limiter.trackedClients).to.equal(1000);
    clock.advance(60_000);
    limiter.hit("fresh");
    expect(limiter.trackedClients).to.equal(1);
  });

  const request = (forwardedFor: string | undefined, peer = "10.0.0.9") =>
    ({
      headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
      socket: { remoteAddress: peer },
    }) as unknown as IncomingMessage;

  it("uses the socket address unless proxies are trusted", () => {
    expect(clientIp(request("203.0.113.7, 10.0.0.1"), 0)).to.equal("10.0.0.9");
  });

  it("counts trusted hops from the right, so a client cannot choose its own address (spoofed entries on the left)", () => {
    // the client sent "X-Forwarded-For: 1.2.3.4" itself; our one proxy appended the real peer
    expect(clientIp(request("1.2.3.4, 203.0.113.7"), 1)).to.equal("203.0.113.7");
    // two proxies of our own: the ingress appended the client, the second proxy appended the ingress
    expect(clientIp(request("1.2.3.4, 203.0.113.7, 10.0.0.1"), 2)).to.equal("203.0.113.7");
    // a spoofer cannot exhaust the rate limit of others by rotating the left part
    expect(clientIp(request("9.9.9.9, 203.0.113.7"), 1)).to.equal(clientIp(request("8.8.8.8, 203.0.113.7"), 1));
  });

  it("falls back to the socket peer when the header has fewer entries than trusted hops", () => {
    expect(clientIp(request(undefined), 1)).to.equal("10.0.0.9");
    expect(clientIp(request("203.0.113.7"), 2)).to.equal("10.0.0.9");
  });
});

describe("mesh: the client key of the rate limits", function () {
  it("keys an IPv6 client by its /64, whatever the spelling", () => {
    expect(clientKeyOf("2001:db8:1:2::1")).to.equal("2001:db8:1:2::/64");
    expect(clientKeyOf("2001:0DB8:0001:0002:ffff:ffff:ffff:fffe")).to.equal("2001:db8:1:2::/64");
    expect(clientKeyOf("2001:db8:1:3::1")).to.equal("2001:db8:1:3::/64");
    expect(clientKeyOf("fe80::1%eth0")).to.equal("fe80:0:0:0::/64");
  });

  it("leaves IPv4 unchanged and treats an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(clientKeyOf("203.0.113.7")).to.equal("203.0.113.7");
    expect(clientKeyOf("::ffff:203.0.113.7")).to.equal("203.0.113.7");
    expect(clientKeyOf("::ffff:cb00:7107")).to.equal("203.0.113.7");
    expect(clientKeyOf("unknown")).to.equal("unknown");
  });
});

describe("mesh: POST rate limit per client key over HTTP", function () {
  const clock = new FakeClock();
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({
      env: { RATE_LIMIT_POST_PER_MINUTE: "2", TRUST_PROXY: "1" },
      routes: TEST_ROUTES,
      services: [meshTestService],
      now: clock.now,
    });
  });
  after(() => gw.stop());
  const postFrom = async (ip: string) =>
    (await postJson(`${gw.api}/mesh-test/echo`, { name: "n", kind: "alpha" }, { "X-Forwarded-For": ip })).status;

  it("counts two IPv6 addresses of one /64 as one client, and another /64 as another", async () => {
    expect([await postFrom("2001:db8:a:1::1"), await postFrom("2001:db8:a:1:ffff::2")]).to.deep.equal([200, 200]);
    expect(await postFrom("2001:db8:a:1:1234:5678:9abc:def0"), "same /64: budget spent").to.equal(429);
    expect(await postFrom("2001:db8:a:2::1"), "another /64").to.equal(200);
  });

  it("counts an IPv4 client alone, and its IPv4-mapped spelling as the same client", async () => {
    expect([await postFrom("198.51.100.1"), await postFrom("::ffff:198.51.100.1")]).to.deep.equal([200, 200]);
    expect(await postFrom("198.51.100.1")).to.equal(429);
    expect(await postFrom("198.51.100.2"), "the next address is another client").to.equal(200);
  });
});

describe("mesh: GET budget of the expensive reads", function () {
  const clock = new FakeClock();
  let gw: RunningGateway;
  const hex = "ab".repeat(32);
  // Routed to services this gateway-only mesh does not run: each answers 503, and counts.
  const reads = [
    `/verify/${hex}`,
    `/verify/by-transaction-hash/${hex}/${hex}`,
    `/proof/${hex}`,
    `/extension/connected-goods/${hex}/${hex}`,
  ];
  before(async () => {
    gw = await startGateway({
      env: { RATE_LIMIT_READ_PER_MINUTE: "4", RATE_LIMIT_POST_PER_MINUTE: "100", TRUST_PROXY: "1" },
      routes: TEST_ROUTES,
      services: [meshTestService],
      now: clock.now,
    });
  });
  after(() => gw.stop());
  const getFrom = (path: string, ip: string, method = "GET") => http(`${gw.api}${path}`, { method, headers: { "X-Forwarded-For": ip } });

  it("counts /verify, /proof and connected-goods reads in one budget per client: 429 RATE_LIMITED with Retry-After once spent", async () => {
    const ip = "192.0.2.10";
    for (const path of reads) expect((await getFrom(path, ip)).status, path).to.equal(503);
    clock.advance(15_000);
    for (const path of reads) {
      const limited = await getFrom(path, ip);
      expect(limited.status, path).to.equal(429);
      expect(limited.headers.get("retry-after")).to.equal("45");
      expect(errorBody(limited)).to.include({ error: "RATE_LIMITED", retryAfterSeconds: 45 });
      expect(errorBody(limited).message).to.match(/GET requests per minute/);
    }
    expect((await getFrom(reads[0]!, "192.0.2.11")).status, "another client").to.equal(503);
    expect((await getFrom(reads[0]!, "2001:db8:b:1::1")).status, "an IPv6 client").to.equal(503);
    clock.advance(45_000);
    expect((await getFrom(reads[2]!, ip)).status, "a new window").to.equal(503);
  });

  it("counts HEAD like GET, leaves other GETs and POSTs out of it, and keys IPv6 by /64", async () => {
    const ip = "2001:db8:c:1::1";
    for (let i = 0; i < 4; i++) expect((await getFrom(reads[i]!, `2001:db8:c:1::${i + 1}`, "HEAD")).status).to.equal(503);
    expect((await getFrom(reads[0]!, ip)).status).to.equal(429);
    expect((await getFrom("/extensions", ip)).status, "a cheap read").to.equal(200);
    expect((await getFrom("/statistic/tx-fees", ip)).status, "not a readBudget route").to.equal(503);
    const post = await postJson(`${gw.api}/mesh-test/echo`, { name: "n", kind: "alpha" }, { "X-Forwarded-For": ip });
    expect(post.status, "POSTs have their own budget").to.equal(200);
  });

  it("counts a verify answered from the gateway's memory once, and refuses it once the budget is spent", async () => {
    const hash = "cd".repeat(32);
    const cache = new ValidatorCache(
      { head: async () => 0, after: async () => [] },
      { maxHashes: 10, maxChanges: 10, maxBodyBytes: 1_000_000 },
    );
    await cache.catchUp();
    cache.remember(hash, "list", { etag: '"e"', newestHeight: 1, body: Buffer.from("[]") }, 0);
    const spec = { path: "/verify/{hash}", cache: "certificate-list", readBudget: true } as unknown as RouteSpec;
    const alias = { method: "GET", routeSpec: spec, match: (url: string) => (url.startsWith(`${API_PREFIX}/verify/`) ? {} : false) };
    const router = {
      aliases: [alias],
      resolveAlias: (url: string) => (alias.match(url) ? { alias, params: { hash: url.split("/").pop()! } } : (false as const)),
      writeCorsHeaders() {},
    };
    const limit = new ReadRateLimit({ limitPerMinute: 2, trustProxy: 0, now: clock.now });
    const answer = () => {
      const req = { method: "GET", url: `${API_PREFIX}/verify/${hash}`, headers: {}, socket: { remoteAddress: "192.0.2.50" } };
      const out: { status?: number; headers: Record<string, unknown> } = { headers: {} };
      const res = {
        headersSent: false,
        setHeader: (k: string, v: unknown) => (out.headers[k] = v),
        writeHead: (status: number) => (out.status = status),
        end: () => undefined,
      } as unknown as ServerResponse;
      const answered = answerFromMemory(router, cache, req as unknown as IncomingMessage, res, limit);
      // the router, when memory does not answer: the same request's decision, not a second count
      const refusal = answered ? undefined : limit.check(req as unknown as IncomingMessage, res);
      return { answered, refusal, out };
    };
    const first = answer();
    expect(first.answered).to.equal(true);
    expect(first.out.headers["X-Rate-Limit-Remaining"]).to.equal("1");
    expect(answer().answered).to.equal(true);
    const third = answer();
    expect(third.answered, "over the budget: left to the router").to.equal(false);
    expect(third.refusal?.type).to.equal("RATE_LIMITED");
  });
});

describe("mesh: the pages that look a hash up count in the same GET budget", function () {
  const clock = new FakeClock();
  let gw: RunningGateway;
  let site: string;
  const hex = "ef".repeat(32);
  before(async function () {
    this.timeout(60_000);
    // no verifier in this mesh: each lookup is answered 503, and counts
    gw = await startGateway({ env: { RATE_LIMIT_READ_PER_MINUTE: "3", TRUST_PROXY: "1" }, pages: true, now: clock.now });
    site = gw.api.replace(/\/api\/v1$/, "");
  });
  after(() => gw.stop());
  const getFrom = (path: string, ip: string) => http(`${site}${path}`, { headers: { "X-Forwarded-For": ip } });

  it("counts a certificate page, its print view and a badge like /verify: a 429 page (or badge) with Retry-After once spent", async () => {
    const ip = "192.0.2.60";
    expect((await getFrom(`/verify/${hex}`, ip)).status).to.equal(503);
    expect((await getFrom(`/verify/${hex}/print`, ip)).status).to.equal(503);
    expect((await getFrom(`/api/v1/verify/${hex}`, ip)).status, "the API's /verify, same budget").to.equal(503);
    clock.advance(20_000);
    const page = await getFrom(`/verify/${hex}`, ip);
    expect(page.status).to.equal(429);
    expect(page.headers.get("retry-after")).to.equal("40");
    expect(page.headers.get("content-type")).to.match(/^text\/html/);
    expect(page.text).to.include("Too many lookups");
    expect((await getFrom(`/verify/${hex}/print`, ip)).status).to.equal(429);
    const badge = await getFrom(`/badge/${hex}.svg`, ip);
    expect(badge.status).to.equal(429);
    expect(badge.headers.get("content-type")).to.match(/^image\/svg\+xml/);
    expect(badge.headers.get("retry-after")).to.equal("40");
    // what looks nothing up is not counted
    expect((await getFrom("/", ip)).status, "the home page").to.equal(200);
    expect((await getFrom("/verify/xyz", ip)).status, "a malformed hash").to.equal(400);
    expect((await getFrom(`/verify/${hex}`, "192.0.2.61")).status, "another client").to.equal(503);
  });
});
