// The NATS subjects the brokers of moleculer.config.ts publish on a real nats-server: a request (each chunk of a
// request stream too) names its node and its action, so nats-server's permissions can allow or refuse an action
// (deploy/k8s/nats.yaml); answers, events and discovery keep Moleculer's subjects.
import { expect } from "chai";
import { randomBytes, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { ServiceBroker, type Context } from "moleculer";
import { connect, type NatsConnection } from "nats";
import { createBrokerOptions } from "../../moleculer.config";
import { testConfig } from "../../fixtures/mesh/helpers";
import { requireNatsServer, startNatsServer, type NatsServerHandle } from "../../fixtures/processes/nats-server";

describe("NATS transporter: the action in each request's subject (real nats-server)", function () {
  this.timeout(30_000);
  const namespace = `subjects-${randomUUID().slice(0, 8)}`;
  const prefix = `MOL-${namespace}`;
  let nats: NatsServerHandle;
  let spy: NatsConnection;
  /** every subject published in the namespace, in the order the server delivered them */
  const seen: string[] = [];
  let caller: ServiceBroker;
  let callee: ServiceBroker;

  const broker = (nodeID: string): ServiceBroker =>
    new ServiceBroker(
      createBrokerOptions(testConfig({ TRANSPORTER: nats.url, NAMESPACE: namespace, NODE_ID: nodeID }), {
        overrides: { skipProcessEventRegistration: true },
      }),
    );

  before(async function () {
    requireNatsServer(this);
    nats = await startNatsServer();
    spy = await connect({ servers: nats.url.replace("nats://", "") });
    spy.subscribe(`${prefix}.>`, { callback: (err, msg) => void (err === null ? seen.push(msg.subject) : undefined) });
    await spy.flush();
    caller = broker("caller.pod-1");
    callee = broker("callee.pod-2");
    callee.createService({
      name: "store",
      actions: {
        put: (ctx: Context<{ n: number }>) => ctx.params.n + 1,
        async take(ctx: Context) {
          let bytes = 0;
          for await (const chunk of (ctx as unknown as { stream: AsyncIterable<Buffer> }).stream) bytes += chunk.length;
          return bytes;
        },
      },
    });
    await Promise.all([caller.start(), callee.start()]);
    await caller.waitForServices(["store"], 10_000);
  });

  after(async () => {
    await Promise.all([caller?.stop(), callee?.stop()]);
    await spy?.close();
    await nats?.stop();
  });

  it("sends a request to MOL-<namespace>.REQ.<node ID>.<action> and answers it on Moleculer's RES.<node ID>", async function () {
    seen.length = 0;
    expect(await caller.call("store.put", { n: 41 })).to.equal(42);
    await spy.flush();
    expect(seen.filter((s) => s.includes(".REQ.") || s.includes(".RES."))).to.deep.equal([
      `${prefix}.REQ.callee.pod-2.store.put`,
      `${prefix}.RES.caller.pod-1`,
    ]);
  });

  it("sends every chunk of a request stream to the same node and action subject", async function () {
    seen.length = 0;
    const bytes = randomBytes(300_000);
    const chunks = [bytes.subarray(0, 100_000), bytes.subarray(100_000, 200_000), bytes.subarray(200_000)];
    expect(await caller.call("store.take", null, { stream: Readable.from(chunks) })).to.equal(bytes.length);
    await spy.flush();
    const requests = seen.filter((s) => s.includes(".REQ."));
    // the first packet, one per chunk, and the closing one: all on one subject
    expect(requests.length).to.be.at.least(chunks.length + 2);
    expect(new Set(requests)).to.deep.equal(new Set([`${prefix}.REQ.callee.pod-2.store.take`]));
  });

  it("keeps Moleculer's subjects for discovery and heartbeats, and sends no request to the node-only subject", function () {
    const other = seen.filter((s) => !s.includes(".REQ.") && !s.includes(".RES."));
    for (const s of other) expect(s).to.match(new RegExp(`^${prefix}\\.(INFO|DISCOVER|HEARTBEAT|PING|PONG|DISCONNECT|EVENT)(\\.|$)`));
    expect(
      seen.some((s) => s === `${prefix}.REQ.callee.pod-2`),
      "no request on the node-only subject",
    ).to.equal(false);
  });
});
