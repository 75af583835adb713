/**
 * The sequencer's safety on one store shared by replicas: one sequencer at a time by the lease, a second taking over
 * when the first stops renewing it; and even without the lease (two sequencers racing round for round) no index is
 * taken twice, no size gets two roots, and a round one of them left half-done (failing at any step) is finished the
 * same way by the other. Real SQLite store, real Ed25519 checkpoints, proofs checked against an independent tree.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { calendarLogSource } from "../../shared/merkle/calendar-log";
import { CALENDAR_REQUESTS, type CalendarRequestDocument } from "../../shared/merkle/calendar-requests";
import { createLeaseTable, createStore, type Collection, type Store } from "../../shared/store";
import { parseCheckpoint } from "../../shared/tlog/checkpoint";
import { inclusionProof, leafHash, treeRoot } from "../../shared/tlog/rfc9162";
import { entryOfRecord } from "../../shared/transparency-log/log-entries";
import { LogStore } from "../../shared/transparency-log/log-store";
import { inclusionAt, rootAt } from "../../shared/transparency-log/log-tree";
import { Sequencer, type LogSource } from "../../shared/transparency-log/sequencer";
import { logKeys, logVerifier, ORIGIN } from "../tlog/fixture-log";
import { ed25519Signer, openNote } from "../../shared/tlog/note";

const SETTINGS = { origin: ORIGIN, intervalMs: 100, maxEntriesPerRound: 300 };

describe("transparency log: the sequencer on a store shared by replicas", () => {
  let store: Store;
  let requests: Collection<CalendarRequestDocument>;
  let clock: number;
  const now = () => clock;
  /** every hash submitted, in submission order, with its nonce: the independent record of what the log must hold */
  let submitted: { request: string; hash: Buffer; nonce: Buffer }[];

  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    requests = store.collection<CalendarRequestDocument>(CALENDAR_REQUESTS);
    clock = 1_800_000_000_000;
    submitted = [];
  });
  afterEach(() => store.close());

  /** A calendar request of `count` hashes, as POST /batch/submit stores it. */
  async function submit(count: number): Promise<void> {
    const id = randomBytes(12).toString("hex");
    const hashes = Array.from({ length: count }, () => randomBytes(32));
    const nonces = Array.from({ length: count }, () => randomBytes(16));
    clock += 1;
    await requests.insertOne({
      _id: id,
      hashes: Buffer.concat(hashes).toString("hex"),
      count,
      submittedAt: clock,
      pendingLeaves: count,
      nonces: Buffer.concat(nonces).toString("base64"),
      logNext: 0,
      logPending: count,
      logged: [],
    });
    hashes.forEach((hash, i) => submitted.push({ request: id, hash, nonce: nonces[i]! }));
  }

  async function sequencer(
    leaseCollection = "tlog_lease",
    source: LogSource = calendarLogSource(requests),
    log?: LogStore,
  ): Promise<Sequencer> {
    const lease = await createLeaseTable(store.collection(leaseCollection), now);
    return new Sequencer(log ?? (await LogStore.open(store)), source, lease, ed25519Signer(logKeys.signer), SETTINGS, now);
  }

  /** The signed checkpoint now: verified with the log key, parsed. */
  async function checkpoint(): Promise<{ size: number; root: Buffer }> {
    const state = await (await LogStore.open(store)).latest();
    const opened = openNote(state!.checkpoint, [logVerifier]);
    if (!opened.ok) throw new Error(opened.error);
    const parsed = parseCheckpoint(opened.value.text);
    if (!parsed.ok) throw new Error(parsed.error);
    return { size: parsed.value.size, root: Buffer.from(parsed.value.rootHash) };
  }

  /**
   * The log holds exactly the submitted hashes, each once, in request order as the requests were taken: checked
   * against a tree computed here from the submissions, and every request's positions map to distinct indices.
   */
  async function expectLogOfSubmissions(observed: Map<number, string>): Promise<void> {
    const docs = await requests.find({});
    const indexOf = new Map<string, number>();
    for (const d of docs) {
      expect(d.logPending, `request ${d._id} fully logged`).to.equal(0);
      for (const l of d.logged) for (let p = l.from; p < l.to; p++) indexOf.set(`${d._id}:${p}`, l.index + p - l.from);
    }
    const positions = new Map<string, number>();
    const byIndex: Buffer[] = [];
    for (const s of submitted) {
      const p = positions.get(s.request) ?? 0;
      positions.set(s.request, p + 1);
      const index = indexOf.get(`${s.request}:${p}`);
      expect(index, `hash ${p} of ${s.request} has an index`).to.be.a("number");
      expect(byIndex[index!], `index ${index} taken twice`).to.equal(undefined);
      byIndex[index!] = Buffer.from(leafHash(entryOfRecord(Buffer.concat([s.nonce, s.hash]))));
    }
    expect(byIndex.length).to.equal(submitted.length);
    const { size } = await checkpoint();
    expect(size).to.equal(submitted.length);
    const reference = (n: number) => Buffer.from(treeRoot(n, (level, index) => subtree(byIndex, level, index)));
    // every root ever signed is the root of the log's first entries: no size got two roots
    for (const [s, root] of observed) expect(root, `root at size ${s}`).to.equal(reference(s).toString("hex"));
    const log = await LogStore.open(store);
    expect(Buffer.from(await rootAt(log, size)).equals(reference(size))).to.equal(true);
  }

  it("runs one sequencer at a time; another takes over once the first stops renewing its lease", async () => {
    const a = await sequencer();
    const b = await sequencer();
    await submit(5);
    expect(await a.round()).to.deep.include({ kind: "integrated", size: 5 });
    await submit(3);
    expect(await b.round(), "a holds the lease").to.deep.equal({ kind: "busy" });
    expect(await a.round()).to.deep.include({ kind: "integrated", size: 8 });
    // a dies (stops renewing): after the lease's time b takes over, and a, should it come back, is busy
    clock += 10_000;
    await submit(4);
    expect(await b.round()).to.deep.include({ kind: "integrated", size: 12 });
    await submit(1);
    expect(await a.round()).to.deep.equal({ kind: "busy" });
    expect(await b.round()).to.deep.include({ kind: "integrated", size: 13 });
    await expectLogOfSubmissions(new Map());
  });

  it("without a lease, two sequencers racing round for round take no index twice and sign one root per size", async () => {
    // each its own lease table: nothing keeps them apart but the rounds' claims
    const a = await sequencer("lease_a");
    const b = await sequencer("lease_b");
    const observed = new Map<number, string>();
    for (let i = 0; i < 25; i++) {
      await submit(1 + (i % 7) * 40);
      await Promise.all([a.round(), b.round(), i % 3 === 0 ? a.round() : Promise.resolve()]);
      const c = await checkpoint();
      const seen = observed.get(c.size);
      if (seen !== undefined) expect(seen, `size ${c.size}`).to.equal(c.root.toString("hex"));
      observed.set(c.size, c.root.toString("hex"));
    }
    while ((await requests.count({ logPending: { $gt: 0 } })) > 0) await a.round();
    await expectLogOfSubmissions(observed);
  });

  it("proves inclusion from full tiles' block hashes, and without them (a log filled before they were kept), as from the leaves", async () => {
    const a = await sequencer();
    for (let i = 0; i < 3; i++) await submit(250);
    while ((await requests.count({ logPending: { $gt: 0 } })) > 0) await a.round();
    const { size } = await checkpoint();
    expect(size).to.equal(750);
    expect(await store.collection("tlog_tile_blocks").count({}), "two full level-0 tiles").to.equal(2);
    const leaves = submittedLeavesInLogOrder();
    const expected = (index: number) =>
      inclusionProof(index, size, (level, i) => subtree(leaves, level, i)).map((h) => Buffer.from(h).toString("hex"));
    const proofs = async (log: LogStore) =>
      Promise.all(
        [0, 17, 255, 256, 300, 511, 512, 749].map(async (i) =>
          (await inclusionAt(log, i, size)).map((h) => Buffer.from(h).toString("hex")),
        ),
      );
    const want = [0, 17, 255, 256, 300, 511, 512, 749].map(expected);
    expect(await proofs(await LogStore.open(store))).to.deep.equal(want);
    await store.collection("tlog_tile_blocks").deleteMany({});
    expect(await proofs(await LogStore.open(store))).to.deep.equal(want);
  });

  /** The leaf hash of every entry, by log index (the requests' logged positions). */
  function submittedLeavesInLogOrder(): Buffer[] {
    return submitted.map((s) => Buffer.from(leafHash(entryOfRecord(Buffer.concat([s.nonce, s.hash])))));
  }

  for (const step of ["saveRecords", "saveTile", "saveTileBlocks", "advance", "markLogged"] as const) {
    it(`a round that fails at ${step} is finished by the next sequencer the same way`, async () => {
      const log = await LogStore.open(store);
      const source = calendarLogSource(requests);
      let failOnce = true;
      const failing = <F extends (...args: never[]) => Promise<unknown>>(f: F): F =>
        (async (...args: Parameters<F>) => {
          if (failOnce) {
            failOnce = false;
            throw new Error(`killed at ${step}`);
          }
          return f(...args);
        }) as F;
      if (step === "markLogged") source.markLogged = failing(source.markLogged.bind(source));
      else (log as unknown as Record<string, unknown>)[step] = failing((log[step] as (...a: never[]) => Promise<unknown>).bind(log));
      const crashing = await sequencer("lease_crashing", source, log);
      const next = await sequencer("lease_next");
      const observed = new Map<number, string>();
      await submit(300);
      // the round of 300 fails part-way: its document claims indices 0..299, some of its writes are done
      expect(await crashing.round()).to.deep.equal({ kind: "failed", message: `killed at ${step}` });
      expect(await log.rounds.count({ done: false })).to.equal(1);
      await submit(20);
      const after = await next.round();
      expect(after.kind, JSON.stringify(after)).to.equal("integrated");
      while ((await requests.count({ logPending: { $gt: 0 } })) > 0) await next.round();
      const c = await checkpoint();
      observed.set(c.size, c.root.toString("hex"));
      await expectLogOfSubmissions(observed);
    });
  }
});

/** MTH of the complete subtree at (level, index) of `leaves` (RFC 9162 §2.1.1), computed directly. */
function subtree(leaves: readonly Buffer[], level: number, index: number): Uint8Array {
  if (level === 0) return leaves[index]!;
  const left = subtree(leaves, level - 1, 2 * index);
  const right = subtree(leaves, level - 1, 2 * index + 1);
  return nodeHashOf(left, right);
}

function nodeHashOf(left: Uint8Array, right: Uint8Array): Uint8Array {
  return createHash("sha256")
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();
}
