/**
 * The adapter from the public event log (shared/events/event-log.ts) to the webhook engine's `EventSource` port, on a
 * real log in SQLite: reads follow the log in id order; a filtered read goes on window after window until it has
 * `limit` events or reaches the log's end (the dispatcher's replay takes fewer than asked as the end); `latest()` is
 * undefined for an empty log; and a replay through the dispatcher finds an endpoint's rare events across many windows.
 */
import { expect } from "chai";
import { EventLog } from "../../shared/events/event-log";
import type { NewEvent } from "../../shared/events/event-types";
import { createStore, type Store } from "../../shared/store";
import { eventLogSource } from "../../shared/webhooks/event-log-source";
import { WebhookDispatcher, WebhookRegistry, webhookSettings, type EventSource } from "../../shared/webhooks";

const WINDOW = 10;
const tx = (n: number) => n.toString(16).padStart(64, "0");
const submitted = (n: number): NewEvent => ({
  key: `t:${n}`,
  type: "transaction.submitted",
  timestamp: new Date(0).toISOString(),
  block: null,
  subjects: [`transaction:${tx(n)}`],
  data: { transactionHash: tx(n), inFlightUntil: null },
});

describe("webhooks: the event log behind the engine's EventSource port", function () {
  let store: Store;
  let log: EventLog;
  let source: EventSource;
  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    log = await EventLog.open(store, { scanWindow: WINDOW });
    source = eventLogSource(log);
  });
  afterEach(() => store.close());

  it("answers no latest id for an empty log, then the newest one", async () => {
    expect(await source.latest()).to.equal(undefined);
    expect(await source.after(undefined, 5)).to.deep.equal([]);
    await log.append([submitted(1), submitted(2)]);
    expect(await source.latest()).to.equal("2");
  });

  it("reads in id order after a cursor, at most `limit`, and fewer only at the log's end", async () => {
    await log.append(Array.from({ length: 25 }, (_, i) => submitted(i + 1)));
    expect((await source.after(undefined, 4)).map((e) => e.id)).to.deep.equal(["1", "2", "3", "4"]);
    expect((await source.after("8", 15)).map((e) => e.id)).to.deep.equal(Array.from({ length: 15 }, (_, i) => String(i + 9)));
    expect((await source.after("20", 100)).map((e) => e.id)).to.deep.equal(["21", "22", "23", "24", "25"]);
    expect(await source.after("25", 100)).to.deep.equal([]);
    const [first] = await source.after("0", 1);
    expect(first).to.deep.include({ id: "1", type: "transaction.submitted", block: null, subjects: [`transaction:${tx(1)}`] });
  });

  it("goes on window after window for a filtered read until it has `limit` events or the log ends", async () => {
    // a rare subject: events 3, 17, 38 and 44 of 50, windows of 10 ids
    await log.append(
      Array.from({ length: 50 }, (_, i) => ({
        ...submitted(i + 1),
        subjects: [`transaction:${tx([3, 17, 38, 44].includes(i + 1) ? 0 : i + 1)}`],
      })),
    );
    const hint = { subjects: [`transaction:${tx(0)}`] };
    expect((await source.after(undefined, 3, hint)).map((e) => e.id)).to.deep.equal(["3", "17", "38"]);
    expect((await source.after("38", 3, hint)).map((e) => e.id)).to.deep.equal(["44"]);
    expect(await source.after("44", 3, hint)).to.deep.equal([]);
    expect(await source.after(undefined, 3, { ...hint, types: ["certificate.anchored"] })).to.deep.equal([]);
  });

  it("lets a replay find an endpoint's rare events across many windows", async () => {
    const settings = webhookSettings({ allowPrivateNetworks: true, allowHttp: true, dispatchPageSize: 7 });
    const clock = () => 1_000;
    const registry = await WebhookRegistry.open(store, { source, settings, clock });
    const dispatcher = await WebhookDispatcher.open(store, { source, settings, clock });
    const { endpoint } = await registry.register({ owner: "o", url: "http://127.0.0.1:9/x", subjects: [`transaction:${tx(0)}`] });
    await log.append(
      Array.from({ length: 60 }, (_, i) => ({ ...submitted(i + 1), subjects: [`transaction:${tx(i % 20 === 5 ? 0 : i + 1)}`] })),
    );
    const dispatched = await dispatcher.catchUp();
    expect(dispatched).to.deep.include({ events: 60, enqueued: 3 });
    const replay = await dispatcher.replay("o", endpoint.id, "1");
    expect(replay).to.deep.include({ replay: 1, enqueued: 3 });
    expect(replay).to.not.have.property("continueFrom");
  });
});
