/**
 * The engine end to end on a real (in-memory) store and a real HTTP receiver on 127.0.0.1 (private networks allowed
 * by the operator's setting): the dispatcher matches and enqueues, the deliverer signs and sends, retries on the
 * documented schedule under a test clock, dead-letters, disables with a notice, replays with the same idempotency
 * ids; claims keep replicas from sending a delivery twice, and a lapsed claim is sent again.
 */
import { expect } from "chai";
import { createStore, type Store } from "../../shared/store";
import {
  createHttpSender,
  DeliveryQueue,
  DEFAULT_RETRY_SCHEDULE_MS,
  WebhookDeliverer,
  WebhookDispatcher,
  WebhookRegistry,
  webhookSettings,
  type DeliveryDocument,
  type EndpointDisabledNotice,
  type WebhookSettings,
} from "../../shared/webhooks";
import { ReferenceWebhook } from "./reference-verifier";
import { MemoryEventLog, Receiver, TestClock } from "./support";
import { pollUntil } from "../../fixtures/mesh/helpers";
import type { ServerResponse } from "node:http";

const HASH = `hash:${"ab".repeat(32)}`;
const OTHER = `hash:${"cd".repeat(32)}`;
const ADDRESS = "address:addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp";

interface Engine {
  settings: WebhookSettings;
  registry: WebhookRegistry;
  dispatcher: WebhookDispatcher;
  deliverer: WebhookDeliverer;
  notices: EndpointDisabledNotice[];
}

