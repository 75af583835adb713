/**
 * The endpoint registry on a real (in-memory) store: the secret is shown once and never again, the URL passes the
 * SSRF guard, the filters and bounds hold, rotation keeps the old secret signing for the grace period, and every
 * operation is scoped to the endpoint's owner.
 */
import { expect } from "chai";
import { createStore, type Store } from "../../shared/store";
import {
  DeliveryQueue,
  deliveryOf,
  WebhookRegistry,
  webhookSettings,
  type WebhookErrorType,
  type WebhookSettings,
} from "../../shared/webhooks";
import { MemoryEventLog, TestClock } from "./support";

const HASH = `hash:${"ab".repeat(32)}`;
const publicLookup = async () => [{ address: "93.184.215.14", family: 4 as const }];

async function errorType(action: () => Promise<unknown>): Promise<WebhookErrorType | undefined> {
  try {
    await action();
  } catch (err) {
    return (err as { type?: WebhookErrorType }).type;
  }
  return expect.fail("expected a refusal");
}

describe("webhooks: endpoint registry", () => {
  let store: Store;
  let log: MemoryEventLog;
  let clock: TestClock;
  const open = (over: Partial<WebhookSettings> = {}) =>
    WebhookRegistry.open(store, { source: log, settings: webhookSettings(over), clock: clock.read, lookup: publicLookup });

  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    log = new MemoryEventLog();
    clock = new TestClock();
  });
  afterEach(() => store.close());

  it("returns the secret once: list and get answer no secret, and the stored URL is normalised", async () => {
    const registry = await open();
    const { endpoint, secret } = await registry.register({ owner: "alice", url: "https://Hooks.Example.com/in", subjects: [HASH] });
    expect(secret).to.match(/^whsec_/);
    expect(endpoint).to.include({ owner: "alice", url: "https://hooks.example.com/in", status: "active", consecutiveFailures: 0 });
    const answers = [endpoint, await registry.get("alice", endpoint.id), ...(await registry.list("alice"))];
    for (const answer of answers) {
      expect(JSON.stringify(answer)).to.not.include(secret.slice(6));
      expect(answer).to.not.have.property("secrets");
    }
    expect((await registry.signingTarget(endpoint.id))!.secrets).to.deep.equal([secret]);
  });

  it("starts a new endpoint after the log's newest event", async () => {
    log.append([HASH]);
    log.append([HASH]);
    const { endpoint } = await (await open()).register({ owner: "alice", url: "https://hooks.example.com/", subjects: [HASH] });
    expect(endpoint.cursor).to.equal("2");
  });

  it("refuses URLs the SSRF guard refuses, at registration", async () => {
    const registry = await open();
    const loopback = async () => [{ address: "127.0.0.1", family: 4 as const }];
    const rebinding = await WebhookRegistry.open(store, { source: log, settings: webhookSettings(), clock: clock.read, lookup: loopback });
    expect(await errorType(() => registry.register({ owner: "a", url: "https://169.254.169.254/", subjects: [HASH] }))).to.equal(
      "ENDPOINT_ADDRESS_REFUSED",
    );
    expect(await errorType(() => registry.register({ owner: "a", url: "http://hooks.example.com/", subjects: [HASH] }))).to.equal(
      "INVALID_ENDPOINT_URL",
    );
    expect(await errorType(() => rebinding.register({ owner: "a", url: "https://hooks.example.com/", subjects: [HASH] }))).to.equal(
      "ENDPOINT_ADDRESS_REFUSED",
    );
    expect(await registry.list("a")).to.deep.equal([]);
  });

  it("refuses malformed, unknown-kind, missing and too many filters", async () => {
    const registry = await open({ maxSubjectsPerEndpoint: 2, maxTypesPerEndpoint: 1 });
    const url = "https://hooks.example.com/";
    for (const [subjects, types] of [
      [[], []],
      [["hash"], []],
      [["colour:red"], []],
      [["hash:ab cd"], []],
      [[HASH, "address:addr1x", "transaction:00"], []],
      [[HASH], ["a", "b"]],
      [[HASH], ["certificate..anchored"]],
    ] as [string[], string[]][])
      expect(await errorType(() => registry.register({ owner: "a", url, subjects, types })), JSON.stringify([subjects, types])).to.equal(
        "INVALID_WEBHOOK_FILTER",
      );
  });

  it("holds the bounds per owner and in total", async () => {
    const registry = await open({ maxEndpointsPerOwner: 2, maxEndpoints: 3 });
    const add = (owner: string) => registry.register({ owner, url: "https://hooks.example.com/", subjects: [HASH] });
    await add("a");
    await add("a");
    expect(await errorType(() => add("a"))).to.equal("WEBHOOK_LIMIT_REACHED");
    await add("b");
    expect(await errorType(() => add("c"))).to.equal("WEBHOOK_LIMIT_REACHED");
    expect((await registry.list("a")).length + (await registry.list("b")).length + (await registry.list("c")).length).to.equal(3);
  });

  it("never keeps more than the bound when registrations race", async () => {
    const registry = await open({ maxEndpointsPerOwner: 3 });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => registry.register({ owner: "a", url: "https://hooks.example.com/", subjects: [HASH] })),
    );
    expect(results.filter((r) => r.status === "fulfilled").length).to.be.at.most(3);
    expect((await registry.list("a")).length).to.be.at.most(3);
  });

  it("rotates the secret: the new one returned once, the old one signing alongside until the grace period ends", async () => {
    const registry = await open({ secretGraceMs: 60_000 });
    const { endpoint, secret: first } = await registry.register({ owner: "a", url: "https://hooks.example.com/", subjects: [HASH] });
    clock.advance(1_000);
    const { secret: second, previousValidUntil } = await registry.rotateSecret("a", endpoint.id);
    expect(second).to.not.equal(first);
    expect(previousValidUntil).to.equal(clock.now + 60_000);
    expect((await registry.signingTarget(endpoint.id))!.secrets).to.deep.equal([second, first]);
    expect((await registry.get("a", endpoint.id)).secretCreatedAt).to.equal(clock.now);
    clock.advance(60_000);
    expect((await registry.signingTarget(endpoint.id))!.secrets).to.deep.equal([second]);
  });

  it("enables a disabled endpoint from the log's newest event on, and leaves an active one as it is", async () => {
    const registry = await open();
    const { endpoint } = await registry.register({ owner: "a", url: "https://hooks.example.com/", subjects: [HASH] });
    log.append([HASH]);
    expect(await registry.enable("a", endpoint.id)).to.not.have.property("cursor");
    await store.collection("webhook_endpoints").updateOne({ _id: endpoint.id }, { $set: { status: "disabled", consecutiveFailures: 5 } });
    expect(await registry.enable("a", endpoint.id)).to.include({ status: "active", consecutiveFailures: 0, cursor: "1" });
  });

  it("scopes get, rotate, enable and delete to the owner", async () => {
    const registry = await open();
    const { endpoint } = await registry.register({ owner: "alice", url: "https://hooks.example.com/", subjects: [HASH] });
    expect(await errorType(() => registry.get("mallory", endpoint.id))).to.equal("WEBHOOK_ENDPOINT_NOT_FOUND");
    expect(await errorType(() => registry.rotateSecret("mallory", endpoint.id))).to.equal("WEBHOOK_ENDPOINT_NOT_FOUND");
    expect(await errorType(() => registry.enable("mallory", endpoint.id))).to.equal("WEBHOOK_ENDPOINT_NOT_FOUND");
    expect(await errorType(() => registry.delete("mallory", endpoint.id))).to.equal("WEBHOOK_ENDPOINT_NOT_FOUND");
    expect(await registry.list("mallory")).to.deep.equal([]);
    expect((await registry.get("alice", endpoint.id)).id).to.equal(endpoint.id);
  });

  it("deletes an endpoint with its queued deliveries", async () => {
    const registry = await open();
    const queue = await DeliveryQueue.open(store);
    const { endpoint } = await registry.register({ owner: "a", url: "https://hooks.example.com/", subjects: [HASH] });
    const event = log.append([HASH]);
    await queue.enqueue([deliveryOf(endpoint.id, event, clock.now)]);
    await registry.delete("a", endpoint.id);
    expect(await registry.signingTarget(endpoint.id)).to.equal(undefined);
    expect(await store.collection("webhook_deliveries").count()).to.equal(0);
  });
});
