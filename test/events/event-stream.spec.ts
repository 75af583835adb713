/**
 * The gateway's Server-Sent Events streams (shared/gateway/event-stream.ts) over real HTTP, against an event log in
 * memory standing in for the events service: a reader that stops reading costs a bounded number of reads (the stream
 * waits for its socket to drain) and, once it reads again, gets every event once, in order; live streams share one
 * read per new event; a comment line keeps an idle stream open; an events service that cannot answer is a 503 before
 * any event.
 */
import { expect } from "chai";
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EventStreams } from "../../shared/gateway/event-stream";
import type { PublicEvent } from "../../shared/events/event-types";
import { pollUntil } from "../../fixtures/mesh/helpers";

/** `events.after` over an array, as the events service answers it (without its scan window). */
class MemoryLog {
  readonly events: PublicEvent[] = [];
  reads = 0;
  failing = false;

  add(n: number, subjects: (i: number) => string[] = () => []): void {
    for (let i = 0; i < n; i++) {
      const id = String(this.events.length + 1);
      this.events.push({
        id,
        type: "transaction.submitted",
        timestamp: new Date(0).toISOString(),
        block: null,
        subjects: subjects(this.events.length),
        // about 1 KB each: the socket fills after some hundreds
        data: { transactionHash: "ab".repeat(32), inFlightUntil: null, padding: "x".repeat(1000) } as never,
      });
    }
  }

  readonly broker = {
    logger: { warn: () => undefined },
    call: async (action: string, params: Record<string, unknown>) => {
      expect(action).to.equal("events.after");
      this.reads += 1;
      if (this.failing) throw Object.assign(new Error("no events service"), { type: "SERVICE_NOT_FOUND", data: { action } });
      const latest = this.events.length;
      const from = params["after"] === undefined ? latest : Number(params["after"]);
      const subjects = params["subjects"] as string[];
      const matching = this.events
        .slice(from)
        .filter((e) => subjects.length === 0 || e.subjects.some((s) => subjects.includes(s)))
        .slice(0, params["limit"] as number);
      const full = matching.length === params["limit"];
      return { events: matching, next: full ? matching[matching.length - 1]!.id : String(Math.max(from, latest)) };
    },
  };
}

/** A client of the stream that reads only while `reading` (a slow consumer otherwise). */
function openStream(url: string): Promise<{ res: IncomingMessage; ids: () => number[]; comments: () => number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let buffer = "";
      const ids: number[] = [];
      let comments = 0;
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(frame)?.[1];
          if (id !== undefined) ids.push(Number(id));
          else if (frame.startsWith(":")) comments += 1;
        }
      });
      resolve({ res, ids: () => ids, comments: () => comments });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("event streams: bounded memory per stream, one read for every live stream", function () {
  let log: MemoryLog;
  let streams: EventStreams;
  let server: Server;
  let base: string;
  const open: IncomingMessage[] = [];

  beforeEach(async () => {
    log = new MemoryLog();
    streams = new EventStreams({
      broker: log.broker as never,
      maxStreams: 100,
      maxStreamsPerClient: 100,
      trustProxy: 0,
      corsOrigins: "*",
      heartbeatMs: 50,
      pollMs: 60_000,
    });
    server = createServer((req, res) => {
      if (!streams.handle(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/events`;
  });
  afterEach(async () => {
    open.forEach((r) => r.destroy());
    open.length = 0;
    streams.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("stops reading for a client that does not read, then gets it every event once, in order, when it reads again", async () => {
    log.add(20_000);
    const client = await openStream(`${base}?after=0`);
    open.push(client.res);
    client.res.pause();
    // the socket buffers fill up: the stream stops reading the log well before its end
    await new Promise((r) => setTimeout(r, 300));
    const whilePaused = log.reads;
    await new Promise((r) => setTimeout(r, 300));
    expect(log.reads, "no reads while the client does not read").to.equal(whilePaused);
    expect(whilePaused * 100, "events read while paused: bounded by the socket's buffers").to.be.below(20_000);
    client.res.resume();
    await pollUntil(async () => (client.ids().length === 20_000 ? true : undefined), "every event", 30_000);
    expect(client.ids()).to.deep.equal(Array.from({ length: 20_000 }, (_, i) => i + 1));
  });

  it("feeds every live stream from one read per new event, each by its filter", async () => {
    log.add(10, (i) => [`transaction:${String(i % 2).repeat(64)}`]);
    const all = await Promise.all(Array.from({ length: 20 }, () => openStream(`${base}`)));
    const filtered = await openStream(`${base}?subject=transaction:${"1".repeat(64)}`);
    open.push(...all.map((c) => c.res), filtered.res);
    await pollUntil(async () => (streams.open === 21 ? true : undefined), "21 streams");
    await new Promise((r) => setTimeout(r, 50));
    const before = log.reads;
    log.add(6, (i) => [`transaction:${String(i % 2).repeat(64)}`]);
    streams.notify("16");
    await pollUntil(
      async () => (all.every((c) => c.ids().length === 6) && filtered.ids().length === 3 ? true : undefined),
      "the new events",
    );
    expect(all[0]!.ids()).to.deep.equal([11, 12, 13, 14, 15, 16]);
    expect(filtered.ids()).to.deep.equal([12, 14, 16]);
    expect(log.reads - before, "one read for every stream, and one that finds nothing more").to.be.at.most(2);
  });

  it("writes a comment line when there is nothing to send", async () => {
    const client = await openStream(base);
    open.push(client.res);
    expect(client.res.headers["content-type"]).to.equal("text/event-stream; charset=utf-8");
    expect(client.res.headers["access-control-allow-origin"]).to.equal("*");
    await pollUntil(async () => (client.comments() >= 2 ? true : undefined), "two heartbeats");
  });

  it("answers 503 JSON when the events service cannot answer, before any event", async () => {
    log.failing = true;
    const res = await fetch(base);
    expect(res.status).to.equal(503);
    expect(res.headers.get("retry-after")).to.equal("5");
    expect(await res.json()).to.include({ error: "SERVICE_UNAVAILABLE" });
    expect(streams.open).to.equal(0);
  });
});
