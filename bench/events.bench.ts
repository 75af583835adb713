/**
 * The public event log's two ways out (docs/events.md, docs/webhooks.md) on the embedded mesh and devnet, in one
 * process with the load generators (gateway, indexer, verifier, tx-builder, submitter and events services, the store
 * in memory, EVENTS_FINALITY_DEPTH 1 so that a block's events are those of its own transactions), every block made
 * by the bench (`produceBlock`, its time taken when the call returns: nothing downstream has seen it before then)
 * with a certificate transaction built, signed and submitted through the HTTP API before it:
 *
 * 1. Server-Sent Events. STREAMS (1,000) `GET /api/v1/events?subject=address:<alice>` streams over keep-alive
 *    node:http connections (frames parsed here; only the block height of each event is read, so the clients cost
 *    little of the CPU they share with the server), plus one stream following bob's address.
 *    - memory: this process's heap after a full collection (gc exposed at run time through v8 flags when node runs
 *      without --expose-gc) and RSS, before and after opening the streams: bytes per stream, client side included;
 *      against a bare node:http server holding as many idle `text/event-stream` answers to the same clients, measured
 *      the same way right after (the mesh's streams still open). The ratio is on the heap: RSS moves by whatever
 *      pages the allocators kept from earlier work (tens of KB per stream either way between runs);
 *    - latency: SSE_BLOCKS blocks, in turn a certificate of alice's (every one of the STREAMS gets its events), one
 *      of bob's (only the lone stream does) and an empty block (no event): per block and stream, from the block to
 *      the stream's first event of it, p50/p99 over all streams and blocks. The floor, in the empty blocks: the
 *      indexer's own `chain.block` notification (a service in the mesh stamps it; every event comes after it), on
 *      which the bare server above writes the frames of alice's last block, as the gateway wrote them, to its
 *      STREAMS streams (the same clients, still open): the least the same fan-out costs in this process. The lone
 *      stream in bob's blocks (the same path without the fan-out) and `chain.block` itself are figures.
 * 2. Webhooks. The events service's own engine (its dispatcher and deliverer, as it runs them): ENDPOINTS (1,000)
 *    endpoints registered through its routes as a user registers them (WEBHOOKS_ALLOW_PRIVATE_NETWORKS on for the
 *    receiver on 127.0.0.1, WEBHOOKS_REGISTRATIONS_PER_HOUR off), every one on alice's address and every type — so
 *    each event of a block goes to all of them, the fan-out the issue asks about: `POST /api/v1/webhooks/challenge`
 *    for the endpoint's URL, the challenge signed by alice's wallet (CIP-30 signData), `POST /api/v1/webhooks` with
 *    the proof. The service delivers to a node:http receiver on 127.0.0.1 that answers 200 at once.
 *    - latency: WEBHOOK_BLOCKS blocks of one certificate (2 events, 2,000 deliveries), each waited for: per delivery,
 *      from the block to the receiver getting it, p50/p99; against block → event on the STREAMS streams of part 1
 *      (the same fan-out by the other way out of the same log: the floor). One SSE stream on alice's address stays
 *      open through these blocks, as a figure: what the engine's work does to the streams in the same process;
 *    - throughput: BURST_BLOCKS blocks of BURST_CERTIFICATES certificates each, one after the other as fast as the
 *      builds go (not waiting for the deliveries): deliveries ÷ time from the first block to the last delivery;
 *      against as many signed POSTs of the same bodies sent straight to the receiver by node:http, CONCURRENCY (16)
 *      at a time (the deliverer's, WEBHOOKS_CONCURRENCY) and a fresh connection each (as the sender opens them), run
 *      before and after (their mean), and, as a figure, the engine's sender alone at the same concurrency.
 *
 * The latency ratios divide p50s (a p99 over 50–100 blocks of a 3–15 ms floor is one GC pause or burst of other
 * work); every p99 is in the figures. Also given: CPU per block and per delivery, the event loop's delay in each
 * phase, and the block → delivery latency of the burst.
 *
 *   npm run bench events                        about 1 minute
 *   EVENTS_BENCH_STREAMS, EVENTS_BENCH_ENDPOINTS, EVENTS_BENCH_SSE_BLOCKS, EVENTS_BENCH_WEBHOOK_BLOCKS,
 *   EVENTS_BENCH_BURST_BLOCKS, EVENTS_BENCH_BURST_CERTIFICATES change the sizes
 *
 * The SSE part holds about 4 × STREAMS sockets at once (both ends of the mesh's and of the bare server's streams):
 * the open-files limit must allow it.
 */
