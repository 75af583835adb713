/**
 * Fault campaign, the transparency log in scale mode: one sequencer at a time (a lease in the store, `tlog_lease`),
 * and when the replica holding it dies, the other takes over once the lease lapses, without forking the log.
 *
 * The mesh: a real nats-server; a gateway broker; TWO calendar replicas (two brokers, each running the `calendar`
 * service, whose sequencer integrates every LOG_INTEGRATE_MS = 100 ms), talking only over NATS; an in-process devnet
 * that the calendars' issuance machinery connects to (the anchoring rounds are not the point: BATCH_INTERVAL_MS is ten
 * minutes). Shared state, honestly: a SQLite store belongs to one process (DATA_DIR lock) and no MongoDB server is
 * available here, so — as in distributed-race.spec.ts — the two replicas run in ONE process and share ONE store
 * object (what a shared MongoDB gives separate pods). Each replica sees it through its own KillableStore
 * (fixtures/faults/killable-store.ts); both sign with the same LOG_SIGNER_KEY, as replicas of one log do.
 *
 * "Dies" means dies, not a graceful stop (which would release the lease). While three clients keep submitting
 * through the gateway and a reader keeps fetching the checkpoint, the replica holding the lease is killed at a random
 * moment: at its next call of a randomly chosen step of a round (claiming it, writing its records, a hash tile, the
 * checkpoint, the requests' marks, the round's end) or at its next store call of any kind. From then on none of its
 * store calls settles — the one that fired reaches the store, its answer never comes — so its lease is never released
 * and its round may be left half-written; its NATS connection is closed without the DISCONNECT packet a stop sends;
 * its health port closes. Its broker is never stopped (a stop would wait on the frozen store for ever) and holds
 * nothing that keeps the process alive (its timers are unref'd: checked with `--no-exit` and a stand-in indexer —
 * without an indexer the gateway's own wait for one, validator-follower.ts, keeps any such process alive, as in
 * batch-over-nats.spec.ts; .mocharc's `exit` ends it).
 *
 * The gateway learns of a silent death only from the missing heartbeats: production's 10 s / 30 s
 * (moleculer.config.ts) would leave it routing every other call to the dead replica for 20–60 s, each failing only
 * at the call timeout (Moleculer's Timeout middleware sits outside its CircuitBreaker, so timeouts never open the
 * circuit). That detection is not what this spec is about: the mesh's heartbeat is 1 s / 4 s here, and the gateway's
 * call timeout 1.5 s; the submissions routed to the dead replica meanwhile fail and count as not accepted.
 *
 * The lease's TTL is max(5 s, 5 × LOG_INTEGRATE_MS) (sequencer.ts), 5 s here: the survivor takes over within it.
 * Checked, over HTTP as a client sees it: every submission answered 202, before or after the death, has a
 * checkpointed receipt, no index is given twice, and the final log's entry at that index is SHA-256(nonce ‖ hash);
 * every entry of the final log is there once; every checkpoint seen during the run verifies with the published
 * verifier key, one root per size, each the root of the final log's first entries (recomputed from the final tiles)
 * and consistent with the final checkpoint by a served consistency proof. Through the store (what only the store
 * knows): the survivor holds the lease at the end; two leases never overlapped; every write of a round was made
 * under its writer's lease. `LOG_TAKEOVER_KILL_POINT=<name>` picks the step (names: KILL_POINTS below).
 */
import { expect } from "chai";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type BrokerOptions, type ServiceSchema } from "moleculer";
import { createBrokerOptions } from "../../../moleculer.config";
import { Devnet, startDevnetServer, type DevnetServer } from "../../../shared/devnet";
import { CALENDAR_REQUESTS } from "../../../shared/merkle/calendar-requests";
import { findHealthMiddleware } from "../../../shared/mesh/health-middleware";
import type { ServiceDeps } from "../../../shared/mesh/service-deps";
import { loadServices } from "../../../shared/mesh/service-loader";
import { createStore, type LeaseDocument, type Store, type UpdateResult } from "../../../shared/store";
import { parseCheckpoint } from "../../../shared/tlog/checkpoint";
import { fromBase64 } from "../../../shared/tlog/encoding";
import { ed25519Verifier, generateKey, openNote, parseVerifierKey, type NoteVerifier } from "../../../shared/tlog/note";
import { leafHash, treeRoot, verifyConsistency } from "../../../shared/tlog/rfc9162";
import { decodeEntryBundle, formatTilePath, hashesAtLevel, tileHashReader, TILE_WIDTH, type Tile } from "../../../shared/tlog/tiles";
import { KillableStore, type StoreCall } from "../../../fixtures/faults/killable-store";
import { pollUntil, postJson, startGateway, testConfig, type RunningGateway } from "../../../fixtures/mesh/helpers";
import { requireNatsServer, startNatsServer, type NatsServerHandle } from "../../../fixtures/processes/nats-server";

