/**
 * The event log's guarantees on a real store (SQLite in memory; MongoDB too when MONGO_URL is set, each appender on a
 * connection of its own, as separate processes would be): appenders racing for ids give every event its own id,
 * dense from 1, and a reader following the log meanwhile sees each event once, in id order; an event whose key the
 * log holds is not appended again; reads filter by subjects (OR) and types, and never look through more than their
 * window; retention deletes a prefix of ids by when events were stored, never the newest.
 */
import { expect } from "chai";
import { randomUUID } from "node:crypto";
import { EventLog } from "../../shared/events/event-log";
import type { NewEvent, PublicEvent } from "../../shared/events/event-types";
import { createStore, type Store } from "../../shared/store";

const mongoUrl = process.env["MONGO_URL"];

const stores: { name: string; open: () => Promise<{ peers: Store[]; close: () => Promise<void> }> }[] = [
  {
    name: "SQLite in memory",
    open: async () => {
      const store = await createStore({ inMemory: true });
      return { peers: [store, store, store], close: () => store.close() };
    },
  },
  ...(mongoUrl
    ? [
        {
          name: "MongoDB",
          open: async () => {
            const dbName = `events_${randomUUID().slice(0, 8)}`;
            const peers = await Promise.all([1, 2, 3].map(() => createStore({ mongoUrl, dbName, serverSelectionTimeoutMS: 5_000 })));
            return { peers, close: async () => void (await Promise.all(peers.map((p) => p.close()))) };
          },
        },
      ]
    : []),
];

/** An event with its key; `order` (in `inFlightUntil`) tells the events of one appender apart and in order. */
const event = (
  key: string,
  subjects: string[] = [],
  type: NewEvent["type"] = "transaction.submitted",
  order: number | null = null,
): NewEvent =>
  ({
    key,
    type,
    timestamp: new Date(0).toISOString(),
    block: null,
    subjects,
    data: { transactionHash: "00".repeat(32), inFlightUntil: order },
  }) as NewEvent;

