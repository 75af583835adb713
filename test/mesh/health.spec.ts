import { expect } from "chai";
import type { ServiceSchema } from "moleculer";
import { httpUrl, listenAddresses } from "../../shared/mesh/listen-addresses";
import { FakeClock, http, pollUntil, startGateway } from "../../fixtures/mesh/helpers";

describe("mesh: liveness and readiness probes (HEALTH_PORT)", function () {
  it("is live while running, ready only after the ready delay, and neither while stopping", async () => {
    const clock = new FakeClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // A service that takes its time to stop, so the stopping phase can be observed.
    const slowStopper: ServiceSchema = { name: "slow-stopper", stopped: () => gate };
    const gw = await startGateway({ now: clock.now, readyDelayMs: 500, services: [slowStopper] });
    const health = listenAddresses(gw.broker).health;
    expect(health, "health server address").to.not.equal(null);
    const url = (path: string) => httpUrl(health!, path);

    const live = await http(url("/live"));
    expect(live.status).to.equal(200);
    expect(live.json).to.deep.equal({ status: "alive" });
    const notYet = await http(url("/ready"));
    expect(notYet.status).to.equal(503);
    expect(notYet.json).to.deep.equal({ status: "starting" });

    clock.advance(500);
    const ready = await http(url("/ready"));
    expect(ready.status).to.equal(200);
    expect(ready.json).to.deep.equal({ status: "ready" });

    expect((await http(url("/metrics"))).status).to.equal(404);
    expect((await http(url("/live"), { method: "POST" })).status).to.equal(405);

    const stopped = gw.stop();
    const liveWhileStopping = await pollUntil(async () => {
      const r = await http(url("/live"));
      return r.status === 503 ? r : undefined;
    }, "/live to report stopping");
    expect(liveWhileStopping.json).to.deep.equal({ status: "stopping" });
    const readyWhileStopping = await http(url("/ready"));
    expect(readyWhileStopping.status).to.equal(503);
    expect(readyWhileStopping.json).to.deep.equal({ status: "stopping" });

    release();
    await stopped;
    let refused: unknown = null;
    try {
      await http(url("/live"));
    } catch (err) {
      refused = err;
    }
    expect(refused, "probe server closed after stop").to.be.instanceOf(Error);
  });
});