const REPO = join(__dirname, "..", "..", "..");
const ORIGIN = "takeover.test/log";
const LEASE_KEY = "tlog-sequencer";
/** sequencer.ts: max(5 s, 5 × intervalMs) */
const LEASE_TTL_MS = 5_000;
/** every broker: how soon the gateway sees that a replica is gone (seconds) */
const HEARTBEAT: Partial<BrokerOptions> = { heartbeatInterval: 1, heartbeatTimeout: 4 };
const CLIENTS = 3;
const HASHES_PER_SUBMISSION = 8;

/** The step of a round at which the lease holder dies (its next call of it), or its next store call of any kind. */
const KILL_POINTS: Record<string, (c: StoreCall) => boolean> = {
  claim: (c) => c.collection === "tlog_rounds" && c.method === "insertOne",
  records: (c) => c.collection === "tlog_records" && c.method === "updateOne",
  tile: (c) => c.collection === "tlog_tiles" && c.method === "updateOne",
  blocks: (c) => c.collection === "tlog_tile_blocks" && c.method === "updateOne",
  checkpoint: (c) => c.collection === "tlog_state" && (c.method === "updateOne" || c.method === "insertOne"),
  marks: (c) => c.collection === CALENDAR_REQUESTS && c.method === "updateOne" && "logNext" in (c.args[0] as object),
  done: (c) => c.collection === "tlog_rounds" && c.method === "updateOne",
  "any call": () => true,
};
/** the collections a round writes (the log's; the requests' marks are the calendar's) */
const LOG_COLLECTIONS = new Set(["tlog_rounds", "tlog_records", "tlog_tiles", "tlog_tile_blocks", "tlog_state"]);
const WRITES = new Set(["insertOne", "insertMany", "updateOne", "updateMany", "findOneAndUpdate", "deleteOne", "deleteMany"]);

interface Replica {
  name: string;
  broker: ServiceBroker;
  store: KillableStore;
  /** the sequencer's lease holder strings seen in its lease calls */
  holders: Set<string>;
  /** its leases as the store granted them: [from, to), `to` moved by each renewal */
  grants: { from: number; to: number }[];
  /** when it wrote to the log's collections */
  logWrites: { at: number; what: string }[];
}

interface ReceiptLog {
  status: "waiting" | "checkpointed" | "anchored";
  index?: number;
  nonce?: string;
}