import { randomBytes } from "node:crypto";
import { Agent, createServer, request, type ClientRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Context } from "moleculer";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../fixtures/issuance/issuance-world";
import { enterpriseAddressOfKeyHash } from "../shared/csl/address";
import { postJson } from "../fixtures/mesh/helpers";
import type { PublicEvent } from "../shared/events/event-types";
import {
  createHttpSender,
  generateSecret,
  messageBody,
  messageIdOf,
  signedHeaders,
  USER_AGENT,
  webhookSettings,
  type LogEvent,
  type WebhookSender,
} from "../shared/webhooks";
import { generateMnemonic, type Wallet } from "../shared/wallet";
import { envNumber, round2, thousands } from "./figures";
import { percentile } from "./percentile";
import type { Ratio } from "./run";

const STREAMS = envNumber("EVENTS_BENCH_STREAMS", 1_000);
const ENDPOINTS = envNumber("EVENTS_BENCH_ENDPOINTS", 1_000);
/** Blocks of the SSE latency phase, alternating between the STREAMS and the lone stream. */
const SSE_BLOCKS = envNumber("EVENTS_BENCH_SSE_BLOCKS", 160);
const WEBHOOK_BLOCKS = envNumber("EVENTS_BENCH_WEBHOOK_BLOCKS", 6);
const BURST_BLOCKS = envNumber("EVENTS_BENCH_BURST_BLOCKS", 2);
const BURST_CERTIFICATES = envNumber("EVENTS_BENCH_BURST_CERTIFICATES", 2);
/** The service's deliverer's attempts in flight (WEBHOOKS_CONCURRENCY, its default), and the ceiling's POSTs at once. */
const CONCURRENCY = 16;
/** Registrations in flight at once. */
const REGISTER_CONCURRENCY = 8;
/** Streams being opened at once. */
const OPEN_CONCURRENCY = 50;
/** How long a block's events or deliveries may take before the run fails. */
const BLOCK_TIMEOUT_MS = 120_000;
/** How long the burst's deliveries may take. */
const BURST_TIMEOUT_MS = 900_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const perSecond = (n: number, ms: number) => Math.round((n / Math.max(ms, 1)) * 1000);
const started = performance.now();
const say = (what: string) => process.stderr.write(`events: ${((performance.now() - started) / 1000).toFixed(1)} s ${what}\n`);

/** The event loop's delay while `work` runs, ms: p99 and max. */
async function loopDelay<T>(work: () => Promise<T>): Promise<{ result: T; delayMs: { p99: number; max: number } }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  try {
    const result = await work();
    return { result, delayMs: { p99: round2(h.percentile(99) / 1e6), max: round2(h.max / 1e6) } };
  } finally {
    h.disable();
  }
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function waitFor(done: () => boolean, what: string, timeoutMs = BLOCK_TIMEOUT_MS): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > until) throw new Error(`events bench: timed out waiting for ${what}`);
    await sleep(2);
  }
}

// ---- memory -----------------------------------------------------------------------------------------------------

/** A full collection: node's own gc under --expose-gc, else one exposed at run time; undefined when neither works. */
function exposeGc(): (() => void) | undefined {
  const own = (globalThis as { gc?: () => void }).gc;
  if (typeof own === "function") return own;
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

interface Memory {
  rss: number;
  heap: number;
}

async function settledMemory(gc: (() => void) | undefined): Promise<Memory> {
  await sleep(300);
  gc?.();
  await new Promise((r) => setImmediate(r));
  gc?.();
  return { rss: process.memoryUsage().rss, heap: getHeapStatistics().used_heap_size };
}

// ---- Server-Sent Events clients -----------------------------------------------------------------------------------

const BLOCK_HEIGHT = /"block":\{[^}]*"height":(\d+)/;

/** A Server-Sent Events client over node:http noting when each block's first event arrives (frames parsed here). */
class SseClient {
  /** block height → when the stream's first event of it arrived (performance.now()) */
  readonly firstOfBlock = new Map<number, number>();
  events = 0;
  private buffer = "";

  private constructor(
    private readonly req: ClientRequest,
    res: IncomingMessage,
    private readonly onFirst: (height: number) => void,
  ) {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => this.take(chunk, performance.now()));
    res.on("error", () => undefined);
  }

  static open(url: string, agent: Agent, onFirst: (height: number) => void = () => undefined): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, { agent, headers: { Accept: "text/event-stream" } }, (res) => {
        if (res.statusCode === 200) return resolve(new SseClient(req, res, onFirst));
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => reject(new Error(`GET ${url}: ${res.statusCode} ${text.slice(0, 300)}`)));
      });
      req.on("error", reject);
      req.end();
    });
  }

  private take(chunk: string, at: number): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = frame.indexOf("data: ");
      if (data < 0) continue; // retry: or a keep-alive comment
      this.events += 1;
      const height = BLOCK_HEIGHT.exec(frame.slice(data));
      if (height === null) continue; // an event of no block
      const h = Number(height[1]);
      if (this.firstOfBlock.has(h)) continue;
      this.firstOfBlock.set(h, at);
      this.onFirst(h);
    }
  }

  close(): void {
    this.req.destroy();
  }
}

