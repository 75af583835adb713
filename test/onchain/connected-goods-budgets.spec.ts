/**
 * Execution budgets and sizes of the connected-goods paths (shipped build, scripts as reference inputs) stay
 * inside the per-transaction limits, up to the largest batch the service mints (MAX_BATCH_DATUM_BYTES): its mint,
 * the claim of its first and of its last item (the claim walks the item list), and hub update and transfer.
 * `npm run bench -- connected-goods` prints the figures and searches the absolute largest batch.
 */
import { expect } from "chai";
import { MAX_BATCH_DATUM_BYTES, checkBatchDatumSize } from "../../shared/extensions/connected-goods/batch-datum";
import { batchIdOf } from "../../shared/extensions/connected-goods/goods-token-names";
import { GoodsFixture, type TestItem } from "../../fixtures/onchain/goods-fixture";
import { totalBudget, txLimitsOf } from "../../fixtures/onchain/path-figures";
import { type Budget, utf8Hex } from "../../fixtures/onchain/test-chain";

describe("connected-goods budgets and sizes (shipped build)", function () {
  this.timeout(240_000);

  it("keeps every path inside the per-transaction limits up to the largest batch the service mints", async () => {
    const f = await GoodsFixture.create("shipped");
    const max = txLimitsOf(f.chain);
    const { issuer, alice, bob } = f.actors;
    const runs: [string, { budgets: Budget[]; size: number }][] = [];

    runs.push(["mint of 1 item", await f.mintBatch(issuer, 1, 1, "b001")]);
    runs.push(["mint of 50 items", await f.mintBatch(issuer, 50, 1, "b050")]);

    // the largest batch: 9-byte names, the first and the last one claimable
    const seed = f.seedOf(issuer);
    const batchId = batchIdOf({ txHash: seed.transaction.id, index: seed.index });
    const [first] = await f.itemsFor(batchId, 1, 1, "aaaa");
    const lastName = utf8Hex("zzzz-last");
    const lastKey = await f.keyFor("the last item's password", batchId, lastName);
    const last: TestItem = { text: "zzzz-last", tokenName: lastName, itemKeyHash: lastKey.keyHash, key: lastKey };
    const middle = await f.itemsFor(batchId, 313, 0, "mmmm");
    const items = [first!, ...middle, last];
    const size = checkBatchDatumSize(f.batchDatumOf(issuer, batchId, items));
    expect(size, "the batch is at the service's limit").to.be.above(MAX_BATCH_DATUM_BYTES - 100);
    runs.push([`mint of ${items.length} items`, await f.accept(f.mintBatchSpec(issuer, items, { seed }), issuer)]);
    const firstClaim = await f.claim(f.findBatch(batchId), first!, alice);
    runs.push([`claim of the first of ${items.length}`, firstClaim]);
    const lastClaim = await f.claim(firstClaim.batch, last, bob);
    runs.push([`claim of the last of ${items.length - 1}`, lastClaim]);
    runs.push(["hub update", await f.accept(f.hubSpendSpec(lastClaim.hub, bob), bob)]);
    runs.push([
      "hub transfer",
      await f.accept(
        f.hubSpendSpec(f.findHub(lastClaim.hub.name), bob, { redeemer: { type: "Transfer", newOwner: alice.paymentKeyHash } }),
        bob,
      ),
    ]);

    for (const [name, run] of runs) {
      const t = totalBudget(run.budgets);
      expect(t.memory, `${name}: memory`).to.be.below(max.memory * 0.5);
      expect(t.cpu, `${name}: cpu`).to.be.below(max.cpu * 0.5);
      expect(run.size, `${name}: tx size`).to.be.at.most(max.bytes);
    }
    // the claim walks the list: the last item costs more than the first, and the hub operations stay small
    expect(totalBudget(lastClaim.budgets).memory).to.be.above(totalBudget(firstClaim.budgets).memory);
    expect(runs.find(([n]) => n === "hub update")![1].size).to.be.below(2_000);
  });
});
