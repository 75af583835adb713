/**
 * What bounds the connected-goods key derivations (docs/connected-goods.md#limits): the per-client token bucket,
 * the process-wide scrypt runner (parallelism, payment, abandonment), and the read's cap on batch ids, each
 * derivation counted by the runner itself.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import {
  deriveItemKey,
  HubKey,
  HubKeys,
  kdfActivity,
  KdfAllowance,
  KdfBudget,
  KDF_PARALLEL,
  MAX_READ_BATCHES,
  readSocialHub,
  type GoodsEnv,
  type HubFact,
} from "../../../shared/extensions/connected-goods";
import { FakeClock } from "../../../fixtures/mesh/helpers";

const BATCH = "11".repeat(32);
const ITEM = Buffer.from("shoe-0001").toString("hex");

async function refusal(p: Promise<unknown>): Promise<{ type?: string; data?: Record<string, unknown>; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { type?: string; data?: Record<string, unknown>; message: string };
  }
  throw new Error("expected a refusal");
}

describe("connected goods: per-client budget of key derivations", function () {
  it("takes whole requests, refuses with the wait until enough is back, and refills at the rate", () => {
    const clock = new FakeClock();
    const budget = new KdfBudget({ burst: 10, perMinute: 6, now: clock.now });
    budget.take("a", 8);
    expect(budget.available("a")).to.equal(2);
    const err = (() => {
      try {
        budget.take("a", 5);
      } catch (e) {
        return e as { type: string; data: Record<string, unknown> };
      }
      throw new Error("expected a refusal");
    })();
    expect(err.type).to.equal("KDF_BUDGET_EXCEEDED");
    // 3 more tokens at 6 per minute: 30 s
    expect(err.data).to.include({ needed: 5, available: 2, burst: 10, perMinute: 6, retryAfterSeconds: 30 });
    expect(budget.available("a"), "a refused take takes nothing").to.equal(2);
    budget.take("b", 10);
    clock.advance(30_000);
    budget.take("a", 5);
    budget.give("a", 100);
    expect(budget.available("a"), "never above the burst").to.equal(10);
  });

  it("forgets clients whose bucket is full again, so memory stays bounded", () => {
    const clock = new FakeClock();
    const budget = new KdfBudget({ burst: 2, perMinute: 60, now: clock.now });
    for (let i = 0; i < 500; i++) budget.take(`10.0.${i >> 8}.${i & 255}`, 1);
    expect(budget.trackedClients).to.equal(500);
    clock.advance(60_000);
    budget.take("fresh", 1);
    expect(budget.trackedClients).to.equal(1);
  });

  it("with GOODS_KDF_PER_MINUTE=0 there is no budget", () => {
    const budget = new KdfBudget({ burst: 1, perMinute: 0, now: () => 0 });
    budget.take("a", 1_000);
    expect(new KdfAllowance(budget, "a").maxAtOnce).to.equal(Infinity);
  });
});

describe("connected goods: the scrypt runner", function () {
  this.timeout(60_000);

  it("derives nothing for a request already gone, and gives its payment back", async () => {
    const clock = new FakeClock();
    const budget = new KdfBudget({ burst: 5, perMinute: 1, now: clock.now });
    const gone = new AbortController();
    gone.abort(new Error("client gone"));
    const before = kdfActivity().runs;
    const err = await refusal(deriveItemKey("correct horse battery", BATCH, ITEM, new KdfAllowance(budget, "c", gone.signal)));
    expect(err.message).to.equal("client gone");
    expect(kdfActivity().runs).to.equal(before);
    expect(budget.available("c")).to.equal(5);
  });

  it(`runs at most ${KDF_PARALLEL} derivations at once in the process; those queued behind a request that is gone never start`, async () => {
    const leaving = new AbortController();
    const allowance = new KdfAllowance(undefined, "d", leaving.signal);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, kdfActivity().running)), 1);
    const before = kdfActivity().runs;
    const jobs = Array.from({ length: 12 }, (_, i) => deriveItemKey(`password number ${i}`, BATCH, ITEM, allowance));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (kdfActivity().runs > before) {
          clearInterval(check);
          leaving.abort(new Error("client gone"));
          resolve();
        }
      }, 1);
    });
    const outcomes = await Promise.allSettled(jobs);
    clearInterval(watch);
    const ran = kdfActivity().runs - before;
    expect(most).to.be.at.most(KDF_PARALLEL);
    expect(ran, "only those already running when the request left").to.be.at.most(KDF_PARALLEL);
    expect(outcomes.filter((o) => o.status === "rejected")).to.have.length(12 - ran);
  });

  it("gives a hub key to a reader that joined the derivation of another whose request is gone", async () => {
    const keys = new HubKeys("deployment");
    const itemId = "cd".repeat(32);
    // hold both slots, so the shared derivation waits for one
    const busy = Array.from({ length: KDF_PARALLEL }, (_, i) => deriveItemKey(`slot holder ${i}`, BATCH, ITEM));
    const leaving = new AbortController();
    const first = keys.get(itemId, BATCH, new KdfAllowance(undefined, "g", leaving.signal));
    const second = keys.get(itemId, BATCH, new KdfAllowance(undefined, "h"));
    leaving.abort(new Error("client gone"));
    expect((await refusal(first)).message).to.equal("client gone");
    expect(await second).to.be.instanceOf(HubKey);
    await Promise.all(busy);
  });

  it("charges a hub key to its caller once: a cached key is free", async () => {
    const budget = new KdfBudget({ burst: 1, perMinute: 1, now: () => 0 });
    const keys = new HubKeys("deployment");
    const itemId = "ab".repeat(32);
    await keys.get(itemId, BATCH, new KdfAllowance(budget, "e"));
    await keys.get(itemId, BATCH, new KdfAllowance(budget, "e"));
    expect((await refusal(keys.get(itemId, "22".repeat(32), new KdfAllowance(budget, "e")))).type).to.equal("KDF_BUDGET_EXCEEDED");
  });
});

describe("connected goods: what a hub read derives", function () {
  this.timeout(60_000);
  const sealedHub = (batchId: string): HubFact => ({
    type: "goods.hub",
    hubName: "cd".repeat(32),
    owner: "ef".repeat(28),
    batchId,
    itemName: ITEM,
    // sealed under a key no item id gives
    profile: new HubKey(randomBytes(32)).sealProfile(ITEM, { name: "someone's shoes" }),
    outRef: { txHash: "00".repeat(32), index: 0 },
    address: "addr_test1",
    lovelace: "2000000",
  });
  /** Batches that each have one claimed item, none of which the read's item id opens: every batch costs a key. */
  const env = {
    source: { batch: async () => null, hubs: async (batchId: string) => [sealedHub(batchId)] },
    hubKeys: new HubKeys("deployment"),
    networkId: 0,
  } as unknown as GoodsEnv;
  const batchIds = (n: number) => Array.from({ length: n }, () => randomBytes(32).toString("hex")).join(",");

  it(`refuses more than ${MAX_READ_BATCHES} batch ids before deriving anything`, async () => {
    const before = kdfActivity().runs;
    const err = await refusal(readSocialHub(env, batchIds(MAX_READ_BATCHES + 1), "aa".repeat(32)));
    expect(err.type).to.equal("INVALID_CONTEXT");
    expect(err.data).to.include({ max: MAX_READ_BATCHES });
    expect(kdfActivity().runs).to.equal(before);
  });

  it(`derives at most ${MAX_READ_BATCHES} keys per read, each paid from the client's budget`, async () => {
    const budget = new KdfBudget({ burst: MAX_READ_BATCHES + 3, perMinute: 1, now: () => 0 });
    const before = kdfActivity().runs;
    const err = await refusal(readSocialHub(env, batchIds(MAX_READ_BATCHES), "aa".repeat(32), new KdfAllowance(budget, "f")));
    expect(err.type).to.equal("WRONG_PASSWORD");
    expect(kdfActivity().runs - before).to.equal(MAX_READ_BATCHES);
    expect(budget.available("f")).to.equal(3);
    // the next read needs more than is left: refused after the three it could pay
    const spent = await refusal(readSocialHub(env, batchIds(MAX_READ_BATCHES), "bb".repeat(32), new KdfAllowance(budget, "f")));
    expect(spent.type).to.equal("KDF_BUDGET_EXCEEDED");
    expect(kdfActivity().runs - before).to.equal(MAX_READ_BATCHES + 3);
  });
});
