/**
 * The calendar's rules that need no chain: who may submit (mainnet only with the API key, nobody when disabled),
 * the configuration bounds, the pending-hashes bound, and one round at a time across replicas sharing a store, over a
 * real transparency log in that store (its sequencer driven by the test). The anchoring itself (build, sign, submit
 * on the devnet) is covered by test/merkle/calendar.spec.ts; here the anchorer only records what it was handed.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { loadConfig, NETWORKS } from "../../../shared/config/config";
import { httpStatusOfType } from "../../../shared/gateway/http-status";
import {
  checkCalendarAccess,
  MerkleCalendar,
  SETTLE_MS,
  type AnchorableCheckpoint,
  type CalendarAnchorer,
  type CalendarChainView,
  type CalendarSettings,
} from "../../../shared/merkle";
import { calendarLogSource } from "../../../shared/merkle/calendar-log";
import { CALENDAR_REQUESTS, type CalendarRequestDocument } from "../../../shared/merkle/calendar-requests";
import { createStore, type Store } from "../../../shared/store";
import { generateKey } from "../../../shared/tlog/note";
import { hashPackedLeaves, rootOfLevels, treeLevels } from "../../../shared/merkle/merkle-tree";
import { loadOrCreateLogKey } from "../../../shared/transparency-log/log-key";
import { TransparencyLog } from "../../../shared/transparency-log/transparency-log";

const caught = (run: () => unknown): { type: string; message: string; data?: Record<string, unknown> } => {
  try {
    run();
  } catch (err) {
    return err as { type: string; message: string };
  }
  return expect.fail("expected a refusal");
};
const hashes = (n: number) => Array.from({ length: n }, () => randomBytes(32).toString("hex"));
const SETTINGS: CalendarSettings = { intervalMs: 60_000, maxPending: 10, maxPendingPerClient: 100, maxHashesPerRequest: 6 };
const ANONYMOUS = { clientKey: "203.0.113.7" };
const WITH_KEY = { clientKey: "203.0.113.7", keyId: "0123456789abcdef" };
const CLIENT = "client:203.0.113.7";

describe("merkle calendar: access policy and bounds", () => {
  it("is open on the devnet and testnets, on mainnet only with the API key, and closed for everyone when disabled", () => {
    for (const network of NETWORKS.filter((n) => n !== "mainnet")) {
      expect(() => checkCalendarAccess({ enabled: true, network }, ANONYMOUS), network).not.to.throw();
    }
    const mainnet = caught(() => checkCalendarAccess({ enabled: true, network: "mainnet" }, ANONYMOUS));
    expect(mainnet.type).to.equal("UNAUTHORIZED");
    expect(httpStatusOfType(mainnet.type)).to.equal(401);
    expect(mainnet.message).to.match(/mainnet.*API key/);
    expect(() => checkCalendarAccess({ enabled: true, network: "mainnet" }, WITH_KEY)).not.to.throw();
    for (const network of NETWORKS) {
      const off = caught(() => checkCalendarAccess({ enabled: false, network }, WITH_KEY));
      expect(off.type).to.equal("CALENDAR_DISABLED");
      expect(httpStatusOfType(off.type)).to.equal(403);
    }
  });

  it("reads its configuration with defaults, and refuses limits above the body limit", () => {
    expect(loadConfig({}).batchCalendar).to.deep.equal({
      enabled: true,
      intervalMs: 60_000,
      log: { origin: "localhost/cert-anchor/devnet", signerKey: null, integrateMs: 500, witnesses: [] },
      maxPending: 1_000_000,
      maxPendingPerClient: 100_000,
      apiKeys: [],
      maxHashesPerRequest: 5_000,
    });
    expect(loadConfig({ BATCH_CALENDAR_ENABLED: "false" }).batchCalendar.enabled).to.equal(false);
    expect(() => loadConfig({ BATCH_SUBMIT_MAX_HASHES: "7001" })).to.throw(/BATCH_SUBMIT_MAX_HASHES=7001 must be at most 7000/);
    expect(() => loadConfig({ BATCH_INTERVAL_MS: "5" })).to.throw(/BATCH_INTERVAL_MS=5 must be an integer >= 100/);
  });

  describe("over a store shared by two replicas, with the transparency log in it", () => {
    const ORIGIN = "example.test/calendar-log";
    let store: Store;
    let log: TransparencyLog;
    const handed: AnchorableCheckpoint[] = [];
    let hold = true;
    let release: () => void = () => undefined;
    // where the rounds' transactions are, as the test decides; the verifier follows the blocks at once
    const mempool = new Set<string>();
    const blocks = new Set<string>();
    const chain: CalendarChainView = {
      onChain: async (txId) => blocks.has(txId),
      inMempoolAmong: async (txIds) => new Set(txIds.filter((t) => mempool.has(t))),
      anchorServed: async (txId) => blocks.has(txId),
    };
    const anchorer: CalendarAnchorer = {
      async build({ checkpoint }) {
        handed.push(checkpoint);
        if (hold) await new Promise<void>((resolve) => (release = resolve));
        return { cborHex: "", txId: randomBytes(32).toString("hex"), expiresAtMs: now() + 600_000 };
      },
      async submit(_cborHex, txId) {
        mempool.add(txId);
      },
    };
    // a clock that moves on every reading: two requests are never in the same millisecond
    let ms = 1_800_000_000_000;
    const now = () => ms++;
    const open = (over: Partial<Parameters<typeof MerkleCalendar.open>[0]> = {}) =>
      MerkleCalendar.open({
        store,
        anchorer,
        chain,
        settings: SETTINGS,
        now,
        log: {
          latestCheckpoint: () => log.anchorableCheckpoint(),
          hashAt: (index) => log.hashAt(index),
          extendLookups: (size) => log.lookup.indexUpTo(size),
        },
        ...over,
      });
    /** The log takes what waits: one sequencer round. */
    const integrate = async () =>
      expect(await log.sequencer.round())
        .to.have.property("kind")
        .that.is.oneOf(["integrated", "idle"]);

    beforeEach(async () => {
      store = await createStore({ inMemory: true });
      log = await TransparencyLog.open({
        store,
        source: calendarLogSource(store.collection<CalendarRequestDocument>(CALENDAR_REQUESTS)),
        key: loadOrCreateLogKey({ dataDir: "unused", signerKey: generateKey(ORIGIN).signerKey, origin: ORIGIN }),
        settings: { origin: ORIGIN, intervalMs: 500 },
        witnessing: { witnesses: [], timeoutMs: 1_000 },
        now,
      });
      handed.length = 0;
      hold = true;
      mempool.clear();
      blocks.clear();
    });
    afterEach(() => store.close());

    it("refuses more than maxPending waiting hashes with CALENDAR_FULL (429) and records nothing of that request", async () => {
      const calendar = await open();
      expect((await calendar.submit(hashes(6), CLIENT)).pending).to.equal(6);
      const full = await calendar.submit(hashes(5), CLIENT).then(
        () => expect.fail("expected CALENDAR_FULL"),
        (err: { type: string; message: string; data: Record<string, unknown> }) => err,
      );
      expect(full.type).to.equal("CALENDAR_FULL");
      expect(httpStatusOfType(full.type)).to.equal(429);
      expect(full.data).to.include({ maxPending: 10 });
      expect(await calendar.pendingCount()).to.equal(6);
      const tooMany = await calendar.submit(hashes(7), CLIENT).then(
        () => expect.fail("expected BAD_REQUEST"),
        (err: { type: string; data: Record<string, unknown> }) => err,
      );
      expect(tooMany.type).to.equal("BAD_REQUEST");
      expect(tooMany.data).to.include({ maxHashes: 6 });
    });

    it("refuses a client more than maxPendingPerClient waiting hashes with CALENDAR_FULL, while other clients still submit", async () => {
      const calendar = await open({ settings: { ...SETTINGS, maxPending: 100, maxPendingPerClient: 8 } });
      await calendar.submit(hashes(6), "key:one");
      const full = await calendar.submit(hashes(3), "key:one").then(
        () => expect.fail("expected CALENDAR_FULL"),
        (err: { type: string; data: Record<string, unknown> }) => err,
      );
      expect(full.type).to.equal("CALENDAR_FULL");
      expect(full.data).to.include({ maxPendingPerClient: 8 });
      expect((await calendar.submit(hashes(6), "client:198.51.100.1")).pending).to.equal(12);
      expect(await calendar.pendingCount("key:one")).to.equal(6);
      expect(await calendar.pendingCount()).to.equal(12);
    });

    it("answers the largest request allowed (7,000 hashes) in less than the 1 MB a NATS message carries by default", async () => {
      const calendar = await open({
        settings: { ...SETTINGS, maxPending: 10_000, maxPendingPerClient: 10_000, maxHashesPerRequest: 7_000 },
      });
      const answer = await calendar.submit(hashes(7_000), CLIENT);
      expect(answer.receipts).to.have.length(7_000);
      expect(Buffer.byteLength(JSON.stringify(answer))).to.be.below(1_000_000);
    });

    it("lets one replica anchor at a time: the other's round is busy; the log's checkpoint is anchored and its hashes stop being pending", async () => {
      const a = await open();
      const b = await open();
      const leaves = hashes(4);
      const first = await a.submit(leaves.slice(0, 2), CLIENT);
      await b.submit(leaves.slice(2), CLIENT);
      expect(await a.anchorRound(), "nothing is in a checkpoint yet").to.deep.equal({ kind: "idle" });
      await integrate();
      const roundA = a.anchorRound();
      while (handed.length === 0) await new Promise((r) => setTimeout(r, 5));
      expect(await b.anchorRound()).to.deep.equal({ kind: "busy" });
      release();
      const outcome = await roundA;
      expect(outcome).to.include({ kind: "anchored", logSize: 4 });
      // the checkpoint anchored is the log's tree of the hashes in submission order, each behind its nonce
      const records = await log.store.recordsFrom(0, 4);
      expect(records.map((r) => r.subarray(16).toString("hex"))).to.deep.equal(leaves);
      const entries = Buffer.concat(records.map((r) => createHash("sha256").update(r).digest()));
      const root = rootOfLevels(treeLevels(hashPackedLeaves(entries)));
      expect(handed.map((c) => ({ size: c.size, root: c.root, origin: c.origin }))).to.deep.equal([
        { size: 4, root: Buffer.from(root).toString("hex"), origin: ORIGIN },
      ]);
      expect(await b.pendingCount()).to.equal(0);
      expect(await b.anchorRound()).to.deep.equal({ kind: "idle" });
      // the lookups hold what the round anchored
      expect((await log.lookup.find(Buffer.from(leaves[3]!, "hex"))).map((f) => f.index)).to.deep.equal([3]);
      // the request keeps no copy of its hashes now; its receipts read them from the log
      const doc = await store
        .collection<CalendarRequestDocument>(CALENDAR_REQUESTS)
        .findOne({ _id: first.receipts[0]!.receiptId.slice(0, 24) });
      expect(doc).to.not.have.property("hashes");
      expect(doc).to.not.have.property("nonces");
      expect(doc).to.include({ logEnd: 2, pendingLeaves: 0 });
      expect(await a.receipt(first.receipts[1]!.receiptId)).to.include({
        hash: leaves[1],
        status: "submitted",
        merkleRoot: handed[0]!.root,
      });
    });

    it("leaves the checkpoint for the next round when a round fails; the hashes stay pending", async () => {
      const failing = await open({
        anchorer: {
          build: () => Promise.reject(new Error("INSUFFICIENT_FUNDS: the service wallet cannot pay")),
          submit: () => Promise.resolve(),
        },
      });
      await failing.submit(hashes(3), CLIENT);
      await integrate();
      expect(await failing.anchorRound()).to.deep.equal({ kind: "failed", message: "INSUFFICIENT_FUNDS: the service wallet cannot pay" });
      expect(await failing.pendingCount()).to.equal(3);
      hold = false;
      expect(await (await open()).anchorRound()).to.include({ kind: "anchored", logSize: 3 });
    });

    it("anchors the latest checkpoint when the log grew, never the same twice; again when its round is lost; follows rollbacks", async () => {
      hold = false;
      const calendar = await open();
      const { receipts } = await calendar.submit(hashes(3), CLIENT);
      expect((await calendar.receipt(receipts[0]!.receiptId))?.status, "not in the log yet").to.equal("pending");
      await integrate();
      const first = await calendar.anchorRound();
      expect(first).to.include({ kind: "anchored", logSize: 3 });
      expect(await calendar.anchorRound(), "the same checkpoint is not anchored twice").to.deep.equal({ kind: "idle" });
      const firstTx = (first as { transactionHash: string }).transactionHash;
      expect((await calendar.receipt(receipts[0]!.receiptId))?.status).to.equal("submitted");
      expect(await calendar.anchoredCheckpointHolding(2), "not in a block yet").to.equal(undefined);
      mempool.delete(firstTx);
      blocks.add(firstTx);
      expect(await calendar.anchoredCheckpointHolding(2)).to.deep.include({ transactionHash: firstTx });
      expect(await calendar.anchoredCheckpointHolding(3), "entry 3 is not in a checkpoint of size 3").to.equal(undefined);
      const anchored = await calendar.receipt(receipts[2]!.receiptId);
      expect(anchored).to.include({ status: "anchored", transactionHash: firstTx, merkleRoot: handed[0]!.root });
      expect(anchored?.proofUrl).to.equal(`/api/v1/proof/${anchored?.hash}`);

      // the log grew: the next round anchors the larger checkpoint
      const more = await calendar.submit(hashes(2), CLIENT);
      await integrate();
      const second = await calendar.anchorRound();
      expect(second).to.include({ kind: "anchored", logSize: 5 });
      const secondTx = (second as { transactionHash: string }).transactionHash;
      expect((await calendar.receipt(more.receipts[0]!.receiptId))?.status).to.equal("submitted");

      // a rollback takes the first transaction out of its block: its entries are not anchored meanwhile
      blocks.delete(firstTx);
      expect(await calendar.anchoredCheckpointHolding(2)).to.equal(undefined);
      expect((await calendar.receipt(receipts[0]!.receiptId))?.status).to.equal("submitted");

      // the second transaction lost for good (two looks, the indexer may lag a block): the latest checkpoint is
      // anchored again, and holds the first three entries too
      mempool.clear();
      expect(await calendar.anchorRound(), "one look is not enough").to.deep.equal({ kind: "idle" });
      const again = await calendar.anchorRound();
      expect(again).to.include({ kind: "anchored", logSize: 5 });
      const thirdTx = (again as { transactionHash: string }).transactionHash;
      expect(thirdTx).to.not.equal(secondTx);
      expect(handed.map((c) => c.size)).to.deep.equal([3, 5, 5]);
      mempool.delete(thirdTx);
      blocks.add(thirdTx);
      expect(await calendar.anchoredCheckpointHolding(0)).to.deep.include({ transactionHash: thirdTx });
      expect((await calendar.receipt(receipts[0]!.receiptId))?.status).to.equal("anchored");

      // settled (no longer watched) SETTLE_MS after a round first saw it in a block
      expect(await calendar.anchorRound()).to.deep.equal({ kind: "idle" });
      ms += SETTLE_MS;
      await calendar.anchorRound();
      blocks.delete(thirdTx);
      expect(await calendar.anchorRound()).to.deep.equal({ kind: "idle" });
      expect(await calendar.anchorRound()).to.deep.equal({ kind: "idle" });
      expect(handed).to.have.length(3);
    });

    it("keeps one document per request; receipts follow each position into the log; unknown positions are null", async () => {
      hold = false;
      const calendar = await open();
      const first = hashes(6);
      const a = await calendar.submit(first, CLIENT);
      expect(await store.collection("merkle_calendar_requests").count({})).to.equal(1);
      expect(a.receipts.map((r) => r.hash)).to.deep.equal(first);
      expect((await calendar.receipt(a.receipts[5]!.receiptId))?.hash, "read from the request before the log takes it").to.equal(first[5]);
      await integrate();
      expect((await calendar.receipt(a.receipts[5]!.receiptId))?.hash, "read from the log's record after").to.equal(first[5]);
      expect(await calendar.receipt(`${a.receipts[0]!.receiptId.slice(0, 24)}00000006`), "past the request's end").to.equal(null);
    });
  });
});
