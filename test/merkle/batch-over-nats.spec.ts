/**
 * In scale mode the gateway hands a batch to tx-builder over NATS: bytes arrive as the JSON serializer's
 * { type: "Buffer", data } (which the batch parser reads), and params beyond the NATS server's max_payload fail
 * with MAX_PAYLOAD_EXCEEDED, which the gateway answers 413 naming the limit, never 500. Needs nats-server (CI
 * installs it), like the distributed tests.
 */
import { expect } from "chai";
import { ServiceBroker, type Context } from "moleculer";
import { parseBatchRequest } from "../../shared/issuance/batch-build";
import { toHttpErrorReply } from "../../shared/mesh/error-mapping";
import { startNatsServer, type NatsServerHandle } from "../../fixtures/processes/nats-server";

describe("merkle batches over NATS (real nats-server)", function () {
  this.timeout(30_000);
  let nats: NatsServerHandle;
  let caller: ServiceBroker;
  let receiver: ServiceBroker;
  let received: unknown;

  before(async () => {
    nats = await startNatsServer();
    const broker = (nodeID: string) =>
      new ServiceBroker({ nodeID, namespace: "merkle-nats", transporter: { type: "NATS", options: { url: nats.url } }, logger: false });
    caller = broker("gateway-side");
    receiver = broker("tx-builder-side");
    receiver.createService({
      name: "batch-sink",
      actions: {
        take(ctx: Context<Record<string, unknown>>) {
          received = ctx.params["hashes"];
          return parseBatchRequest(ctx.params).leaves.length / 32;
        },
      },
    });
    await Promise.all([caller.start(), receiver.start()]);
    await caller.waitForServices(["batch-sink"]);
  });
  after(async () => {
    await caller?.stop();
    await receiver?.stop();
    await nats?.stop();
  });

  it("delivers bytes as { type: Buffer, data }, which the batch parser reads", async () => {
    const bytes = Buffer.alloc(32 * 100, 7);
    expect(await caller.call("batch-sink.take", { hashes: bytes })).to.equal(100);
    expect(received).to.deep.include({ type: "Buffer" });
  });

  it("answers a batch beyond the bus's max_payload with 413 PAYLOAD_TOO_LARGE, not 500", async () => {
    let failure: unknown;
    try {
      await caller.call("batch-sink.take", { hashes: Buffer.alloc(32 * 40_000) });
    } catch (err) {
      failure = err;
    }
    expect(failure, "the call must fail").to.not.equal(undefined);
    const reply = toHttpErrorReply(failure);
    expect(reply.status).to.equal(413);
    expect(reply.body.error).to.equal("PAYLOAD_TOO_LARGE");
    expect(reply.body.message).to.match(/max_payload/);
  });
});
