/**
 * The calendar's rules that need no chain: who may submit (mainnet only with the API key, nobody when disabled),
 * the configuration bounds, the pending-leaves bound, and one round at a time across replicas sharing a store.
 * The anchoring itself (build, sign, submit on the devnet) is covered by test/merkle/calendar.spec.ts; here the
 * anchorer only records what it was handed.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { loadConfig, NETWORKS } from "../../../shared/config/config";
import { httpStatusOfType } from "../../../shared/gateway/http-status";
import {
  buildTree,
  checkCalendarAccess,
  MerkleCalendar,
  MerkleTreeStore,
  SETTLE_MS,
  type AnchorableCheckpoint,
  type CalendarAnchorer,
  type CalendarChainView,
} from "../../../shared/merkle";
import { createStore, type Store } from "../../../shared/store";
import { DataHash } from "../../../shared/domain/hex";

const caught = (run: () => unknown): { type: string; message: string; data?: Record<string, unknown> } => {
  try {
    run();
  } catch (err) {
    return err as { type: string; message: string };
  }
  return expect.fail("expected a refusal");
};
const hashes = (n: number) => Array.from({ length: n }, () => randomBytes(32).toString("hex"));
const SETTINGS = { intervalMs: 60_000, maxLeaves: 100, maxPending: 10, maxPendingPerClient: 100, maxHashesPerRequest: 6 };
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

  it("reads its configuration with defaults, and refuses limits above the batch and body limits", () => {
    expect(loadConfig({}).batchCalendar).to.deep.equal({
      enabled: true,
      intervalMs: 60_000,
      log: { origin: "localhost/cert-anchor/devnet", signerKey: null, integrateMs: 500, witnesses: [] },
      maxLeaves: 100_000,
      maxPending: 1_000_000,
      maxPendingPerClient: 100_000,
      apiKeys: [],
      maxHashesPerRequest: 5_000,
    });
    expect(loadConfig({ BATCH_CALENDAR_ENABLED: "false" }).batchCalendar.enabled).to.equal(false);
    expect(() => loadConfig({ BATCH_MAX_LEAVES: "1000001" })).to.throw(/BATCH_MAX_LEAVES=1000001 must be at most 1000000/);
    expect(() => loadConfig({ BATCH_SUBMIT_MAX_HASHES: "7001" })).to.throw(/BATCH_SUBMIT_MAX_HASHES=7001 must be at most 7000/);
    expect(() => loadConfig({ BATCH_INTERVAL_MS: "5" })).to.throw(/BATCH_INTERVAL_MS=5 must be an integer >= 100/);
  });

  describe("over a store shared by two replicas", () => {
    let store: Store;
    const handed: number[] = [];
    let hold = true;
    let release: () => void = () => undefined;
    // where the rounds' transactions are, as the test decides
    const mempool = new Set<string>();
    const blocks = new Set<string>();
    const chain: CalendarChainView = {
      onChain: async (txId) => blocks.has(txId),
      inMempoolAmong: async (txIds) => new Set(txIds.filter((t) => mempool.has(t))),
    };
    const anchorer: CalendarAnchorer = {
      async build({ tree }) {
        handed.push(tree!.leafCount);
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
    const open = async () =>
      MerkleCalendar.open({ store, trees: await MerkleTreeStore.open(store, now), anchorer, chain, settings: SETTINGS, now });

    beforeEach(async () => {
      store = await createStore({ inMemory: true });
      handed.length = 0;
      hold = true;
      mempool.clear();
      blocks.clear();
    });
    afterEach(() => store.close());

    it("refuses more than maxPending waiting leaves with CALENDAR_FULL (429) and records nothing of that request", async () => {
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

    it("refuses a client more than maxPendingPerClient waiting leaves with CALENDAR_FULL, while other clients still submit", async () => {
      const calendar = await MerkleCalendar.open({
        store,
        trees: await MerkleTreeStore.open(store, now),
        anchorer,
        chain,
        settings: { ...SETTINGS, maxPending: 100, maxPendingPerClient: 8 },
        now,
      });
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
      const calendar = await MerkleCalendar.open({
        store,
        trees: await MerkleTreeStore.open(store, now),
        anchorer,
        chain,
        settings: { ...SETTINGS, maxLeaves: 10_000, maxPending: 10_000, maxPendingPerClient: 10_000, maxHashesPerRequest: 7_000 },
        now,
      });
      const answer = await calendar.submit(hashes(7_000), CLIENT);
      expect(answer.receipts).to.have.length(7_000);
      expect(Buffer.byteLength(JSON.stringify(answer))).to.be.below(1_000_000);
    });

    it("lets one replica anchor at a time: the other's round is busy; the leaves go into one tree and stop being pending", async () => {
      const a = await open();
      const b = await open();
      const leaves = hashes(4);
      await a.submit(leaves.slice(0, 2), CLIENT);
      await b.submit(leaves.slice(2), CLIENT);
      const roundA = a.anchorRound();
      while (handed.length === 0) await new Promise((r) => setTimeout(r, 5));
      expect(await b.anchorRound()).to.deep.equal({ kind: "busy" });
      release();
      const outcome = await roundA;
      expect(outcome).to.include({ kind: "anchored", leafCount: 4 });
      expect(handed).to.deep.equal([4]);
      expect(await b.pendingCount()).to.equal(0);
      expect(await b.anchorRound()).to.deep.equal({ kind: "idle" });
      // the tree of the round is the tree of the leaves in submission order (by request, then within it)
      const expected = buildTree(Buffer.from(leaves.join(""), "hex"));
      expect(outcome).to.include({ root: expected.root.toString("hex"), treeId: expected.treeId });
    });

    it("keeps the leaves pending when a round fails, for the next round", async () => {
      const failing = await MerkleCalendar.open({
        store,
        trees: await MerkleTreeStore.open(store, Date.now),
        anchorer: {
          build: () => Promise.reject(new Error("INSUFFICIENT_FUNDS: the service wallet cannot pay")),
          submit: () => Promise.resolve(),
        },
        chain,
        settings: SETTINGS,
        now: Date.now,
      });
      await failing.submit(hashes(3), CLIENT);
      expect(await failing.anchorRound()).to.deep.equal({ kind: "failed", message: "INSUFFICIENT_FUNDS: the service wallet cannot pay" });
      expect(await failing.pendingCount()).to.equal(3);
    });

    it("anchors the log's latest checkpoint when the log grew, alone when no leaf waits; again when its round is lost", async () => {
      hold = false;
      const parts: { leaves?: number; logSize?: number }[] = [];
      let latest: AnchorableCheckpoint | undefined = { origin: "example.test/log", size: 10, root: "ab".repeat(32), note: "note 10\n" };
      const calendar = await MerkleCalendar.open({
        store,
        trees: await MerkleTreeStore.open(store, now),
        anchorer: {
          async build({ tree, checkpoint }) {
            parts.push({ ...(tree ? { leaves: tree.leafCount } : {}), ...(checkpoint ? { logSize: checkpoint.size } : {}) });
            return { cborHex: "", txId: randomBytes(32).toString("hex"), expiresAtMs: now() + 600_000 };
          },
          async submit(_cborHex, txId) {
            mempool.add(txId);
          },
        },
        chain,
        settings: SETTINGS,
        now,
        log: { latestCheckpoint: async () => latest },
      });
      // no leaf waits, the log holds 10 entries no round anchored: a round of the checkpoint alone
      const first = await calendar.anchorRound();
      expect(first).to.include({ kind: "anchored", leafCount: 0, logSize: 10 });
      expect(first).to.not.have.property("treeId");
      expect(await calendar.anchorRound(), "the same checkpoint is not anchored twice").to.deep.equal({ kind: "idle" });
      const firstTx = (first as { transactionHash: string }).transactionHash;
      expect(await calendar.anchoredCheckpointHolding(9), "not in a block yet").to.equal(undefined);
      mempool.delete(firstTx);
      blocks.add(firstTx);
      expect(await calendar.anchoredCheckpointHolding(9)).to.deep.include({ transactionHash: firstTx });
      expect(await calendar.anchoredCheckpointHolding(10), "entry 10 is not in a checkpoint of size 10").to.equal(undefined);

      // leaves and a grown log: one transaction anchors both
      latest = { ...latest!, size: 13, note: "note 13\n" };
      await calendar.submit(hashes(3), CLIENT);
      expect(await calendar.anchorRound()).to.include({ kind: "anchored", leafCount: 3, logSize: 13 });

      // a rollback takes the first transaction out of its block: the entry is no longer anchored meanwhile
      blocks.delete(firstTx);
      expect(await calendar.anchoredCheckpointHolding(9)).to.equal(undefined);
      expect(parts).to.deep.equal([{ logSize: 10 }, { leaves: 3, logSize: 13 }]);

      // both transactions lost for good (two looks): the leaves and the latest checkpoint are anchored again
      mempool.clear();
      expect(await calendar.anchorRound()).to.deep.equal({ kind: "idle" });
      expect(await calendar.anchorRound()).to.include({ kind: "anchored", leafCount: 3, logSize: 13 });
      expect(parts).to.have.length(3);
    });

    it("anchors again the leaves of a round whose transaction is lost (neither in a block nor in the mempool, twice)", async () => {
      hold = false;
      const calendar = await open();
      const { receipts } = await calendar.submit(hashes(3), CLIENT);
      const first = await calendar.anchorRound();
      expect(first).to.include({ kind: "anchored", leafCount: 3 });
      const firstTx = (first as { transactionHash: string }).transactionHash;
      expect((await calendar.receipt(receipts[0]!.receiptId))?.status).to.equal("submitted");

      mempool.delete(firstTx); // dropped: it expired, or a rollback could not take it back
      expect(await calendar.anchorRound(), "one look is not enough: the indexer may lag a block").to.deep.equal({ kind: "idle" });
      expect(await calendar.pendingCount()).to.equal(0);
      const again = await calendar.anchorRound();
      expect(again).to.include({ kind: "anchored", leafCount: 3, treeId: (first as { treeId: string }).treeId });
      const secondTx = (again as { transactionHash: string }).transactionHash;
      expect(secondTx).to.not.equal(firstTx);
      expect(handed).to.deep.equal([3, 3]);

      // on chain: anchored once the verifier has joined the tree to the lookups, never lost, and settled (no longer
      // watched) after SETTLE_MS
      mempool.delete(secondTx);
      blocks.add(secondTx);
      expect((await calendar.receipt(receipts[2]!.receiptId))?.status, "no proof is served yet").to.equal("submitted");
      const { treeId, root } = again as { treeId: string; root: string };
      expect(await (await MerkleTreeStore.open(store, now)).markAnchored(treeId, DataHash(root), 3)).to.equal(true);
      expect((await calendar.receipt(receipts[2]!.receiptId))?.status).to.equal("anchored");
      expect(await calendar.anchorRound()).to.deep.equal({ kind: "idle" });
      expect(await calendar.anchorRound()).to.deep.equal({ kind: "idle" });
      expect(handed).to.have.length(2);
      ms += SETTLE_MS;
      await calendar.anchorRound();
      blocks.delete(secondTx); // a settled round is not looked at again
      expect(await calendar.anchorRound()).to.deep.equal({ kind: "idle" });
      expect(await calendar.anchorRound()).to.deep.equal({ kind: "idle" });
      expect(handed).to.have.length(2);
    });

    it("stores a request as one document yet splits it across rounds at maxLeaves; receipts follow each position, a lost round frees only its part", async () => {
      hold = false;
      const calendar = await MerkleCalendar.open({
        store,
        trees: await MerkleTreeStore.open(store, now),
        anchorer,
        chain,
        settings: { ...SETTINGS, maxLeaves: 4 },
        now,
      });
      const first = hashes(6);
      const second = hashes(3);
      const a = await calendar.submit(first, CLIENT);
      const b = await calendar.submit(second, CLIENT);
      expect(await store.collection("merkle_calendar_requests").count({})).to.equal(2);
      expect(a.receipts.map((r) => r.hash)).to.deep.equal(first);
      expect(new Set([...a.receipts, ...b.receipts].map((r) => r.receiptId)).size).to.equal(9);
      expect((await calendar.receipt(a.receipts[5]!.receiptId))?.hash).to.equal(first[5]);

      const r1 = (await calendar.anchorRound()) as { kind: string; treeId: string; root: string; transactionHash: string };
      expect(r1).to.include({
        kind: "anchored",
        leafCount: 4,
        root: buildTree(Buffer.from(first.slice(0, 4).join(""), "hex")).root.toString("hex"),
      });
      const r2 = (await calendar.anchorRound()) as { kind: string; treeId: string; root: string };
      const rest = [...first.slice(4), ...second.slice(0, 2)];
      expect(r2).to.include({ kind: "anchored", leafCount: 4, root: buildTree(Buffer.from(rest.join(""), "hex")).root.toString("hex") });
      expect(await calendar.pendingCount()).to.equal(1);
      expect((await calendar.receipt(a.receipts[3]!.receiptId))?.treeId).to.equal(r1.treeId);
      expect((await calendar.receipt(a.receipts[4]!.receiptId))?.treeId).to.equal(r2.treeId);
      expect((await calendar.receipt(b.receipts[2]!.receiptId))?.status).to.equal("pending");
      expect(await calendar.receipt(`${a.receipts[0]!.receiptId.slice(0, 24)}00000006`), "past the request's end").to.equal(null);

      // the first round's transaction is lost: its four leaves wait again, ahead of any newer one, and are anchored again
      mempool.delete(r1.transactionHash);
      const r3 = await calendar.anchorRound(); // one look is not enough (the indexer may lag); the last leaf goes
      expect(r3).to.include({ kind: "anchored", leafCount: 1 });
      expect((await calendar.receipt(b.receipts[2]!.receiptId))?.status).to.equal("submitted");
      const again = await calendar.anchorRound();
      expect(again).to.include({ kind: "anchored", leafCount: 4, treeId: r1.treeId });
      expect(await calendar.pendingCount()).to.equal(0);
      expect((await calendar.receipt(a.receipts[0]!.receiptId))?.transactionHash).to.equal(
        (again as { transactionHash: string }).transactionHash,
      );
      expect((await calendar.receipt(a.receipts[5]!.receiptId))?.treeId).to.equal(r2.treeId);
    });
  });
});