for (const { name, open } of stores)
  describe(`event log on ${name}`, function () {
    let opened: Awaited<ReturnType<typeof open>>;
    beforeEach(async () => {
      opened = await open();
    });
    afterEach(() => opened.close());

    it("gives every event of racing appenders its own id, dense from 1; a reader meanwhile sees each once, in order", async () => {
      const logs = await Promise.all(opened.peers.map((store) => EventLog.open(store)));
      const seen: PublicEvent[] = [];
      let appending = true;
      const reader = (async () => {
        for (let from = "0"; appending || from !== (await logs[0]!.latestId());) {
          const page = await logs[0]!.after(from, { limit: 7 });
          seen.push(...page.events);
          from = page.next;
        }
      })();
      await Promise.all(
        logs.map(async (log, n) => {
          for (let batch = 0; batch < 10; batch++)
            await log.append(
              Array.from({ length: 10 }, (_, i) => event(`appender-${n}:${batch}:${i}`, [], undefined, n * 1000 + batch * 10 + i)),
            );
        }),
      );
      appending = false;
      await reader;
      expect(seen.map((e) => Number(e.id))).to.deep.equal(Array.from({ length: 300 }, (_, i) => i + 1));
      expect(
        seen.every((e) => !("key" in e) && !("logIndex" in e)),
        "no field of the store's",
      ).to.equal(true);
      // each appender's events in the order it appended them
      const orders = seen.map((e) => (e.data as { inFlightUntil: number }).inFlightUntil);
      for (let n = 0; n < 3; n++) {
        const own = orders.filter((o) => Math.floor(o / 1000) === n);
        expect(own).to.deep.equal(Array.from({ length: 100 }, (_, i) => n * 1000 + i));
      }
    });

    it("does not append an event whose key it holds: it answers the stored one", async () => {
      const [a, b] = await Promise.all(opened.peers.slice(0, 2).map((store) => EventLog.open(store)));
      const [first] = await a!.append([event("same-key", ["transaction:" + "ab".repeat(32)])]);
      const [again, other] = await b!.append([event("same-key"), event("other-key")]);
      expect(again).to.deep.equal(first);
      expect(other!.id).to.equal("2");
      expect(await a!.latestId()).to.equal("2");
    });

    it("reads by subjects (any of them) and types, at most `limit`, and looks through at most its window of ids", async () => {
      const log = await EventLog.open(opened.peers[0]!, { scanWindow: 20 });
      const tx = (n: number) => `transaction:${n.toString(16).padStart(64, "0")}`;
      await log.append(
        Array.from({ length: 50 }, (_, i) => event(`k${i}`, [tx(i % 5)], i % 2 === 0 ? "transaction.submitted" : "extension.rebuilt")),
      );
      const page = await log.after("0", { subjects: [tx(1), tx(2)], limit: 100 });
      // ids 1..20 looked at: subjects 1 and 2 are events 2, 3, 7, 8, 12, 13, 17, 18
      expect(page.events.map((e) => e.id)).to.deep.equal(["2", "3", "7", "8", "12", "13", "17", "18"]);
      expect(page.next).to.equal("20");
      const typed = await log.after("20", { subjects: [tx(1), tx(2)], types: ["extension.rebuilt"], limit: 2 });
      expect(typed.events.map((e) => e.id)).to.deep.equal(["22", "28"]);
      expect(typed.next, "a full page: read on after its last event").to.equal("28");
      const end = await log.after("40", { limit: 100 });
      expect(end.next).to.equal("50");
      expect(await log.after("50", { limit: 100 })).to.deep.equal({ events: [], next: "50" });
    });

    it("prunes the events stored before a cutoff as a prefix of ids, never the newest; one stored before retention existed goes by its timestamp", async () => {
      let clock = 1_000;
      const log = await EventLog.open(opened.peers[0]!, { now: () => clock });
      await log.append([event("a"), event("b")]);
      clock = 5_000;
      await log.append([event("c")]);
      clock = 2_000; // a replica whose clock is behind: stored "earlier", after c
      await log.append([event("d")]);
      clock = 6_000;
      await log.append([event("e")]);
      expect(await log.prune(3_000), "a and b; c stops it, d stays").to.equal(2);
      expect(await log.oldestId()).to.equal("3");
      expect(await log.expiredBefore(2)).to.equal("3");
      expect(await log.expiredBefore(3)).to.equal(undefined);
      expect((await log.after("0", { limit: 10 })).events.map((e) => e.id)).to.deep.equal(["3", "4", "5"]);
      expect(await log.prune(10_000), "c and d; e is the newest").to.equal(2);
      expect(await log.oldestId()).to.equal("5");
      // another appender goes on from the newest; an event stored before retention existed has no storedAt
      const other = await EventLog.open(opened.peers[1]!, { now: () => clock });
      expect((await other.append([event("f")])).map((e) => e.id)).to.deep.equal(["6"]);
      const legacy = { _id: "7".padStart(16, "0"), ...event("g"), timestamp: new Date(0).toISOString(), subjects: [] };
      await opened.peers[2]!.collection("events_log").insertOne(legacy as unknown as { _id: string });
      clock = 7_000;
      expect((await log.append([event("h")])).map((e) => e.id)).to.deep.equal(["8"]);
      expect(await log.prune(6_500), "e, f (6,000) and g (its timestamp: 1970)").to.equal(3);
      expect((await log.after("0", { limit: 10 })).events.map((e) => e.id)).to.deep.equal(["8"]);
    });

    it("finds the receipt.checkpointed events of a checkpoint by the log indices of their first positions", async () => {
      const log = await EventLog.open(opened.peers[0]!);
      const checkpointed = (request: string, from: number, to: number, firstIndex: number, size: number): NewEvent => ({
        key: `receipt.checkpointed:${request}:${from}`,
        type: "receipt.checkpointed",
        timestamp: new Date(0).toISOString(),
        block: null,
        subjects: [`request:${request}`],
        data: { requestId: request, positions: { from, to }, firstIndex, checkpointSize: size, checkpointRoot: "00".repeat(32) },
      });
      const r = (n: number) => String(n).repeat(24);
      await log.append([checkpointed(r(1), 0, 3, 0, 5), checkpointed(r(2), 0, 2, 3, 5), checkpointed(r(3), 0, 4, 5, 9), event("x")]);
      expect((await log.checkpointedBetween(0, 5, 10)).map((e) => e.data.requestId)).to.deep.equal([r(1), r(2)]);
      expect((await log.checkpointedBetween(5, 9, 10)).map((e) => e.data.requestId)).to.deep.equal([r(3)]);
      expect((await log.checkpointedBetween(0, 9, 1)).map((e) => e.data.requestId)).to.deep.equal([r(1)]);
    });
  });
