/**
 * Found by the fault campaign: after `kill -9` of a service process restarted under the same node ID, or a NATS
 * server restart, the calls that were waiting for the lost node hung until the request timeout and the gateway
 * answered 504 (30 s by default). shared/mesh/lost-request-middleware.ts rejects them instead, and the retry policy
 * sends them again. Here with brokers over a real nats-server and a request timeout longer than the test's own:
 * each call must come back answered, by the new instance or after the reconnection.
 */
import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { createBrokerOptions } from "../../../moleculer.config";
import { testConfig } from "../../../fixtures/mesh/helpers";
import { requireNatsServer } from "../../../fixtures/processes/nats-server";
import { freePort, startNats, type Child } from "../../../fixtures/faults/distributed-system";

describe("fault campaign: requests lost with a restarted node or NATS connection are retried, not left to time out", function () {
  this.timeout(40_000);
  let nats: Child | undefined;
  let port = 0;
  const brokers: ServiceBroker[] = [];
  const namespace = `lost-${randomUUID()}`;

  const broker = (nodeID: string) => {
    const config = testConfig({
      TRANSPORTER: `nats://127.0.0.1:${port}`,
      NAMESPACE: namespace,
      NODE_ID: nodeID,
      REQUEST_TIMEOUT_MS: "120000",
      SHUTDOWN_TIMEOUT_MS: "100",
    });
    const b = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }));
    brokers.push(b);
    return b;
  };
  /** a service whose first call is never answered (the node "dies" with it) */
  const worker = (nodeID: string, answer: string, hangFirst: boolean) => {
    const b = broker(nodeID);
    let calls = 0;
    let received: () => void = () => undefined;
    const firstReceived = new Promise<void>((r) => (received = r));
    b.createService({
      name: `work-${nodeID}`,
      actions: {
        run: {
          handler: () => {
            calls++;
            received();
            return hangFirst && calls === 1 ? new Promise(() => undefined) : `${answer} (call ${calls})`;
          },
        },
      },
    });
    return { b, firstReceived };
  };

  before(async function () {
    requireNatsServer(this);
    port = await freePort();
    nats = await startNats(port);
  });
  after(async () => {
    for (const b of brokers) await b.stop().catch(() => undefined);
    await nats?.stop();
  });

  it("a node restarted under the same node ID: the call waiting for its old instance is answered by the new one", async () => {
    const caller = broker(`caller-${randomUUID().slice(0, 6)}`);
    const old = worker("worker-a", "old", true);
    await Promise.all([caller.start(), old.b.start()]);
    await caller.waitForServices("work-worker-a", 10_000);
    const call = caller.call<string>("work-worker-a.run");
    await old.firstReceived;
    // the old instance dies without a word: its NATS connection closes, no DISCONNECT packet is sent
    await (old.b as unknown as { transit: { tx: { disconnect(): Promise<void> } } }).transit.tx.disconnect();
    const fresh = worker("worker-a", "new", false);
    await fresh.b.start();
    expect(await call).to.equal("new (call 1)");
  });

  it("the NATS server restarted: the call whose request or reply was lost is sent again after the reconnection", async () => {
    const caller = broker(`caller-${randomUUID().slice(0, 6)}`);
    const w = worker("worker-b", "same node", true);
    await Promise.all([caller.start(), w.b.start()]);
    await caller.waitForServices("work-worker-b", 10_000);
    const call = caller.call<string>("work-worker-b.run");
    await w.firstReceived;
    await nats!.stop();
    nats = await startNats(port);
    expect(await call).to.equal("same node (call 2)");
  });
});
