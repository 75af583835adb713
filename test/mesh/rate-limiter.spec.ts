import { expect } from "chai";
import { clientIp, FixedWindowRateLimiter } from "../../shared/mesh/rate-limiter";
import { FakeClock } from "./helpers";
import type { IncomingMessage } from "node:http";

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

  it("uses the socket address unless the proxy is trusted", () => {
    const req = { headers: { "x-forwarded-for": "203.0.113.7, 10.0.0.1" }, socket: { remoteAddress: "10.0.0.1" } } as unknown as IncomingMessage;
    expect(clientIp(req, false)).to.equal("10.0.0.1");
    expect(clientIp(req, true)).to.equal("203.0.113.7");
  });
});
