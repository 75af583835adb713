/**
 * `GET /api/v1/events` as Server-Sent Events (docs/events.md#server-sent-events), answered before the router since
 * moleculer-web does not stream: per event `id:` (its id), `event:` (its type) and `data:` (the event as JSON); a
 * comment line every `heartbeatMs`; `Last-Event-ID` (or `?after=`) resumes after an id, nothing starts at the latest.
 *
 * Two ways a stream is fed, so a thousand streams cost one read per new event and a slow one costs bounded memory:
 * - catching up: the stream reads for itself (`events.after` with its filter) from its cursor, a page at a time,
 *   writing the next page only once the socket has drained;
 * - live: once its cursor reaches the gateway's `head`, the gateway's one unfiltered read (on `events.appended`,
 *   and every `pollMs`) is written to every live stream whose filter matches. A live stream whose socket is full
 *   leaves the live set at that event and catches up on its own once the socket drains.
 * So a stream holds at most one page of events beyond its socket's buffer. Streams are bounded per client and per
 * gateway replica (429 `TOO_MANY_STREAMS`); a bad filter is 400 `INVALID_EVENT_FILTER`, a missing events service 503,
 * all before any event is sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceBroker } from "moleculer";
import type { AppConfig } from "../config/config";
import { CoalescedRun } from "../domain/coalesced-run";
import { parseEventFilter, type EventFilter } from "../events/event-checks";
import type { PublicEvent } from "../events/event-types";
import { toHttpErrorReply } from "./error-mapping";
import { InvalidEventFilterError, TooManyStreamsError } from "./errors";
import { API_PREFIX } from "./openapi";
import { clientKey, type ReadRateLimit } from "./rate-limiter";

const PATHS = new Set([`${API_PREFIX}/events`, `${API_PREFIX}/events/`]);
const QUERY_NAMES = new Set(["subject", "type", "after", "lastEventId"]);
/** Events per read: the most a stream holds beyond its socket's buffer. */
const PAGE = 100;
/** How long a browser waits before it reconnects (the SSE `retry:` field). */
const RECONNECT_MS = 3_000;

export interface EventStreamOptions {
  broker: Pick<ServiceBroker, "call" | "logger">;
  maxStreams: number;
  maxStreamsPerClient: number;
  trustProxy: number;
  corsOrigins: AppConfig["corsOrigins"];
  /** the read budget a stream's request counts against (RATE_LIMIT_READ_PER_MINUTE) */
  readLimit?: ReadRateLimit;
  heartbeatMs?: number;
  /** the live read's safety net, for lost `events.appended` notifications */
  pollMs?: number;
}

interface Page {
  events: PublicEvent[];
  next: string;
}

interface Stream {
  res: ServerResponse;
  client: string;
  filter: EventFilter;
  subjects: ReadonlySet<string>;
  types: ReadonlySet<string>;
  /** every event up to this id was written or did not match */
  cursor: number;
  live: boolean;
  /** reading for itself (catching up) */
  reading: boolean;
  /** the socket's buffer is full: nothing is written until it drains */
  full: boolean;
  closed: boolean;
}

