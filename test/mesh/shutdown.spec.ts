import { expect } from "chai";
import type { ServiceSchema } from "moleculer";
import { ROUTES, type RouteSpec } from "../../shared/gateway/routes";
import { http, pollUntil, startGateway } from "../../fixtures/mesh/helpers";

describe("mesh: graceful shutdown", function () {
  it("lets a request that is running when stop begins finish with its answer", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = false;
    let slowStopped = false;
    const slow: ServiceSchema = {
      name: "slow",
      stopped() {
        slowStopped = true;
      },
      actions: {
        work: {
          visibility: "published",
          async handler() {
            started = true;
            await gate;
            return { finished: true };
          },
        },
      },
    };
    const routes: RouteSpec[] = [
      ...ROUTES,
      { method: "GET", path: "/slow", action: "slow.work", tag: "test", summary: "slow", response: "{ finished }", implemented: true },
    ];
    const gw = await startGateway({ routes, services: [slow] });

    const inFlight = http(`${gw.api}/slow`);
    await pollUntil(async () => (started ? true : undefined), "the slow action to start");
    const stopping = gw.stop();
    await pollUntil(async () => (gw.broker.stopping ? true : undefined), "the broker to enter its stopping phase");
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    // Tracking holds the service's stop until its running request is done.
    expect(slowStopped, "service stopped while a request was running").to.equal(false);
    release();
    const res = await inFlight;
    await stopping;
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({ finished: true });
    expect(slowStopped).to.equal(true);
  });
});