/** Opens `n` streams, OPEN_CONCURRENCY at a time. */
async function openStreams(url: string, n: number, agent: Agent, onFirst?: (height: number) => void): Promise<SseClient[]> {
  const clients: SseClient[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(OPEN_CONCURRENCY, n) }, async () => {
      while (next < n) {
        next += 1;
        clients.push(await SseClient.open(url, agent, onFirst));
      }
    }),
  );
  return clients;
}

/**
 * The floors: a bare node:http server holding every request as an idle `text/event-stream` answer (memory), and
 * writing the same text to every one of them at once (`broadcast`: the least a fan-out to them costs).
 */
async function startBareSse(): Promise<{ url: string; broadcast(text: string): void; close(): Promise<void> }> {
  const held = new Set<ServerResponse>();
  const server = createServer((_req, res: ServerResponse) => {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
      "X-Content-Type-Options": "nosniff",
    });
    res.write("retry: 3000\n\n");
    held.add(res);
    res.on("close", () => held.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1/events`,
    broadcast: (text) => {
      for (const res of held) res.write(text);
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- webhooks ------------------------------------------------------------------------------------------------------

interface Receiver {
  url: string;
  /** event id → when each delivery of it arrived at `/hook/…` (performance.now()) */
  readonly arrivals: Map<string, number[]>;
  /** deliveries of the same event to the same endpoint seen again */
  duplicates: number;
  /** POSTs to any other path (the ceilings) */
  others: number;
  close(): Promise<void>;
}

/** The local receiver: answers 200 at once, noting the `webhook-id` and path of each delivery. */
async function startReceiver(): Promise<Receiver> {
  const seen = new Set<string>();
  const receiver = {
    url: "",
    arrivals: new Map<string, number[]>(),
    duplicates: 0,
    others: 0,
    close: async () => undefined,
  } as Receiver;
  const server = createServer((req, res) => {
    const at = performance.now();
    res.writeHead(200, { "Content-Length": "0" });
    res.end();
    req.resume();
    const url = req.url ?? "";
    if (!url.startsWith("/hook/")) return void (receiver.others += 1);
    const id = String(req.headers["webhook-id"] ?? "").replace(/^evt_/, "");
    const key = `${url} ${id}`;
    if (seen.has(key)) return void (receiver.duplicates += 1);
    seen.add(key);
    const list = receiver.arrivals.get(id);
    if (list) list.push(at);
    else receiver.arrivals.set(id, [at]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

interface Post {
  path: string;
  messageId: string;
  body: string;
}

/** The ceiling: signed POSTs straight to the receiver by node:http, `concurrency` at a time, a fresh connection each. */
async function plainPosts(base: URL, posts: readonly Post[], secret: string, concurrency: number): Promise<number> {
  let next = 0;
  const one = (p: Post) =>
    new Promise<void>((resolve, reject) => {
      const headers = signedHeaders([secret], p.messageId, Math.floor(Date.now() / 1000), p.body);
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          method: "POST",
          path: p.path,
          agent: false,
          headers: {
            ...headers,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(p.body)),
            "user-agent": USER_AGENT,
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            req.destroy();
            if (res.statusCode === 200) resolve();
            else reject(new Error(`ceiling POST: ${res.statusCode}`));
          });
        },
      );
      req.on("error", reject);
      req.end(p.body);
    });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < posts.length) await one(posts[next++]!);
    }),
  );
  return performance.now() - t0;
}

/** The engine's sender alone (URL checks, address pinning, bounded read), `concurrency` at a time. */
async function senderPosts(
  send: WebhookSender,
  base: string,
  posts: readonly Post[],
  secret: string,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < posts.length) {
        const p = posts[next++]!;
        const outcome = await send({
          url: `${base}${p.path}`,
          headers: { ...signedHeaders([secret], p.messageId, Math.floor(Date.now() / 1000), p.body) },
          body: p.body,
        });
        if (!outcome.ok) throw new Error(`sender: ${outcome.failure ?? ""} ${outcome.message ?? ""}`);
      }
    }),
  );
  return performance.now() - t0;
}

// ---- the bench ----------------------------------------------------------------------------------------------------

export default async function (): Promise<Record<string, unknown>> {
  const gc = exposeGc();
  const w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "events"], {
    EVENTS_FINALITY_DEPTH: "1",
    EVENTS_MAX_STREAMS: String(STREAMS + 10),
    EVENTS_MAX_STREAMS_PER_CLIENT: String(STREAMS + 10),
    // the address proofs' challenges are signed with the user actions' key
    USER_ACTION_SIGNING_MNEMONIC: generateMnemonic(),
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
    WEBHOOKS_REGISTRATIONS_PER_HOUR: "0",
    WEBHOOKS_MAX_ENDPOINTS: String(ENDPOINTS + 10),
    WEBHOOKS_CONCURRENCY: String(CONCURRENCY),
  });
  const devnet = w.f.chain.devnet;
  const broker = w.mesh.broker;
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const open: SseClient[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    await w.mintDefaultBootstrap();
    const { alice, bob } = w.f.actors;
    await w.ensureCollateral(alice);
    await w.ensureCollateral(bob);
    const aliceSubject = `address:${enterpriseAddressOfKeyHash(alice.paymentKeyHash, 0)}`;
    const bobSubject = `address:${enterpriseAddressOfKeyHash(bob.paymentKeyHash, 0)}`;

    // A service of the mesh noting when the indexer announces each block (and starting the bare fan-out of the
    // floor's blocks).
    const chainBlockAt = new Map<number, number>();
    const hooks: { onChainBlock?: (height: number) => void } = {};
    // declared apart, as services/events.service.ts does: the event schema's type has no `bulkhead`, the broker reads it
    const onChainBlock = {
      bulkhead: { enabled: false },
      handler(ctx: Context<{ height?: number }>) {
        const h = ctx.params.height;
        if (typeof h !== "number" || chainBlockAt.has(h)) return;
        chainBlockAt.set(h, performance.now());
        hooks.onChainBlock?.(h);
      },
    };
    broker.createService({ name: "events-bench-probe", events: { "chain.block": onChainBlock } });
    await broker.waitForServices(["events-bench-probe"]);

    const latestId = async () => (await broker.call<{ next: string }, Record<string, unknown>>("events.after", {})).next;
    const eventsAfter = async (after: string): Promise<PublicEvent[]> => {
      const all: PublicEvent[] = [];
      for (let from = after; ;) {
        const page = await broker.call<{ events: PublicEvent[]; next: string }, Record<string, unknown>>("events.after", {
          after: from,
          limit: 500,
        });
        all.push(...page.events);
        if (page.next === from) return all;
        from = page.next;
      }
    };

    /** Builds, signs and submits a transaction of `count` certificates of `wallet` through the API. */
    const submitCertificates = async (wallet: Wallet, count: number): Promise<string> => {
      const res = await w.build({
        type: "default",
        address: wallet.address,
        certificates: Array.from({ length: count }, () => ({ hash: randomBytes(32).toString("hex"), metadata: {} })),
      });
      if (res.body.status.code !== "SUCCESS") throw new Error(`build failed: ${JSON.stringify(res.body.status)}`);
      return w.signAndSubmit(res.body.unsignedTransaction!, [wallet]);
    };
    /** The same, then waits until its `transaction.submitted` is in the log (so only the block's events follow). */
    const submitAndSettle = async (wallet: Wallet, count: number): Promise<string> => {
      const mark = await latestId();
      const txId = await submitCertificates(wallet, count);
      const until = performance.now() + BLOCK_TIMEOUT_MS;
      for (;;) {
        const events = await eventsAfter(mark);
        if (events.some((e) => e.type === "transaction.submitted" && e.subjects.includes(`transaction:${txId}`))) break;
        if (performance.now() > until) throw new Error(`events bench: ${txId}'s transaction.submitted never came`);
        await sleep(5);
      }
      await sleep(20); // the gateway's live read of it
      return txId;
    };
    const produceBlock = (): { height: number; at: number } => {
      const block = devnet.produceBlock();
      const at = performance.now();
      if (block === undefined) throw new Error("events bench: the mempool was empty");
      return { height: devnet.height, at };
    };
    /** Waits until the log has the block's events (its transaction's confirmation) and returns those naming `subject`. */
    const blockEvents = async (after: string, txIds: readonly string[], heights: readonly number[], subject: string) => {
      const confirmed = (events: PublicEvent[]) =>
        txIds.every((id) => events.some((e) => e.type === "transaction.confirmed" && e.subjects.includes(`transaction:${id}`)));
      let events = await eventsAfter(after);
      const until = performance.now() + BLOCK_TIMEOUT_MS;
      while (!confirmed(events)) {
        if (performance.now() > until) throw new Error("events bench: the block's events never came");
        await sleep(5);
        events = await eventsAfter(after);
      }
      return events.filter((e) => e.block !== null && heights.includes(e.block.height) && e.subjects.includes(subject));
    };

    // ---- 1. Server-Sent Events: memory ----
    const url = (subject: string) => `${w.mesh.api}/events?subject=${encodeURIComponent(subject)}`;
    say(`mesh ready; opening ${STREAMS} streams`);
    const lone = await SseClient.open(url(bobSubject), agent);
    open.push(lone);
    const firstArrivals = new Map<number, number>();
    const countFirst = (h: number) => firstArrivals.set(h, (firstArrivals.get(h) ?? 0) + 1);
    const meshBefore = await settledMemory(gc);
    const t0Open = performance.now();
    const many = await openStreams(url(aliceSubject), STREAMS, agent, countFirst);
    open.push(...many);
    const openMs = performance.now() - t0Open;
    const meshAfter = await settledMemory(gc);

    const bare = await startBareSse();
    cleanups.push(() => bare.close());
    const bareBefore = await settledMemory(gc);
    const bareArrivals = new Map<number, number>();
    const countBare = (h: number) => bareArrivals.set(h, (bareArrivals.get(h) ?? 0) + 1);
    const bareClients = await openStreams(bare.url, STREAMS, agent, countBare);
    open.push(...bareClients);
    const bareAfter = await settledMemory(gc);

    const perStream = (before: Memory, after: Memory) => ({
      heapBytes: Math.round((after.heap - before.heap) / STREAMS),
      rssBytes: Math.round((after.rss - before.rss) / STREAMS),
    });
    const meshPerStream = perStream(meshBefore, meshAfter);
    const barePerStream = perStream(bareBefore, bareAfter);

    say(`streams opened and memory measured; ${SSE_BLOCKS} blocks`);
    // ---- 1. Server-Sent Events: block → event ----
    const manyLatencies: number[] = [];
    const loneLatencies: number[] = [];
    const bareLatencies: number[] = [];
    const chainLatencies: number[] = [];
    const cpu = { many: 0, lone: 0, manyBlocks: 0, loneBlocks: 0, bareBlocks: 0 };
    /** The frames of alice's last block (as the gateway wrote them), which the bare server writes in the floor's blocks. */
    let frames: PublicEvent[] = [];
    const sseLoop = await loopDelay(async () => {
      for (let b = 0; b < SSE_BLOCKS; b++) {
        const kind = (["many", "lone", "bare"] as const)[b % 3]!;
        if (kind === "bare") {
          // an empty block: no event; at its chain.block the bare server writes alice's last block's frames to its streams
          hooks.onChainBlock = (height) =>
            bare.broadcast(
              frames
                .map((e) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify({ ...e, block: { ...e.block, height } })}\n\n`)
                .join(""),
            );
          devnet.produceEmptyBlocks(1);
          const at = performance.now();
          const height = devnet.height;
          await waitFor(() => bareArrivals.get(height) === STREAMS, `block ${height} on every bare stream`);
          hooks.onChainBlock = undefined;
          chainLatencies.push(chainBlockAt.get(height)! - at);
          for (const c of bareClients) bareLatencies.push(c.firstOfBlock.get(height)! - at);
          cpu.bareBlocks += 1;
          continue;
        }
        const mark = await latestId();
        await submitAndSettle(kind === "many" ? alice : bob, 1);
        const cpu0 = cpuMs();
        const { height, at } = produceBlock();
        if (kind === "many")
          await waitFor(() => firstArrivals.get(height) === STREAMS && chainBlockAt.has(height), `block ${height} on every stream`);
        else await waitFor(() => lone.firstOfBlock.has(height) && chainBlockAt.has(height), `block ${height} on the lone stream`);
        const spent = cpuMs() - cpu0;
        chainLatencies.push(chainBlockAt.get(height)! - at);
        if (kind === "many") {
          for (const c of many) manyLatencies.push(c.firstOfBlock.get(height)! - at);
          cpu.many += spent;
          cpu.manyBlocks += 1;
          frames = (await eventsAfter(mark)).filter((e) => e.block?.height === height && e.subjects.includes(aliceSubject));
        } else {
          loneLatencies.push(lone.firstOfBlock.get(height)! - at);
          cpu.lone += spent;
          cpu.loneBlocks += 1;
        }
      }
    });
    const strayLone = many.reduce((n, c) => n + [...c.firstOfBlock.keys()].filter((h) => lone.firstOfBlock.has(h)).length, 0);
    if (strayLone > 0) throw new Error(`events bench: ${strayLone} alice streams got events of bob's blocks`);
    const sse = {
      streams: STREAMS,
      openedInMs: Math.round(openMs),
      memoryMethod: gc ? "heap used after a full collection (gc exposed), RSS" : "v8.getHeapStatistics() deltas (no gc), RSS",
      perStream: meshPerStream,
      bareHttpPerStream: barePerStream,
      blocksToStreams: cpu.manyBlocks,
      blocksToLoneStream: cpu.loneBlocks,
      blocksToBareStreams: cpu.bareBlocks,
      blockToEventMs: { p50: percentile(manyLatencies, 50), p99: percentile(manyLatencies, 99), max: percentile(manyLatencies, 100) },
      loneBlockToEventMs: { p50: percentile(loneLatencies, 50), p99: percentile(loneLatencies, 99) },
      bareBlockToFrameMs: { p50: percentile(bareLatencies, 50), p99: percentile(bareLatencies, 99) },
      blockToChainBlockMs: { p50: percentile(chainLatencies, 50), p99: percentile(chainLatencies, 99) },
      cpuMsPerBlock: { streams: round2(cpu.many / cpu.manyBlocks), lone: round2(cpu.lone / cpu.loneBlocks) },
      eventLoopDelayMs: sseLoop.delayMs,
    };
    for (const c of open) c.close();
    open.length = 0;

    say(`SSE done; registering ${ENDPOINTS} endpoints`);
    // ---- 2. Webhooks ----
    const floor = await SseClient.open(url(aliceSubject), agent);
    open.push(floor);
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    // the sender alone (a figure) checks addresses as the service does with WEBHOOKS_ALLOW_PRIVATE_NETWORKS on
    const settings = webhookSettings({ allowPrivateNetworks: true, allowHttp: true, concurrency: CONCURRENCY });
    const send = createHttpSender({ policy: settings, timeoutMs: settings.requestTimeoutMs, maxResponseBytes: settings.maxResponseBytes });
    const t0Register = performance.now();
    let registered = 0;
    await Promise.all(
      Array.from({ length: REGISTER_CONCURRENCY }, async () => {
        while (registered < ENDPOINTS) {
          const i = registered++;
          const hookUrl = `${receiver.url}/hook/${i}`;
          const asked = await postJson(`${w.mesh.api}/webhooks/challenge`, { address: alice.address, url: hookUrl });
          if (asked.status !== 200)
            throw new Error(`events bench: POST /webhooks/challenge answered ${asked.status} ${asked.text.slice(0, 300)}`);
          const challenge = asked.json as { address: string; timestamp: number; message: string; signature: string };
          const signed = alice.signData(Buffer.from(challenge.message, "utf8").toString("hex"), alice.address);
          const proof = { ...challenge, userSignature: signed.signature, userPublicKey: signed.key };
          const res = await postJson(`${w.mesh.api}/webhooks`, { url: hookUrl, subjects: [aliceSubject], addressProofs: [proof] });
          if (res.status !== 201) throw new Error(`events bench: POST /webhooks answered ${res.status} ${res.text.slice(0, 300)}`);
        }
      }),
    );
    const registerMs = performance.now() - t0Register;

    const delivered = (events: readonly PublicEvent[]) => events.reduce((n, e) => n + (receiver.arrivals.get(e.id)?.length ?? 0), 0);
    /** Per delivery of `events`, ms from its block (`blockAt` by height). */
    const deliveryLatencies = (events: readonly PublicEvent[], blockAt: ReadonlyMap<number, number>) =>
      events.flatMap((e) => (receiver.arrivals.get(e.id) ?? []).map((t) => t - blockAt.get(e.block!.height)!));

    say(`endpoints registered; ${WEBHOOK_BLOCKS} blocks one at a time`);
    // latency: one block at a time
    const hookLatencies: number[] = [];
    const firstDelivery: number[] = [];
    const floorLatencies: number[] = [];
    const latencyEvents: PublicEvent[] = [];
    let drainMs = 0;
    const hookLoop = await loopDelay(async () => {
      for (let b = 0; b < WEBHOOK_BLOCKS; b++) {
        const txId = await submitAndSettle(alice, 1);
        const mark = await latestId();
        const { height, at } = produceBlock();
        const events = await blockEvents(mark, [txId], [height], aliceSubject);
        const expected = events.length * ENDPOINTS;
        await waitFor(() => delivered(events) >= expected && floor.firstOfBlock.has(height), `block ${height}'s ${expected} deliveries`);
        const latencies = deliveryLatencies(events, new Map([[height, at]]));
        hookLatencies.push(...latencies);
        firstDelivery.push(Math.min(...latencies));
        drainMs += Math.max(...latencies);
        floorLatencies.push(floor.firstOfBlock.get(height)! - at);
        latencyEvents.push(...events);
      }
    });

    say(`latency blocks done; the ceiling, then ${BURST_BLOCKS} blocks back to back`);
    // throughput: blocks back to back, then every delivery; the ceiling before and after, the sender alone between
    const secret = generateSecret();
    const burstSize = BURST_BLOCKS * (BURST_CERTIFICATES + 1) * ENDPOINTS;
    const ceilingPosts: Post[] = Array.from({ length: burstSize }, (_, i) => {
      const e = latencyEvents[i % latencyEvents.length]! as unknown as LogEvent;
      return { path: `/ceiling/${i % ENDPOINTS}`, messageId: messageIdOf(e.id), body: messageBody(e) };
    });
    const base = new URL(receiver.url);
    const cpu1 = cpuMs();
    const ceilingBeforeMs = await plainPosts(base, ceilingPosts, secret, settings.concurrency);
    const ceilingCpuMs = cpuMs() - cpu1;

    const burstMark = await latestId();
    const blockAt = new Map<number, number>();
    const burstTx: string[] = [];
    const cpu2 = cpuMs();
    for (let b = 0; b < BURST_BLOCKS; b++) {
      burstTx.push(await submitCertificates(alice, BURST_CERTIFICATES));
      const { height, at } = produceBlock();
      blockAt.set(height, at);
    }
    const firstBlockAt = Math.min(...blockAt.values());
    const burstEvents = await blockEvents(burstMark, burstTx, [...blockAt.keys()], aliceSubject);
    const burstExpected = burstEvents.length * ENDPOINTS;
    await waitFor(() => delivered(burstEvents) >= burstExpected, `the burst's ${burstExpected} deliveries`, BURST_TIMEOUT_MS);
    const burstCpuMs = cpuMs() - cpu2;
    const burstLatencies = deliveryLatencies(burstEvents, blockAt);
    const burstMs = Math.max(...burstEvents.flatMap((e) => receiver.arrivals.get(e.id)!)) - firstBlockAt;

    say(`burst delivered; the sender alone, the ceiling again`);
    const senderMs = await senderPosts(send, receiver.url, ceilingPosts, secret, settings.concurrency);
    const ceilingAfterMs = await plainPosts(base, ceilingPosts, secret, settings.concurrency);
    const ceilingRate = perSecond(burstSize * 2, ceilingBeforeMs + ceilingAfterMs);
    const burstRate = perSecond(burstExpected, burstMs);
    const deliveries = w.store.collection("webhook_deliveries");
    const pending = await deliveries.count({ status: { $ne: "delivered" } });
    /** Deliveries that took more than one attempt (the receiver answers 200 at once: none should). */
    const retried = await deliveries.count({ attempts: { $gt: 1 } });

    const webhooks = {
      endpoints: ENDPOINTS,
      subjects: "every endpoint on the issuer's address, every type",
      registeredPerSecond: perSecond(ENDPOINTS, registerMs),
      registeredThrough: "POST /api/v1/webhooks",
      latencyBlocks: WEBHOOK_BLOCKS,
      latencyDeliveries: hookLatencies.length,
      blockToDeliveryMs: { p50: percentile(hookLatencies, 50), p99: percentile(hookLatencies, 99) },
      blockToFirstDeliveryMs: { p50: percentile(firstDelivery, 50), p99: percentile(firstDelivery, 99) },
      blockToSseEventMs: { p50: percentile(floorLatencies, 50), p99: percentile(floorLatencies, 99) },
      deliveriesPerSecondOneBlockAtATime: perSecond(hookLatencies.length, drainMs),
      eventLoopDelayMs: hookLoop.delayMs,
      burst: {
        blocks: BURST_BLOCKS,
        certificatesPerBlock: BURST_CERTIFICATES,
        deliveries: burstExpected,
        ms: Math.round(burstMs),
        deliveriesPerSecond: burstRate,
        blockToDeliveryMs: { p50: percentile(burstLatencies, 50), p99: percentile(burstLatencies, 99) },
        cpuMsPer1000: round2((burstCpuMs / burstExpected) * 1000),
      },
      plainHttpPerSecond: { before: perSecond(burstSize, ceilingBeforeMs), after: perSecond(burstSize, ceilingAfterMs) },
      plainHttpCpuMsPer1000: round2((ceilingCpuMs / burstSize) * 1000),
      senderAlonePerSecond: perSecond(burstSize, senderMs),
      duplicates: receiver.duplicates,
      notDelivered: pending,
      retried,
    };
    if (receiver.duplicates > 0 || pending > 0 || retried > 0)
      process.stderr.write(`events bench: webhook anomalies ${JSON.stringify({ duplicates: receiver.duplicates, pending, retried })}\n`);

    const ms = (x: number) => `${x.toLocaleString("en")} ms`;
    // Latency ratios on p50: a p99 over 50 blocks of a few-ms floor is one GC pause or burst of other work (it moved
    // 2× between runs on a shared machine); the p99s are in the figures. The lone stream's figures are no ratio: its
    // p50 of 5–8 ms moved with the machine's other work (the ratio to it: 5.0–6.5 between runs), the bare fan-out's
    // moves with the streams'.
    const ratios: Record<string, Ratio> = {
      sseBlockToEventP50VsBareFanOut: {
        value: round2(sse.blockToEventMs.p50 / Math.max(sse.bareBlockToFrameMs.p50, 0.01)),
        lowerIsBetter: true,
        figure: `block → first event on each of ${thousands(STREAMS)} streams, p50 ${ms(sse.blockToEventMs.p50)} (p99 ${ms(sse.blockToEventMs.p99)})`,
        reference: `block → chain.block (p50 ${ms(sse.blockToChainBlockMs.p50)}, p99 ${ms(sse.blockToChainBlockMs.p99)}) → bare node:http writing the same frames to ${thousands(STREAMS)} streams, p50 ${ms(sse.bareBlockToFrameMs.p50)} (p99 ${ms(sse.bareBlockToFrameMs.p99)})`,
      },
      sseHeapPerStreamVsBareHttp: {
        value: round2(meshPerStream.heapBytes / Math.max(barePerStream.heapBytes, 1)),
        lowerIsBetter: true,
        figure: `${thousands(meshPerStream.heapBytes)} B heap per stream (RSS ${thousands(meshPerStream.rssBytes)} B), client included`,
        reference: `${thousands(barePerStream.heapBytes)} B (RSS ${thousands(barePerStream.rssBytes)} B), bare node:http holding idle answers`,
      },
      webhookDeliveriesVsPlainHttp: {
        value: Math.round((burstRate / ceilingRate) * 1000) / 1000,
        figure: `${thousands(burstRate)} deliveries/s to ${thousands(ENDPOINTS)} endpoints (${thousands(burstExpected)}, first block → last delivery)`,
        reference: `${thousands(ceilingRate)} signed POSTs/s, plain node:http, ${settings.concurrency} at a time`,
      },
      webhookBlockToDeliveryP50VsSse: {
        value: round2(webhooks.blockToDeliveryMs.p50 / Math.max(sse.blockToEventMs.p50, 0.01)),
        lowerIsBetter: true,
        figure: `block → delivery p50 ${ms(webhooks.blockToDeliveryMs.p50)} (p99 ${ms(webhooks.blockToDeliveryMs.p99)}), ${thousands(hookLatencies.length / WEBHOOK_BLOCKS)} per block`,
        reference: `block → first event on each of ${thousands(STREAMS)} SSE streams (above), p50 ${ms(sse.blockToEventMs.p50)}`,
      },
    };
    process.stderr.write(`events: sse ${JSON.stringify(sse)}\nevents: webhooks ${JSON.stringify(webhooks)}\n`);
    return { sse, webhooks, ratios, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
  } finally {
    for (const c of open) c.close();
    for (const fn of cleanups.reverse()) await fn();
    agent.destroy();
    await w.close();
  }
}