export class EventStreams {
  private readonly streams = new Set<Stream>();
  private readonly perClient = new Map<string, number>();
  /** streams whose first read is running */
  private opening = 0;
  /** every live stream has every event up to this id; undefined while none is live */
  private head: number | undefined;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly opts: EventStreamOptions) {}

  /** How many streams are open. */
  get open(): number {
    return this.streams.size;
  }

  /** The request handler: true when it answered the request (a GET or HEAD of the events path). */
  readonly handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = new URL(req.url ?? "/", "http://gateway");
    if (!PATHS.has(url.pathname)) return false;
    this.start(req, res, url).catch((err: unknown) => this.refuse(req, res, err));
    return true;
  };

  /** The events service appended events up to `lastId`: the live streams read them. */
  notify(lastId: string): void {
    if (this.head !== undefined && Number(lastId) > this.head) void this.liveReads.start();
  }

  /** Ends every stream (the gateway stops); their browsers reconnect to another replica. */
  close(): void {
    for (const s of this.streams) this.end(s);
    this.timers.forEach(clearInterval);
    this.timers = [];
  }

  private async start(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const unknown = [...url.searchParams.keys()].find((k) => !QUERY_NAMES.has(k));
    if (unknown !== undefined)
      throw new InvalidEventFilterError(`unknown parameter ${JSON.stringify(unknown.slice(0, 40))} (subject, type, after)`);
    const header = req.headers["last-event-id"];
    const parsed = parseEventFilter({
      subject: url.searchParams.getAll("subject"),
      type: url.searchParams.getAll("type"),
      after: url.searchParams.getAll("after"),
      lastEventId: (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get("lastEventId") ?? undefined,
    });
    if (!parsed.ok) throw new InvalidEventFilterError(parsed.problem);
    const overBudget = this.opts.readLimit?.check(req, res);
    if (overBudget) throw overBudget;
    if (req.method === "HEAD") return void this.writeHead(req, res, true);
    const client = clientKey(req, this.opts.trustProxy);
    if ((this.perClient.get(client) ?? 0) >= this.opts.maxStreamsPerClient)
      throw new TooManyStreamsError("client", this.opts.maxStreamsPerClient);
    if (this.streams.size + this.opening >= this.opts.maxStreams) throw new TooManyStreamsError("gateway", this.opts.maxStreams);
    // its place is taken now: streams opening at the same moment count against the limits too
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    this.opening += 1;
    const filter = parsed.filter;
    let first: Page;
    try {
      // the first read before the answer's head: a missing events service is a 503, not an empty stream
      first = await this.read(filter, filter.after);
    } catch (err) {
      this.release(client);
      throw err;
    } finally {
      this.opening -= 1;
    }
    const stream: Stream = {
      res,
      client,
      filter,
      subjects: new Set(filter.subjects),
      types: new Set(filter.types),
      cursor: Number(filter.after ?? first.next),
      live: false,
      reading: false,
      full: false,
      closed: false,
    };
    this.streams.add(stream);
    // gone while the first read ran: its place is given back
    if (res.destroyed) return this.forget(stream);
    res.on("close", () => this.forget(stream));
    res.on("drain", () => {
      stream.full = false;
      void this.catchUp(stream);
    });
    this.writeHead(req, res, false);
    res.write(`retry: ${RECONNECT_MS}\n\n`);
    this.startTimers();
    // no resume id: from the latest on, whatever that first read looked at
    if (filter.after === undefined) stream.cursor = Number(first.next);
    else this.writePage(stream, first);
    void this.catchUp(stream);
  }

  /**
   * Reads for one stream until it reaches the gateway's head, then joins the live set; with no live stream, until it
   * reaches the log's end, which becomes the head.
   */
  private async catchUp(stream: Stream): Promise<void> {
    if (stream.reading || stream.live || stream.full || stream.closed) return;
    stream.reading = true;
    try {
      for (;;) {
        if (this.head !== undefined && this.liveCount() > 0 && stream.cursor >= this.head) return void (stream.live = true);
        const from = stream.cursor;
        const page = await this.read(stream.filter, String(from));
        if (stream.closed) return;
        this.writePage(stream, page);
        if (stream.full) return;
        if (Number(page.next) === from && this.liveCount() === 0) {
          // nothing more in the log: the first live stream sets the head
          this.head = from;
          return void (stream.live = true);
        }
      }
    } catch (err) {
      // the browser reconnects, resuming after the last id it received
      this.opts.broker.logger.warn("events: a stream could not read the events service; ending it", {
        error: err instanceof Error ? err.message : String(err),
      });
      this.end(stream);
    } finally {
      stream.reading = false;
    }
  }

  /** The gateway's one read for every live stream. */
  private readonly liveReads = new CoalescedRun<void>(async (rounds) => {
    await rounds(async () => {
      for (;;) {
        if (this.head === undefined || this.liveCount() === 0) return;
        const from = this.head;
        const page = await this.read({ subjects: [], types: [] }, String(from)).catch((err: unknown) => {
          this.opts.broker.logger.warn("events: the live read failed; the next one tries again", {
            error: err instanceof Error ? err.message : String(err),
          });
          return undefined;
        });
        if (page === undefined || Number(page.next) <= from) return;
        for (const s of this.streams) if (s.live) this.writePage(s, page);
        this.head = Number(page.next);
      }
    });
  });

  /**
   * Writes what of `page` the stream has not seen and its filter matches; a full socket stops it at that event (it
   * leaves the live set and catches up once drained).
   */
  private writePage(stream: Stream, page: Page): void {
    for (const e of page.events) {
      const id = Number(e.id);
      if (id <= stream.cursor || !this.matches(stream, e)) continue;
      stream.cursor = id;
      if (!stream.res.write(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)) return full(stream);
    }
    stream.cursor = Math.max(stream.cursor, Number(page.next));
  }

  private matches(stream: Stream, e: PublicEvent): boolean {
    return (
      (stream.types.size === 0 || stream.types.has(e.type)) &&
      (stream.subjects.size === 0 || e.subjects.some((s) => stream.subjects.has(s)))
    );
  }

  private read(filter: EventFilter, after: string | undefined): Promise<Page> {
    return this.opts.broker.call<Page, Record<string, unknown>>("events.after", {
      ...(after !== undefined ? { after } : {}),
      subjects: filter.subjects,
      types: filter.types,
      limit: PAGE,
    });
  }

  private liveCount(): number {
    let n = 0;
    for (const s of this.streams) if (s.live) n++;
    return n;
  }

  private startTimers(): void {
    if (this.timers.length > 0) return;
    const heartbeat = setInterval(() => {
      for (const s of this.streams) if (!s.full && !s.res.write(": keep-alive\n\n")) full(s);
    }, this.opts.heartbeatMs ?? 15_000);
    const poll = setInterval(() => void this.liveReads.start(), this.opts.pollMs ?? 5_000);
    for (const t of [heartbeat, poll]) t.unref();
    this.timers = [heartbeat, poll];
  }

  private forget(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    stream.live = false;
    this.streams.delete(stream);
    this.release(stream.client);
    if (this.streams.size === 0) {
      this.timers.forEach(clearInterval);
      this.timers = [];
      this.head = undefined;
    }
  }

  /** Gives a client's place back. */
  private release(client: string): void {
    const left = (this.perClient.get(client) ?? 1) - 1;
    if (left > 0) this.perClient.set(client, left);
    else this.perClient.delete(client);
  }

  private end(stream: Stream): void {
    this.forget(stream);
    stream.res.end();
  }

  private writeHead(req: IncomingMessage, res: ServerResponse, headOnly: boolean): void {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // proxies (nginx) pass each event on at once instead of buffering the answer
      "X-Accel-Buffering": "no",
      "X-Content-Type-Options": "nosniff",
      ...this.corsHeaders(req),
    });
    if (headOnly) res.end();
  }

  private corsHeaders(req: IncomingMessage): Record<string, string> {
    const origins = this.opts.corsOrigins;
    const origin = req.headers.origin;
    if (origins === null) return {};
    if (origins === "*") return { "Access-Control-Allow-Origin": "*" };
    if (origin === undefined || !origins.some((o) => wildcard(o).test(origin))) return {};
    return { "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true", Vary: "Origin" };
  }

  private refuse(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    if (res.headersSent) return void res.end();
    const reply = toHttpErrorReply(err);
    const body = Buffer.from(JSON.stringify(reply.body));
    res.writeHead(reply.status, {
      ...reply.headers,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": body.length,
      "Cache-Control": "no-store",
      ...this.corsHeaders(req),
    });
    res.end(req.method === "HEAD" ? undefined : body);
  }
}

/** The stream's socket buffer is full: it leaves the live set until it drains (then it catches up on its own). */
function full(stream: Stream): void {
  stream.full = true;
  stream.live = false;
}

/** A CORS_ORIGINS entry as a pattern: `*` any run of characters (as moleculer-web reads it). */
const wildcard = (entry: string): RegExp => new RegExp(`^${entry.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
