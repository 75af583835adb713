/**
 * connected_goods mint (MintBatch, BurnBatch) and Close: accepted transactions, and one phase-2 rejection per
 * broken condition, for the trace build (which rule failed) and the shipped build.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { bytes, constr, dataToCborHex, list } from "../../shared/protocol";
import { batchIdOf } from "../../shared/extensions/connected-goods/goods-token-names";
import { encodeBatchDatum, encodeBatchItem, type BatchItem } from "../../shared/extensions/connected-goods/batch-datum";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { GoodsFixture, type BatchUtxo } from "../../fixtures/onchain/goods-fixture";
import { utf8Hex } from "../../fixtures/onchain/test-chain";

const ITEMS_RULE = "items are well formed and sorted";
const keyHash = () => randomBytes(28).toString("hex");

for (const kind of BUILDS) {
  describe(`connected_goods MintBatch (${kind} build)`, function () {
    this.timeout(180_000);
    let f: GoodsFixture;
    let items: BatchItem[];

    before(async () => {
      f = await GoodsFixture.create(kind);
      items = await f.itemsFor("00".repeat(32), 3, 0);
    });

    it("accepts a batch of one item, named by the spent seed, held at the script with its datum", async () => {
      const { batch } = await f.mintBatch(f.actors.issuer, 1, 0, "single");
      const seedName = batch.datum.batchId;
      expect(batch.datum.issuer).to.equal(f.actors.issuer.paymentKeyHash);
      expect(batch.datum.hubPolicy).to.equal(f.hubPolicy);
      expect(batch.datum.items).to.have.length(1);
      expect(Object.keys(batch.utxo.value)).to.have.members(["ada", f.goodsPolicy]);
      expect((batch.utxo.value as Record<string, Record<string, bigint>>)[f.goodsPolicy]).to.deep.equal({ [seedName]: 1n });
    });

    it("accepts a batch of several items at the script address staked by the issuer", async () => {
      const address = f.goodsAddressStakedBy(f.actors.issuer);
      const spec = f.mintBatchSpec(f.actors.issuer, items, { output: { address } });
      await f.accept(spec, f.actors.issuer);
      const batchId = Object.keys(spec.mints![0]!.assets)[0]!;
      expect(f.findBatch(batchId, address).datum.items).to.deep.equal(
        items.map(({ tokenName, itemKeyHash }) => ({ tokenName, itemKeyHash })),
      );
    });

    it("rejects a batch id derived from an input the transaction does not spend", async () => {
      const unspent = f.utxosOf(f.actors.alice)[0]!;
      const ref = { txHash: unspent.transaction.id, index: unspent.index };
      await f.reject(
        f.mintBatchSpec(f.actors.issuer, items, { redeemerSeed: ref, batchId: batchIdOf(ref) }),
        f.actors.issuer,
        "seed input is spent",
      );
    });

    it("rejects a batch id not derived from the seed", async () => {
      await f.reject(
        f.mintBatchSpec(f.actors.issuer, items, { batchId: randomBytes(32).toString("hex") }),
        f.actors.issuer,
        "batch token is named by the seed",
      );
    });

    it("rejects a second token minted under the batch policy", async () => {
      const batchId = batchIdOf({ txHash: f.seedOf(f.actors.issuer).transaction.id, index: f.seedOf(f.actors.issuer).index });
      const extra = "ff".repeat(32); // sorts after the batch token, which stays the policy's first asset
      const spec = f.mintBatchSpec(f.actors.issuer, items, {
        assets: { [batchId]: 1n, [extra]: 1n },
        extraOutputs: [{ address: f.actors.issuer.address, assets: { [f.goodsPolicy]: { [extra]: 1n } } }],
      });
      await f.reject(spec, f.actors.issuer, "exactly one batch token is minted");
    });

    it("rejects two units of the batch token (then no output holds exactly one)", async () => {
      const batchId = batchIdOf({ txHash: f.seedOf(f.actors.issuer).transaction.id, index: f.seedOf(f.actors.issuer).index });
      const spec = f.mintBatchSpec(f.actors.issuer, items, {
        assets: { [batchId]: 2n },
        output: { assets: { [f.goodsPolicy]: { [batchId]: 2n } } },
      });
      await f.reject(spec, f.actors.issuer, ["exactly one batch token is minted", "batch token is in an output"]);
    });

    it("rejects a batch sent to the issuer instead of the script", async () => {
      await f.reject(
        f.mintBatchSpec(f.actors.issuer, items, { output: { address: f.actors.issuer.address } }),
        f.actors.issuer,
        "batch output is at the batch address",
      );
    });

    it("rejects a batch output holding another token", async () => {
      const batchId = batchIdOf({ txHash: f.seedOf(f.actors.issuer).transaction.id, index: f.seedOf(f.actors.issuer).index });
      const stray = f.strayMint(f.actors.issuer);
      const spec = f.mintBatchSpec(f.actors.issuer, items, {
        extraMints: [stray.mint],
        output: { assets: { [f.goodsPolicy]: { [batchId]: 1n }, [stray.policy]: stray.mint.assets } },
      });
      await f.reject(spec, f.actors.issuer, "batch output holds only ADA and the batch token");
    });

    it("rejects a datum with an extra field", async () => {
      const spec = f.mintBatchSpec(f.actors.issuer, items, {
        datum: (d) => {
          const e = encodeBatchDatum(d) as { constr: number; fields: never[] };
          return constr(0, [...e.fields, bytes("00")]);
        },
      });
      await f.reject(spec, f.actors.issuer, "batch datum is well formed");
    });

    it("rejects a hub policy that is not a script hash", async () => {
      await f.reject(
        f.mintBatchSpec(f.actors.issuer, items, { datum: (d) => ({ ...d, hubPolicy: "ab".repeat(27) }) }),
        f.actors.issuer,
        "batch datum is well formed",
      );
    });

    it("rejects a datum naming another batch", async () => {
      await f.reject(
        f.mintBatchSpec(f.actors.issuer, items, { datum: (d) => ({ ...d, batchId: randomBytes(32).toString("hex") }) }),
        f.actors.issuer,
        "batch datum names its token",
      );
    });

    it("rejects a batch minted without the issuer's signature", async () => {
      await f.reject(f.mintBatchSpec(f.actors.issuer, items, { signers: [] }), f.actors.issuer, "issuer signed");
    });

    it("rejects a datum naming an issuer who did not sign", async () => {
      await f.reject(
        f.mintBatchSpec(f.actors.issuer, items, { datum: (d) => ({ ...d, issuer: f.actors.alice.paymentKeyHash }) }),
        f.actors.issuer,
        "issuer signed",
      );
    });

    it("rejects an empty item list", async () => {
      await f.reject(f.mintBatchSpec(f.actors.issuer, []), f.actors.issuer, "items are present");
    });

    const [a, b, c] = ["a", "b", "c"].map((t) => ({ tokenName: utf8Hex(t), itemKeyHash: "11".repeat(28) }));
    for (const [what, bad] of [
      ["unsorted items", () => [b!, a!, c!].map(encodeBatchItem)],
      ["a repeated item name", () => [a!, b!, { ...b!, itemKeyHash: keyHash() }].map(encodeBatchItem)],
      ["an empty item name", () => [{ ...a!, tokenName: "" }, b!].map(encodeBatchItem)],
      ["an item name over 32 bytes", () => [a!, { ...b!, tokenName: "62".repeat(33) }].map(encodeBatchItem)],
      ["an item key hash of 27 bytes", () => [a!, { ...b!, itemKeyHash: "11".repeat(27) }].map(encodeBatchItem)],
      ["an item with an extra field", () => [encodeBatchItem(a!), constr(0, [bytes(b!.tokenName), bytes(b!.itemKeyHash), bytes("00")])]],
      ["an item with another constructor", () => [encodeBatchItem(a!), constr(1, [bytes(b!.tokenName), bytes(b!.itemKeyHash)])]],
    ] as const) {
      it(`rejects ${what}`, async () => {
        const spec = f.mintBatchSpec(f.actors.issuer, [], {
          datum: (d) => constr(0, [bytes(d.batchId), bytes(d.issuer), bytes(d.hubPolicy), list(bad())]),
        });
        await f.reject(spec, f.actors.issuer, ITEMS_RULE);
      });
    }

    it("rejects a batch whose datum is only a hash (no inline datum; fails before any rule)", async () => {
      const spec = f.mintBatchSpec(f.actors.issuer, items, { output: { inlineDatum: undefined, datumHash: "00".repeat(32) } });
      await f.reject(spec, f.actors.issuer, []);
    });
  });

  describe(`connected_goods Close and BurnBatch (${kind} build)`, function () {
    this.timeout(180_000);
    let f: GoodsFixture;
    let empty: BatchUtxo;
    let emptyToo: BatchUtxo;
    let open: BatchUtxo;

    /** A batch of one item, claimed by alice: an empty batch. */
    async function emptyBatch(prefix: string): Promise<BatchUtxo> {
      const { batch, items } = await f.mintBatch(f.actors.issuer, 1, 1, prefix);
      return (await f.claim(batch, items[0]!, f.actors.alice)).batch;
    }

    before(async () => {
      f = await GoodsFixture.create(kind);
      empty = await emptyBatch("one");
      emptyToo = await emptyBatch("two");
      open = (await f.mintBatch(f.actors.issuer, 1, 0, "open")).batch;
      expect(empty.datum.items).to.deep.equal([]);
    });

    it("rejects closing a batch with an unclaimed item", async () => {
      await f.reject(f.closeSpec(open, f.actors.issuer), f.actors.issuer, "every item is claimed");
    });

    it("rejects a close the issuer did not sign", async () => {
      await f.reject(f.closeSpec(empty, f.actors.alice, { signers: [f.actors.alice.paymentKeyHash] }), f.actors.alice, "issuer signed");
    });

    it("rejects a close that keeps the batch token instead of burning it", async () => {
      const spec = f.closeSpec(empty, f.actors.issuer, {
        mints: [],
        outputs: [{ address: f.actors.issuer.address, assets: { [f.goodsPolicy]: { [empty.datum.batchId]: 1n } } }],
      });
      await f.reject(spec, f.actors.issuer, "batch token is burned");
    });

    it("rejects two batches closed by one transaction", async () => {
      const spec = f.closeSpec(empty, f.actors.issuer, {
        extraInputs: [{ utxo: emptyToo.utxo, script: f.goodsWitness(), redeemer: dataToCborHex(constr(1)) }],
        mints: [f.goodsMint({ [empty.datum.batchId]: -1n, [emptyToo.datum.batchId]: -1n }, { type: "BurnBatch" })],
      });
      // each close also sees a burn of two tokens where it allows exactly its own
      await f.reject(spec, f.actors.issuer, ["exactly one batch input", "batch token is burned"]);
    });

    it("rejects minting under BurnBatch", async () => {
      const name = utf8Hex("minted-by-burn");
      const spec = {
        utxos: f.utxosOf(f.actors.issuer),
        changeAddress: f.actors.issuer.address,
        mints: [f.goodsMint({ [name]: 1n }, { type: "BurnBatch" })],
        outputs: [{ address: f.actors.issuer.address, assets: { [f.goodsPolicy]: { [name]: 1n } } }],
      };
      await f.reject(spec, f.actors.issuer, "batch tokens are only burned");
    });

    it("accepts the issuer closing an empty batch: the token is burned and the ADA is free", async () => {
      await f.accept(f.closeSpec(empty, f.actors.issuer), f.actors.issuer);
      expect(() => f.findBatch(empty.datum.batchId)).to.throw(/not found/);
    });
  });
}
