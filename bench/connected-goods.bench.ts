/**
 * Execution units (as % of the per-transaction limits) and transaction sizes of the connected-goods paths (shipped
 * build, scripts as reference inputs), measured through the devnet on real CSL-built transactions, and the
 * largest batch whose mint and first claim both fit one transaction. `npm run bench -- connected-goods`.
 */
import { randomBytes } from "node:crypto";
import { loadBlueprint } from "../shared/protocol";
import { batchIdOf } from "../shared/extensions/connected-goods/goods-token-names";
import { compareBatchItems, type BatchItem } from "../shared/extensions/connected-goods/batch-datum";
import { GoodsFixture, type TestItem } from "../fixtures/onchain/goods-fixture";
import { pathFigures, txLimitsOf } from "../fixtures/onchain/path-figures";
import { utf8Hex } from "../fixtures/onchain/test-chain";

/** `count` items named by `nameBytes`-byte names (the first one claimable); the rest get random key hashes. */
async function itemsOf(f: GoodsFixture, batchId: string, count: number, nameBytes: number): Promise<TestItem[]> {
  const first = (await f.itemsFor(batchId, 1, 1, "x".repeat(Math.max(1, nameBytes - 5))))[0]!;
  const rest: BatchItem[] = Array.from({ length: count - 1 }, (_, i) => ({
    tokenName: utf8Hex(`${String(i + 1).padStart(nameBytes, "0")}`.slice(-nameBytes)),
    itemKeyHash: randomBytes(28).toString("hex"),
  }));
  return [first, ...rest].sort(compareBatchItems) as TestItem[];
}

/** Builds (with evaluation) a mint of `count` items and the first claim from it, without submitting either. */
async function fits(f: GoodsFixture, count: number, nameBytes: number): Promise<{ mint: boolean; claim: boolean }> {
  const { issuer, alice } = f.actors;
  const seed = f.seedOf(issuer);
  const batchId = batchIdOf({ txHash: seed.transaction.id, index: seed.index });
  const items = await itemsOf(f, batchId, count, nameBytes);
  const mintSpec = f.mintBatchSpec(issuer, items, { seed });
  try {
    await f.chain.buildSigned(mintSpec, f.signersOf(mintSpec, issuer));
  } catch {
    return { mint: false, claim: false };
  }
  // the claim is built against the batch the mint creates
  await f.accept(mintSpec, issuer);
  const batch = f.findBatch(batchId);
  const claimable = items.find((x) => x.key !== undefined)!;
  const claimSpec = f.claimSpec(batch, claimable, alice);
  try {
    await f.chain.buildSigned(claimSpec, f.signersOf(claimSpec, alice));
    return { mint: true, claim: true };
  } catch {
    return { mint: true, claim: false };
  }
}

/** Largest n in [lo, hi] with ok(n), given ok is monotone (true then false). */
async function largest(lo: number, hi: number, ok: (n: number) => Promise<boolean>): Promise<number> {
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (await ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export default async function (): Promise<Record<string, unknown>> {
  const f = await GoodsFixture.create("shipped");
  const max = txLimitsOf(f.chain);
  const { issuer, alice, bob } = f.actors;
  const paths: Record<string, unknown> = {};

  const largestBatch: Record<string, unknown> = {};
  for (const nameBytes of [9, 32]) {
    const mintOnly = await largest(1, 600, async (n) => (await fits(f, n, nameBytes)).mint);
    const claimable = await largest(1, mintOnly, async (n) => (await fits(f, n, nameBytes)).claim);
    largestBatch[`${nameBytes}-byte item names`] = { mintFits: mintOnly, mintAndFirstClaimFit: claimable };
  }
  const biggest = (largestBatch["9-byte item names"] as { mintAndFirstClaimFit: number }).mintAndFirstClaimFit;

  for (const count of [1, 50, biggest]) {
    const seed = f.seedOf(issuer);
    const batchId = batchIdOf({ txHash: seed.transaction.id, index: seed.index });
    const items = await f.itemsFor(batchId, count, Math.min(count, 2), `b${String(count).padStart(3, "0")}`); // 9-byte names
    const res = await f.accept(f.mintBatchSpec(issuer, items, { seed }), issuer);
    paths[`mint batch of ${count} item${count === 1 ? "" : "s"}`] = pathFigures(res, max);
    if (count === biggest) paths[`claim first item of ${count}`] = pathFigures(await f.claim(f.findBatch(batchId), items[0]!, alice), max);
  }

  // the claim walks the list up to the item, so the last item of a large batch is the dearest claim
  {
    const seed = f.seedOf(issuer);
    const batchId = batchIdOf({ txHash: seed.transaction.id, index: seed.index });
    const items = await f.itemsFor(batchId, biggest, 0, "last"); // 9-byte names, as above
    const lastKey = await f.keyFor("last item", batchId, utf8Hex("zzzz-last"));
    const withLast: TestItem[] = [
      ...items.slice(0, biggest - 1),
      { text: "zzzz-last", tokenName: utf8Hex("zzzz-last"), itemKeyHash: lastKey.keyHash, key: lastKey },
    ];
    await f.accept(f.mintBatchSpec(issuer, withLast, { seed }), issuer);
    const res = await f.claim(f.findBatch(batchId), withLast[withLast.length - 1]!, bob);
    paths[`claim last item of ${biggest}`] = pathFigures(res, max);
    const up = await f.accept(f.hubSpendSpec(res.hub, bob), bob);
    paths["hub update"] = pathFigures(up, max);
    const hub = f.findHub(res.hub.name);
    const tr = await f.accept(f.hubSpendSpec(hub, bob, { redeemer: { type: "Transfer", newOwner: alice.paymentKeyHash } }), bob);
    paths["hub transfer"] = pathFigures(tr, max);
  }

  const blueprint = loadBlueprint();
  return {
    maxTx: max,
    scripts: Object.fromEntries(
      blueprint.validators
        .filter((v) => /^(connected_goods|social_hub)\./.test(v.title))
        .map((v) => [v.title, { hash: v.hash, unappliedBytes: v.compiledCode.length / 2 }]),
    ),
    appliedScriptBytes: { connectedGoods: f.scripts.connectedGoods.size, socialHub: f.scripts.socialHub.size },
    largestBatch,
    paths,
  };
}