describe("webhooks: dispatch and delivery", function () {
  this.timeout(30_000);
  let store: Store;
  let log: MemoryEventLog;
  let clock: TestClock;
  let receiver: Receiver;

  const start = async (over: Partial<WebhookSettings> = {}, holder?: string): Promise<Engine> => {
    const settings = webhookSettings({
      allowPrivateNetworks: true,
      allowHttp: true,
      retryJitter: 0,
      requestTimeoutMs: 2_000,
      claimTtlMs: 5_000,
      ...over,
    });
    const registry = await WebhookRegistry.open(store, { source: log, settings, clock: clock.read });
    const dispatcher = await WebhookDispatcher.open(store, { source: log, settings, clock: clock.read });
    const notices: EndpointDisabledNotice[] = [];
    const send = createHttpSender({ policy: settings, timeoutMs: settings.requestTimeoutMs, maxResponseBytes: settings.maxResponseBytes });
    const deliverer = await WebhookDeliverer.open(store, {
      registry,
      send,
      settings,
      clock: clock.read,
      ...(holder !== undefined ? { holder } : {}),
      onEndpointDisabled: (n) => void notices.push(n),
    });
    return { settings, registry, dispatcher, deliverer, notices };
  };
  const deliveries = () => store.collection<DeliveryDocument>("webhook_deliveries").find({}, { sort: { eventKey: 1 } });
  /** The accepted requests' webhook-ids, each with how many times it was accepted. */
  const acceptedCounts = () => {
    const counts = new Map<string, number>();
    for (const r of receiver.accepted())
      counts.set(r.headers["webhook-id"] as string, (counts.get(r.headers["webhook-id"] as string) ?? 0) + 1);
    return counts;
  };

  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    log = new MemoryEventLog();
    clock = new TestClock();
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    await receiver.close();
    await store.close();
  });

  it("delivers every matching event once, signed so that the reference verifier accepts it, with the event's id as webhook-id", async () => {
    const { registry, dispatcher, deliverer } = await start();
    const { endpoint, secret } = await registry.register({
      owner: "a",
      url: receiver.url(),
      subjects: [HASH, ADDRESS],
      types: ["certificate.anchored"],
    });
    const wanted = [log.append([HASH]), log.append([OTHER, ADDRESS]), log.append([HASH, ADDRESS])];
    log.append([OTHER]); // another subject
    log.append([HASH], "certificate.revoked"); // another type
    wanted.push(log.append([HASH]));

    expect(await dispatcher.catchUp()).to.deep.include({ leased: true, events: 6, enqueued: 4, cursor: "6" });
    expect(await deliverer.runOnce()).to.deep.equal({ attempts: 4, delivered: 4, retried: 0, failed: 0 });

    const verifier = new ReferenceWebhook(secret);
    const got = receiver.received.map((r) => ({
      id: r.headers["webhook-id"],
      body: verifier.verify(r.body, r.headers, clock.now) as Record<string, unknown>,
    }));
    expect(got.map((g) => g.id).sort()).to.deep.equal(wanted.map((e) => `evt_${e.id}`).sort());
    for (const { id, body } of got) {
      const event = wanted.find((e) => `evt_${e.id}` === id)!;
      expect(body).to.deep.equal({
        type: event.type,
        timestamp: event.timestamp,
        data: event.data,
        eventId: event.id,
        block: event.block,
        subjects: event.subjects,
      });
    }
    for (const r of receiver.received) expect(r.headers["webhook-timestamp"]).to.equal(String(Math.floor(clock.now / 1000)));
    expect((await registry.get("a", endpoint.id)).cursor).to.equal("6");
    expect((await deliveries()).every((d) => d.status === "delivered")).to.equal(true);
  });

  it("a receiver that fails 5 times, then succeeds, gets every event exactly once per webhook-id", async () => {
    const { registry, dispatcher, deliverer } = await start();
    await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    for (let i = 0; i < 4; i++) log.append([HASH]);
    receiver.script = [500, 503, 500, 502, 500];
    await dispatcher.catchUp();
    for (let round = 0; round < 10 && receiver.accepted().length < 4; round++) {
      await deliverer.runOnce();
      clock.advance(DEFAULT_RETRY_SCHEDULE_MS[round]!);
    }
    expect(receiver.received).to.have.length(4 + 5);
    expect([...acceptedCounts().entries()].sort()).to.deep.equal([
      ["evt_1", 1],
      ["evt_2", 1],
      ["evt_3", 1],
      ["evt_4", 1],
    ]);
    // every attempt of an event carries the same webhook-id: 4 ids among the 9 requests
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).to.equal(4);
  });

  it("retries on the documented schedule (5 s, 30 s, 2 min, … 8 h), never early, then dead-letters after the tenth attempt", async () => {
    const { registry, dispatcher, deliverer } = await start();
    const { endpoint } = await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    receiver.fallback = 500;
    log.append([HASH]);
    await dispatcher.catchUp();
    const attemptTimes: number[] = [];
    for (const delay of DEFAULT_RETRY_SCHEDULE_MS) {
      await deliverer.runOnce();
      attemptTimes.push(clock.now);
      const [d] = await deliveries();
      expect(d).to.include({ status: "pending", nextAttemptAt: clock.now + delay, lastStatus: 500, lastFailure: "HTTP_ERROR_STATUS" });
      clock.advance(delay - 1);
      expect(await deliverer.runOnce(), "not before it is due").to.include({ attempts: 0 });
      clock.advance(1);
    }
    await deliverer.runOnce();
    attemptTimes.push(clock.now);
    const [dead] = await deliveries();
    expect(dead).to.include({ status: "failed", attempts: 10, failedAt: clock.now });
    expect(receiver.received.map((r) => Number(r.headers["webhook-timestamp"]))).to.deep.equal(
      attemptTimes.map((t) => Math.floor(t / 1000)),
    );
    expect(attemptTimes[attemptTimes.length - 1]! - attemptTimes[0]!).to.equal(15 * 3_600_000 + 42 * 60_000 + 35_000);

    const queue = await DeliveryQueue.open(store);
    const page = await queue.deadLetters(endpoint.id, 10);
    expect(page.items).to.have.length(1);
    expect(page.items[0]).to.include({ eventId: "1", messageId: "evt_1", attempts: 10, lastStatus: 500, lastResponse: "no" });
    expect(page).to.not.have.property("next");
    expect(await deliverer.runOnce(), "nothing after dead").to.include({ attempts: 0 });
  });

  it("moves the jitter within ± the setting and honours Retry-After up to its bound", async () => {
    const { registry, dispatcher, deliverer } = await start({ retryJitter: 0.1, maxRetryAfterMs: 60_000 });
    await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    receiver.script = [
      (res) => res.writeHead(429, { "retry-after": "40" }).end(),
      (res) => res.writeHead(503, { "retry-after": "999999" }).end(),
      500,
    ];
    log.append([HASH]);
    await dispatcher.catchUp();
    await deliverer.runOnce();
    expect((await deliveries())[0]!.nextAttemptAt - clock.now).to.equal(40_000);
    clock.advance(40_000);
    await deliverer.runOnce();
    expect((await deliveries())[0]!.nextAttemptAt - clock.now).to.equal(60_000);
    clock.advance(60_000);
    await deliverer.runOnce();
    expect((await deliveries())[0]!.nextAttemptAt - clock.now).to.be.within(120_000 * 0.9, 120_000 * 1.1);
  });

  it("pages the dead letters in log order", async () => {
    const { registry, dispatcher, deliverer } = await start({ retryScheduleMs: [] });
    const { endpoint } = await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    receiver.fallback = 500;
    for (let i = 0; i < 5; i++) log.append([HASH]);
    await dispatcher.catchUp();
    await deliverer.runOnce();
    const queue = await DeliveryQueue.open(store);
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await queue.deadLetters(endpoint.id, 2, after);
      expect(page.items.length).to.be.at.most(2);
      seen.push(...page.items.map((i) => i.eventId));
      after = page.next;
    } while (after !== undefined);
    expect(seen).to.deep.equal(["1", "2", "3", "4", "5"]);
  });

  it("disables an endpoint after N dead deliveries in a row, once, with the endpoint.disabled notice; its pending deliveries go to the dead letters", async () => {
    const { registry, dispatcher, deliverer, notices } = await start({
      retryScheduleMs: [1_000],
      disableAfterFailedDeliveries: 2,
      concurrencyPerEndpoint: 1,
    });
    const { endpoint } = await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    receiver.fallback = 500;
    for (let i = 0; i < 4; i++) log.append([HASH]);
    await dispatcher.catchUp();
    await deliverer.runOnce();
    clock.advance(1_000);
    await deliverer.runOnce();
    const view = await registry.get("a", endpoint.id);
    expect(view).to.include({ status: "disabled", disabledReason: "FAILED_DELIVERIES", disabledAt: clock.now });
    expect(notices).to.deep.equal([
      {
        type: "endpoint.disabled",
        endpointId: endpoint.id,
        owner: "a",
        url: receiver.url(),
        reason: "FAILED_DELIVERIES",
        consecutiveFailures: 2,
        at: clock.now,
      },
    ]);
    const all = await deliveries();
    expect(all.map((d) => d.status)).to.deep.equal(["failed", "failed", "failed", "failed"]);
    expect(all.filter((d) => d.lastFailure === "ENDPOINT_DISABLED").length).to.be.at.least(1);

    // a disabled endpoint gets nothing new; enabled again, it gets what comes next, and a replay recovers the rest
    log.append([HASH]);
    expect(await dispatcher.catchUp()).to.include({ enqueued: 0 });
    receiver.fallback = 200;
    await registry.enable("a", endpoint.id);
    log.append([HASH]);
    await dispatcher.catchUp();
    await deliverer.runOnce();
    expect([...acceptedCounts().keys()]).to.deep.equal(["evt_6"]);
    expect(notices).to.have.length(1);
  });

  it("resets the count of dead deliveries when one is delivered", async () => {
    const { registry, dispatcher, deliverer } = await start({ retryScheduleMs: [], disableAfterFailedDeliveries: 2, concurrency: 1 });
    const { endpoint } = await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    receiver.script = [500, 200, 500];
    for (let i = 0; i < 3; i++) log.append([HASH]);
    await dispatcher.catchUp();
    await deliverer.runOnce();
    expect(await registry.get("a", endpoint.id)).to.include({ status: "active", consecutiveFailures: 1 });
  });

  it("disables at once on 410 Gone", async () => {
    const { registry, dispatcher, deliverer, notices } = await start();
    const { endpoint } = await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    receiver.script = [410];
    log.append([HASH]);
    await dispatcher.catchUp();
    await deliverer.runOnce();
    expect(await registry.get("a", endpoint.id)).to.include({ status: "disabled", disabledReason: "GONE" });
    expect(notices.map((n) => n.reason)).to.deep.equal(["GONE"]);
    expect((await deliveries())[0]).to.include({ status: "failed", lastStatus: 410 });
  });

  it("replays an endpoint's events from an event id as new deliveries with the same webhook-id and body", async () => {
    const { registry, dispatcher, deliverer } = await start();
    const { endpoint, secret } = await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    for (let i = 0; i < 4; i++) log.append(i === 1 ? [OTHER] : [HASH]);
    await dispatcher.catchUp();
    await deliverer.runOnce();
    const firstBodies = new Map(receiver.received.map((r) => [r.headers["webhook-id"], r.body]));
    clock.advance(60_000);
    expect(await dispatcher.replay("a", endpoint.id, "2")).to.deep.equal({ replay: 1, enqueued: 2, scanned: 2 });
    await deliverer.runOnce();
    const replayed = receiver.received.slice(3);
    expect(replayed.map((r) => r.headers["webhook-id"]).sort()).to.deep.equal(["evt_3", "evt_4"]);
    for (const r of replayed) {
      expect(r.body).to.equal(firstBodies.get(r.headers["webhook-id"]));
      new ReferenceWebhook(secret).verify(r.body, r.headers, clock.now);
    }
    expect((await deliveries()).map((d) => d._id)).to.include(`${endpoint.id}:3:replay-1`);
  });

  it("bounds a replay and says where to continue; refuses a replay for another owner or a disabled endpoint", async () => {
    const { registry, dispatcher } = await start({ replayMaxEvents: 3, dispatchPageSize: 2 });
    const { endpoint } = await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    for (let i = 0; i < 7; i++) log.append([HASH]);
    await dispatcher.catchUp();
    expect(await dispatcher.replay("a", endpoint.id, "1")).to.deep.equal({ replay: 1, enqueued: 3, scanned: 3, continueFrom: "4" });
    expect(await dispatcher.replay("a", endpoint.id, "4")).to.deep.equal({ replay: 2, enqueued: 3, scanned: 3, continueFrom: "7" });
    expect(await dispatcher.replay("a", endpoint.id, "7")).to.deep.equal({ replay: 3, enqueued: 1, scanned: 1 });
    const refused = await dispatcher.replay("b", endpoint.id, "1").catch((err: { type: string }) => err.type);
    expect(refused).to.equal("WEBHOOK_ENDPOINT_NOT_FOUND");
    await store.collection("webhook_endpoints").updateOne({ _id: endpoint.id }, { $set: { status: "disabled" } });
    const disabled = await dispatcher.replay("a", endpoint.id, "1").catch((err: { type: string }) => err.type);
    expect(disabled).to.equal("WEBHOOK_ENDPOINT_DISABLED");
  });

  it("re-dispatching a page after a crash before the cursor moved enqueues nothing twice", async () => {
    const { registry, dispatcher, deliverer } = await start();
    await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    for (let i = 0; i < 5; i++) log.append([HASH]);
    await dispatcher.catchUp();
    // the crash: the deliveries were written, the cursor was not
    await store.collection("webhook_dispatch_state").deleteMany({});
    await store.collection("webhook_endpoints").updateMany({}, { $unset: { cursor: true } });
    expect(await dispatcher.catchUp()).to.include({ events: 5, enqueued: 0 });
    await deliverer.runOnce();
    expect([...acceptedCounts().values()]).to.deep.equal([1, 1, 1, 1, 1]);
  });

  it("reads the log in pages, and only one dispatcher runs at a time", async () => {
    const { registry, dispatcher } = await start({ dispatchPageSize: 200 });
    const other = await WebhookDispatcher.open(store, {
      source: log,
      settings: webhookSettings({ dispatchPageSize: 200 }),
      clock: clock.read,
    });
    await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    for (let i = 0; i < 450; i++) log.append([HASH]);
    expect(await dispatcher.catchUp()).to.include({ leased: true, events: 450, enqueued: 450, more: false });
    expect(log.reads).to.equal(3);
    expect(await other.catchUp()).to.include({ leased: false, events: 0 });
    await dispatcher.release();
    expect(await other.catchUp()).to.include({ leased: true, events: 0 });
  });

  it("matches a page to more endpoints than one read holds, moving each endpoint's cursor to its own last event, and lets the event loop run meanwhile", async () => {
    const { registry, dispatcher } = await start();
    const ids: { hash: string[]; address: string[] } = { hash: [], address: [] };
    for (let i = 0; i < 240; i++) {
      const kind = i % 2 === 0 ? "hash" : "address";
      const { endpoint } = await registry.register({ owner: `o${i}`, url: receiver.url(), subjects: [kind === "hash" ? HASH : ADDRESS] });
      ids[kind].push(endpoint.id);
    }
    log.append([HASH]);
    log.append([ADDRESS]);
    log.append([HASH, OTHER]);
    log.append([OTHER]);
    let turns = 0;
    let running = true;
    const count = (): void => {
      turns += 1;
      if (running) setImmediate(count);
    };
    setImmediate(count);
    const result = await dispatcher.catchUp();
    running = false;
    expect(result).to.include({ events: 4, enqueued: 120 * 2 + 120 });
    expect(turns).to.be.greaterThan(2);
    const endpoints = store.collection<{ _id: string; cursor?: string }>("webhook_endpoints");
    const cursorOf = async (list: string[]) => new Set((await endpoints.find({ _id: { $in: list } })).map((e) => e.cursor));
    expect(await cursorOf(ids.hash)).to.deep.equal(new Set(["3"]));
    expect(await cursorOf(ids.address)).to.deep.equal(new Set(["2"]));
    const queued = await store.collection<DeliveryDocument>("webhook_deliveries").find({});
    expect(
      queued
        .filter((d) => d.eventId === "1" || d.eventId === "3")
        .map((d) => d.endpointId)
        .sort(),
    ).to.deep.equal([...ids.hash, ...ids.hash].sort());
    expect(
      queued
        .filter((d) => d.eventId === "2")
        .map((d) => d.endpointId)
        .sort(),
    ).to.deep.equal([...ids.address].sort());
  });

  it("gives a new endpoint the events appended after its registration only", async () => {
    const { registry, dispatcher, deliverer } = await start();
    log.append([HASH]);
    await dispatcher.catchUp();
    log.append([HASH]); // appended before the registration, not yet dispatched
    await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    log.append([HASH]);
    await dispatcher.catchUp();
    await deliverer.runOnce();
    expect([...acceptedCounts().keys()]).to.deep.equal(["evt_3"]);
  });

  it("two deliverers on one store never send the same delivery twice", async () => {
    const a = await start({ concurrency: 4 }, "replica-a");
    const b = await start({ concurrency: 4 }, "replica-b");
    await a.registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    for (let i = 0; i < 30; i++) log.append([HASH]);
    await a.dispatcher.catchUp();
    receiver.fallback = (res) => setTimeout(() => res.writeHead(200).end(), 20);
    await Promise.all([a.deliverer.runOnce(), b.deliverer.runOnce()]);
    expect(receiver.received).to.have.length(30);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).to.equal(30);
    const by = new Set((await deliveries()).map((d) => d.status));
    expect([...by]).to.deep.equal(["delivered"]);
  });

  it("sends again a delivery whose claim lapsed (its deliverer died), same webhook-id; the dead claimant cannot settle it", async () => {
    const { registry, dispatcher, deliverer, settings } = await start();
    await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    log.append([HASH]);
    await dispatcher.catchUp();
    const queue = await DeliveryQueue.open(store);
    const [ghost] = await queue.claim(1, "ghost", clock.now, settings.claimTtlMs, () => 1);
    expect(await deliverer.runOnce(), "claimed by another").to.include({ attempts: 0 });
    clock.advance(settings.claimTtlMs);
    expect(await deliverer.runOnce()).to.include({ attempts: 1, delivered: 1 });
    expect(await queue.delivered(ghost!, clock.now, {})).to.equal(false);
    expect((await deliveries())[0]).to.include({ status: "delivered", attempts: 2 });
    expect(receiver.received.map((r) => r.headers["webhook-id"])).to.deep.equal(["evt_1"]);
  });

  it("a slow endpoint holds only its own slots: another endpoint's deliveries go on meanwhile", async () => {
    const slow = await Receiver.start();
    try {
      slow.fallback = () => undefined; // never answers
      const { registry, dispatcher, deliverer } = await start({ concurrency: 3, concurrencyPerEndpoint: 1, requestTimeoutMs: 400 });
      await registry.register({ owner: "a", url: slow.url(), subjects: [HASH] });
      await registry.register({ owner: "b", url: receiver.url(), subjects: [HASH] });
      for (let i = 0; i < 3; i++) log.append([HASH]);
      await dispatcher.catchUp();
      const started = Date.now();
      let fastDone = 0;
      receiver.fallback = (res) => {
        fastDone = Date.now();
        res.writeHead(200).end();
      };
      await deliverer.runOnce();
      expect(receiver.received).to.have.length(3);
      expect(slow.received).to.have.length(3); // one at a time, each timed out
      expect(fastDone - started, "the fast endpoint was served before the slow one's first timeout").to.be.below(400);
    } finally {
      await slow.close();
    }
  });

  it("stops without draining a backlog: the run claims nothing more and ends with its attempts in flight", async () => {
    const { registry, dispatcher, deliverer } = await start({ concurrency: 2, concurrencyPerEndpoint: 2 });
    await registry.register({ owner: "a", url: receiver.url(), subjects: [HASH] });
    for (let i = 0; i < 20; i++) log.append([HASH]);
    await dispatcher.catchUp();
    const held: ServerResponse[] = [];
    receiver.fallback = (res) => void held.push(res);
    deliverer.start(60_000, () => undefined);
    await pollUntil(async () => (held.length === 2 ? true : undefined), "two attempts in flight");
    const stopped = deliverer.stop();
    for (const res of held) res.writeHead(200).end();
    await stopped;
    expect(receiver.received, "no attempt after the stop").to.have.length(2);
    const byStatus = (await deliveries()).reduce<Record<string, number>>((n, d) => ({ ...n, [d.status]: (n[d.status] ?? 0) + 1 }), {});
    expect(byStatus).to.deep.equal({ delivered: 2, pending: 18 });
  });
});