type Receipts = { receipts: { receiptId: string; hash: string }[] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash("sha256")).digest();
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("fault campaign: the log's sequencer replica dies mid-round in scale mode, the other takes over (two replicas over NATS)", function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  let nats: NatsServerHandle | undefined;
  let devnet: Devnet | undefined;
  let devnetServer: DevnetServer | undefined;
  let shared: Store | undefined;
  let gateway: RunningGateway | undefined;
  const replicas: Replica[] = [];
  const key = generateKey(ORIGIN);
  let verifier: NoteVerifier;
  let api = "";

  const tmp = (label: string) => {
    const d = mkdtempSync(join(tmpdir(), `takeover-${label}-`));
    dirs.push(d);
    return d;
  };

  before(async function () {
    requireNatsServer(this);
    nats = await startNatsServer();
    devnet = await Devnet.create({});
    devnetServer = await startDevnetServer(devnet, { port: 0 });
    shared = await createStore({ inMemory: true });
    const parsed = parseVerifierKey(key.verifierKey);
    if (!parsed.ok) throw new Error(parsed.error);
    verifier = ed25519Verifier(parsed.value);
    const env: Record<string, string> = {
      TRANSPORTER: nats.url,
      NAMESPACE: `takeover-${randomUUID()}`,
      LOG_ORIGIN: ORIGIN,
      LOG_SIGNER_KEY: key.signerKey,
      LOG_INTEGRATE_MS: "100",
      BATCH_INTERVAL_MS: "600000",
      BATCH_MAX_LEAVES: "1000000",
    };
    for (const name of ["calendar-a", "calendar-b"]) {
      const config = testConfig({ ...env, DATA_DIR: tmp(name), NODE_ID: name });
      const store = new KillableStore(shared);
      const broker = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true, ...HEARTBEAT } }));
      const replica: Replica = { name, broker, store, holders: new Set(), grants: [], logWrites: [] };
      store.watch((call, result) => watchReplica(replica, call, result));
      const deps: ServiceDeps = {
        config,
        now: Date.now,
        resources: {
          store: async () => store,
          chain: async () => ({ ogmiosUrl: devnetServer!.url, network: "devnet", devnet: null }),
        },
      };
      for (const schema of loadServices(["calendar"], deps, join(REPO, "services")).schemas as ServiceSchema[])
        broker.createService(schema);
      replicas.push(replica);
    }
    await Promise.all(replicas.map((r) => r.broker.start()));
    // a call to the dead replica fails after 1.5 s; Moleculer never settles such a call's context inside, so the
    // gateway's stop would wait its whole SHUTDOWN_TIMEOUT_MS (10 s) for it
    const gatewayEnv = { ...env, REQUEST_TIMEOUT_MS: "1500", SHUTDOWN_TIMEOUT_MS: "500" };
    gateway = await startGateway({ env: gatewayEnv, nodeID: "gateway", brokerOverrides: HEARTBEAT });
    api = gateway.api;
    await pollUntil(async () => (calendarNodes().length === 2 ? true : undefined), "both calendar replicas seen by the gateway");
  });

  after(async () => {
    await gateway?.stop().catch(() => undefined);
    // the survivor stops as usual; the dead replica is never stopped (its stop would wait on its frozen store for ever)
    for (const r of replicas) if (!r.store.isKilled) await r.broker.stop().catch(() => undefined);
    await shared?.close().catch(() => undefined);
    await devnetServer?.close().catch(() => undefined);
    await devnet?.close().catch(() => undefined);
    await nats?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** The nodes the gateway would send a calendar call to. */
  const calendarNodes = (): string[] =>
    gateway!.broker.registry
      .getServiceList({ onlyAvailable: true, skipInternal: true })
      .filter((s) => s.name === "calendar")
      .map((s) => s.nodeID ?? "");

  /** Keeps, from the store's answers, which lease holder a replica is and the leases it was granted. */
  function watchReplica(r: Replica, call: StoreCall, result: Promise<unknown>): void {
    if (call.collection === "tlog_lease" && call.method === "insertMany") {
      const doc = (call.args[0] as LeaseDocument[])[0]!;
      r.holders.add(doc.holder);
      result.then(
        () => r.grants.push({ from: doc.acquiredAt, to: doc.expiresAt }),
        () => undefined, // held by another: not granted
      );
    } else if (call.collection === "tlog_lease" && call.method === "updateMany") {
      r.holders.add((call.args[0] as { holder: string }).holder);
      const to = (call.args[1] as { $set: { expiresAt: number } }).$set.expiresAt;
      result.then(
        (res) => {
          if ((res as UpdateResult).matchedCount > 0) r.grants.at(-1)!.to = to;
        },
        () => undefined,
      );
    } else if (LOG_COLLECTIONS.has(call.collection) && WRITES.has(call.method)) {
      r.logWrites.push({ at: Date.now(), what: `${call.collection}.${call.method}` });
    }
  }

  async function leaseHolder(): Promise<{ replica: Replica | undefined; doc: LeaseDocument | undefined }> {
    const doc = await shared!.collection<LeaseDocument>("tlog_lease").findOne({ _id: LEASE_KEY });
    return { doc, replica: doc === undefined ? undefined : replicas.find((r) => r.holders.has(doc.holder)) };
  }

  /** GET, asked again while the mesh cannot answer it (a 5xx). */
  async function getOk(path: string): Promise<Response> {
    return pollUntil(
      async () => {
        const res = await fetch(`${api}${path}`);
        if (res.status === 200) return res;
        const text = await res.text();
        if (res.status < 500) throw new Error(`${path}: ${res.status} ${text}`);
        return undefined;
      },
      `GET ${path}`,
      30_000,
    );
  }

  const getJson = async <T>(path: string): Promise<T> => (await (await getOk(path)).json()) as T;

  /** `fn` over every item, `workers` at a time. */
  async function pool<T, R>(items: readonly T[], workers: number, fn: (item: T) => Promise<R>): Promise<R[]> {
    const out: R[] = new Array<R>(items.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < items.length) {
          const i = next++;
          out[i] = await fn(items[i]!);
        }
      }),
    );
    return out;
  }

  /** Every tile of the log at `size` (hash tiles of every level, and the entry bundles), by path. */
  async function tilesOf(size: number): Promise<Map<string, Uint8Array>> {
    const tiles: Tile[] = [];
    for (let level = 0; hashesAtLevel(size, level) > 0; level++) {
      const count = hashesAtLevel(size, level);
      for (let index = 0; index * TILE_WIDTH < count; index++) {
        const width = Math.min(TILE_WIDTH, count - index * TILE_WIDTH);
        tiles.push({ level, index, width });
        if (level === 0) tiles.push({ level: "entries", index, width });
      }
    }
    const bytes = await pool(tiles, 8, async (t) => new Uint8Array(await (await getOk(`/log/${formatTilePath(t)}`)).arrayBuffer()));
    return new Map(tiles.map((t, i) => [formatTilePath(t), bytes[i]!]));
  }

  async function receiptLogs(ids: readonly string[]): Promise<Map<string, ReceiptLog>> {
    const logs = await pool(ids, 16, async (id) => (await getJson<{ log: ReceiptLog }>(`/batch/receipt/${id}`)).log);
    return new Map(ids.map((id, i) => [id, logs[i]!]));
  }

  it("takes over within the lease's time, loses no accepted hash, gives no index twice and signs one root per size", async () => {
    // warm-up: the log has a checkpoint and one replica holds the lease
    const warm = await pollUntil(async () => {
      const res = await postJson(`${api}/batch/submit`, { hashes: [randomBytes(32).toString("hex")] });
      return res.status === 202 ? (res.json as Receipts).receipts : undefined;
    }, "a first submission accepted");
    const accepted = new Map(warm.map((r) => [r.receiptId, { hash: r.hash, afterDeath: false }]));
    await pollUntil(
      async () => ((await receiptLogs([warm[0]!.receiptId])).get(warm[0]!.receiptId)!.index !== undefined ? true : undefined),
      "the first hash checkpointed",
    );

    // clients submit and a reader fetches the checkpoint, until told to stop
    let running = true;
    let diedAt: number | null = null;
    let notAccepted = 0;
    const notes = new Set<string>();
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (running) {
        const hashes = Array.from({ length: HASHES_PER_SUBMISSION }, () => randomBytes(32).toString("hex"));
        const sentAt = Date.now();
        const res = await postJson(`${api}/batch/submit`, { hashes }).catch(() => undefined);
        if (res?.status === 202) {
          const receipts = (res.json as Receipts).receipts;
          expect(receipts.map((r) => r.hash)).to.deep.equal(hashes);
          for (const r of receipts) accepted.set(r.receiptId, { hash: r.hash, afterDeath: diedAt !== null && sentAt > diedAt });
        } else notAccepted++; // routed to the dead replica: a timeout (504)
        await sleep(60);
      }
    });
    let outstanding = 0;
    const reader = setInterval(() => {
      if (outstanding >= 10) return;
      outstanding++;
      void fetch(`${api}/log/checkpoint`)
        .then(async (res) => {
          const text = await res.text();
          if (res.status === 200) notes.add(text);
        })
        .catch(() => undefined)
        .finally(() => outstanding--);
    }, 40);

    // a random while, then the lease holder dies at its next call of a random step of a round
    await sleep(1_000 + Math.floor(Math.random() * 2_000));
    const { replica: dead, doc: leaseAtArming } = await leaseHolder();
    expect(dead, `the lease ${JSON.stringify(leaseAtArming)} names a replica`).to.not.equal(undefined);
    const survivor = replicas.find((r) => r !== dead)!;
    const names = Object.keys(KILL_POINTS);
    const point = process.env.LOG_TAKEOVER_KILL_POINT ?? names[Math.floor(Math.random() * names.length)]!;
    expect(names, "LOG_TAKEOVER_KILL_POINT").to.include(point);
    const cut = new Promise<void>((resolve) =>
      dead!.store.onKilled(() => {
        diedAt = Date.now();
        // its NATS connection closes as a dead process's does: no DISCONNECT packet (which a stop sends)
        const transit = (dead!.broker as unknown as { transit: { tx: { disconnect(): Promise<void> } } }).transit;
        // and its port closes
        const health = findHealthMiddleware(dead!.broker) as unknown as { stopped(): Promise<void> };
        void Promise.all([transit.tx.disconnect(), health.stopped()]).then(() => resolve());
      }),
    );
    dead!.store.killAt(KILL_POINTS[point]!);
    // a step that does not come soon (no hash tile in a log of fewer than 256 entries): now
    const fired = await Promise.race([cut.then(() => true), sleep(3_000).then(() => false)]);
    if (!fired) dead!.store.kill();
    await cut;
    const killedBy = dead!.store.killedBy;
    const sizeAtDeath = (await shared!.collection<{ _id: string; size: number }>("tlog_state").findOne({ _id: "log" }))?.size ?? 0;

    // the survivor takes over once the lease lapses (its TTL), and the gateway stops routing to the dead replica
    await pollUntil(
      async () => {
        const { replica, doc } = await leaseHolder();
        return replica === survivor && doc!.expiresAt > Date.now() ? true : undefined;
      },
      "the surviving replica holding the lease",
      LEASE_TTL_MS + 10_000,
    );
    await pollUntil(async () => (calendarNodes().join() === survivor.name ? true : undefined), "the gateway dropping the dead replica");
    const notAcceptedBeforeDrop = notAccepted;
    await sleep(1_500);
    running = false;
    await Promise.all(clients);
    clearInterval(reader);
    await pollUntil(async () => (outstanding === 0 ? true : undefined), "the checkpoint reads to end");

    // every accepted hash is checkpointed, each at its own index
    const ids = [...accepted.keys()];
    const logs = await pollUntil(
      async () => {
        const got = await receiptLogs(ids);
        return [...got.values()].every((l) => l.index !== undefined) ? got : undefined;
      },
      `${ids.length} accepted hashes checkpointed`,
      30_000,
    );
    for (const l of logs.values()) expect(l.status).to.be.oneOf(["checkpointed", "anchored"]);
    expect(new Set(ids.map((id) => logs.get(id)!.index)).size, "no index given to two receipts").to.equal(ids.length);

    // the final checkpoint, published under the key both replicas sign with
    const info = await getJson<{ origin: string; verifierKey: string; size: number; checkpoint: string }>("/log");
    expect(info.origin).to.equal(ORIGIN);
    expect(info.verifierKey).to.equal(key.verifierKey);
    notes.add(info.checkpoint);
    const roots = new Map<number, string>();
    for (const note of notes) {
      const opened = openNote(note, [verifier]);
      expect(opened.ok, `a checkpoint seen verifies with the log's key: ${note}`).to.equal(true);
      const cp = parseCheckpoint(opened.ok ? opened.value.text : "");
      if (!cp.ok) throw new Error(cp.error);
      expect(cp.value.origin).to.equal(ORIGIN);
      const root = hex(cp.value.rootHash);
      expect(roots.get(cp.value.size) ?? root, `one root for size ${cp.value.size}`).to.equal(root);
      roots.set(cp.value.size, root);
    }
    const size = info.size;
    expect(Math.max(...roots.keys()), "the final checkpoint is the largest seen").to.equal(size);
    expect(size, "the log holds every accepted hash").to.be.at.least(ids.length);

    // the final log from its tiles: every entry once, each leaf its entry's, each accepted hash at its receipt's index
    const tiles = await tilesOf(size);
    const entries: Uint8Array[] = [];
    for (let index = 0; index * TILE_WIDTH < size; index++) {
      const width = Math.min(TILE_WIDTH, size - index * TILE_WIDTH);
      const bundle = decodeEntryBundle(tiles.get(formatTilePath({ level: "entries", index, width }))!);
      if (!bundle.ok) throw new Error(bundle.error);
      expect(bundle.value).to.have.length(width);
      const level0 = tiles.get(formatTilePath({ level: 0, index, width }))!;
      bundle.value.forEach((e, i) =>
        expect(hex(leafHash(e)), `leaf ${index * TILE_WIDTH + i}`).to.equal(hex(level0.subarray(i * 32, i * 32 + 32))),
      );
      entries.push(...bundle.value);
    }
    expect(new Set(entries.map(hex)).size, "no entry twice in the log").to.equal(size);
    for (const id of ids) {
      const l = logs.get(id)!;
      const entry = sha256(fromBase64(l.nonce!)!, Buffer.from(accepted.get(id)!.hash, "hex"));
      expect(hex(entries[l.index!]!), `receipt ${id}: its entry at ${l.index}`).to.equal(hex(entry));
    }

    // every checkpoint seen is the root of the final log's first entries, and consistent with the final one
    const read = tileHashReader(size, (t) => tiles.get(formatTilePath(t))!);
    expect(hex(treeRoot(size, read)), "the final root from the tiles").to.equal(roots.get(size));
    const earlier = [...roots].filter(([s]) => s > 0 && s < size);
    const proofs = await pool(earlier, 8, async ([s]) =>
      (await getJson<{ proof: string[] }>(`/log/consistency?from=${s}&to=${size}`)).proof.map((p) => fromBase64(p)!),
    );
    earlier.forEach(([s, root], i) => {
      expect(hex(treeRoot(s, read)), `the root of the first ${s} entries`).to.equal(root);
      expect(
        verifyConsistency(s, size, Buffer.from(root, "hex"), Buffer.from(roots.get(size)!, "hex"), proofs[i]!),
        `${s} → ${size}`,
      ).to.deep.equal({ valid: true });
    });

    // the lease: the survivor holds it; never two holders at once; every write of a round under its writer's lease
    const { replica: holderNow } = await leaseHolder();
    expect(holderNow?.name, "the surviving replica holds the lease").to.equal(survivor.name);
    const grants = replicas.flatMap((r) => r.grants.map((g) => ({ ...g, replica: r.name }))).sort((a, b) => a.from - b.from);
    for (let i = 1; i < grants.length; i++)
      expect(grants[i]!.from, `${grants[i]!.replica}'s lease begins after ${grants[i - 1]!.replica}'s ended`).to.be.at.least(
        grants[i - 1]!.to,
      );
    for (const r of replicas)
      for (const w of r.logWrites)
        expect(
          r.grants.some((g) => g.from <= w.at && w.at < g.to),
          `${r.name}'s ${w.what} at ${w.at} under its lease (${JSON.stringify(r.grants)})`,
        ).to.equal(true);
    const deadLease = dead!.grants.at(-1)!;
    const taken = survivor.grants.find((g) => g.from >= diedAt!);
    expect(taken, "the survivor took the lease after the death").to.not.equal(undefined);
    expect(taken!.from, "taken over once the dead replica's lease lapsed").to.be.at.least(deadLease.to);
    expect(taken!.from - diedAt!, "taken over within the lease's time").to.be.at.most(LEASE_TTL_MS + 2_000);
    expect(
      survivor.logWrites.some((w) => w.at > taken!.from),
      "the survivor integrated after the death",
    ).to.equal(true);
    expect(dead!.store.hung, "the dead replica's calls never settled").to.be.greaterThan(0);

    const afterDeath = [...accepted.values()].filter((a) => a.afterDeath).length;
    expect(afterDeath, "submissions accepted after the death").to.be.greaterThan(0);
    expect(size, "the log grew after the death").to.be.greaterThan(sizeAtDeath);
    const where = killedBy ? `at ${point} (${killedBy.collection}.${killedBy.method})` : `(${point} not reached in 3 s) at once`;
    process.stdout.write(
      `      ${dead!.name} died ${where} at log size ${sizeAtDeath}; ${survivor.name} took the lease ${taken!.from - diedAt!} ms later ` +
        `(the dead one's lapsed at ${deadLease.to - diedAt!} ms); ${ids.length} hashes accepted (${afterDeath} sent after the death), ` +
        `${notAccepted} submissions not accepted (${notAccepted - notAcceptedBeforeDrop} after the gateway dropped the dead replica); ` +
        `final size ${size}; ${roots.size} distinct checkpoints seen, all consistent\n`,
    );
  });
});
