/**
 * What the webhook tests share: an in-memory event log behind the engine's EventSource port, a real HTTP receiver on
 * 127.0.0.1 whose answers a test scripts, and a settable clock.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { EventFilterHint, EventSource, LogEvent } from "../../shared/webhooks";

export class MemoryEventLog implements EventSource {
  readonly events: LogEvent[] = [];
  /** How many `after` calls were made (to see paging). */
  reads = 0;

  /** Appends an event with the next id. */
  append(subjects: readonly string[], type = "certificate.anchored", data: Record<string, unknown> = {}): LogEvent {
    const id = String(this.events.length + 1);
    const event: LogEvent = {
      id,
      type,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, this.events.length)).toISOString(),
      block: { slot: 1000 + this.events.length, id: "ab".repeat(32), height: 10 + this.events.length },
      subjects,
      data: { n: this.events.length + 1, ...data },
    };
    this.events.push(event);
    return event;
  }

  async after(cursor: string | undefined, limit: number, hint?: EventFilterHint): Promise<readonly LogEvent[]> {
    this.reads += 1;
    const start = cursor === undefined ? 0 : Number(cursor);
    const out: LogEvent[] = [];
    for (const e of this.events.slice(start)) {
      if (out.length >= limit) break;
      if (hint?.subjects && !e.subjects.some((s) => hint.subjects!.includes(s))) continue;
      if (hint?.types && !hint.types.includes(e.type)) continue;
      out.push(e);
    }
    return out;
  }

  async latest(): Promise<string | undefined> {
    return this.events[this.events.length - 1]?.id;
  }
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered. */
  status: number;
}

/** How the receiver answers one request: a status, or a handler of its own (which must end the response). */
export type Answer = number | ((res: ServerResponse, req: Received) => void);

export class Receiver {
  readonly received: Received[] = [];
  /** Answers by request, in order; once used up, `fallback`. */
  script: Answer[] = [];
  fallback: Answer = 200;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on("request", (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const answer = receiver.script.shift() ?? receiver.fallback;
        const received: Received = {
          path: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          status: typeof answer === "number" ? answer : 0,
        };
        receiver.received.push(received);
        if (typeof answer === "number") res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "no");
        else answer(res, received);
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = "/hook"): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The requests answered with a 2xx. */
  accepted(): Received[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A clock a test moves by hand (Unix ms). */
export class TestClock {
  constructor(public now = Date.UTC(2026, 5, 1)) {}
  readonly read = (): number => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}
