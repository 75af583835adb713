import { expect } from "chai";
import { clientIp, FixedWindowRateLimiter } from "../../shared/mesh/rate-limiter";
import { FakeClock } from "../../fixtures/mesh/helpers";
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
