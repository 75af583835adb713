import { expect } from "chai";
import { httpUrl, listenAddresses } from "../../shared/mesh/listen-addresses";
import { http, pollUntil, startGateway, type RunningGateway } from "../../fixtures/mesh/helpers";

describe("mesh: Prometheus metrics (METRICS_PORT)", function () {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ env: { ENABLE_METRICS: "true" } });
  });
  after(() => gw.stop());

  it("serves /metrics on its own port and counts gateway requests per action", async () => {
    const address = await pollUntil(async () => listenAddresses(gw.broker).metrics ?? undefined, "metrics server");
    expect(address.port).to.not.equal(listenAddresses(gw.broker).api?.port);
    expect((await http(`${gw.api}/extensions`)).status).to.equal(200);

    const scrape = await pollUntil(async () => {
      const r = await http(httpUrl(address, "/metrics"));
      return r.status === 200 && /moleculer_request_total\{[^}]*action="gateway\.extensions"/.test(r.text) ? r : undefined;
    }, "request counter of gateway.extensions");
    expect(scrape.headers.get("content-type")).to.contain("text/plain");
    expect(scrape.text).to.match(/^# TYPE moleculer_request_total counter$/m);
  });
});
