/**
 * A claim: connected_goods spend (Claim) together with the social_hub mint. Accepted claims, and one phase-2
 * rejection per broken condition of either script, for the trace build (which rule failed) and the shipped build.
 */
import { createHash, randomBytes } from "node:crypto";
import { expect } from "chai";
import { type Data, bytes, constr, dataToCborHex } from "../../shared/protocol";
import { type BatchItem, encodeBatchDatum } from "../../shared/extensions/connected-goods/batch-datum";
import { type SocialHubDatum, encodeSocialHubDatum } from "../../shared/extensions/connected-goods/social-hub-datum";
import { batchIdOf, hubTokenNameOf } from "../../shared/extensions/connected-goods/goods-token-names";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { GoodsFixture, sampleProfile, type BatchUtxo, type TestItem } from "../../fixtures/onchain/goods-fixture";
import { utf8Hex } from "../../fixtures/onchain/test-chain";

const DATUM_RULE = "batch datum loses exactly the claimed item";
const VALUE_RULE = "batch value is unchanged";
const HUB_MINT_RULE = "one hub token is minted for the item";

for (const kind of BUILDS) {
  describe(`claim: connected_goods Claim and social_hub mint (${kind} build)`, function () {
    this.timeout(240_000);
    let f: GoodsFixture;
    let batch: BatchUtxo;
    let items: TestItem[];
    let other: BatchUtxo;
    let otherItems: TestItem[];

    before(async () => {
      f = await GoodsFixture.create(kind);
      ({ batch, items } = await f.mintBatch(f.actors.issuer, 10, 10, "shoe"));
      ({ batch: other, items: otherItems } = await f.mintBatch(f.actors.issuer, 2, 2, "cap"));
    });

    const current = () => f.findBatch(batch.datum.batchId);
    const unclaimed = (i: number): TestItem => {
      const names = new Set(current().datum.items.map((x) => x.tokenName));
      const it = items.filter((x) => names.has(x.tokenName))[i];
      if (!it) throw new Error(`no unclaimed item #${i}`);
      return it;
    };
    const { alice, bob, issuer } = { alice: () => f.actors.alice, bob: () => f.actors.bob, issuer: () => f.actors.issuer };

    // ---- accepted ---------------------------------------------------------------------------------------------

    it("accepts a claim of a middle item: batch recreated without it, hub minted for the buyer; no password on chain", async () => {
      const b = current();
      const it = items[2]!;
      const spec = f.claimSpec(b, it, alice());
      const { cborHex } = await f.chain.buildSigned(spec, f.signersOf(spec, alice()));
      const tx = Buffer.from(cborHex, "hex");
      const pw = Buffer.from(it.password!, "utf8");
      for (const secret of [pw, createHash("sha256").update(pw).digest(), createHash("sha3-256").update(pw).digest()]) {
        expect(tx.includes(secret), `claim bytes contain ${secret.toString("hex")}`).to.equal(false);
        expect(cborHex.includes(secret.toString("hex"))).to.equal(false);
      }
      await f.accept(spec, alice());
      const after = current();
      expect(after.datum.items.map((x) => x.tokenName)).to.deep.equal(
        b.datum.items.filter((x) => x.tokenName !== it.tokenName).map((x) => x.tokenName),
      );
      expect(after.utxo.value).to.deep.equal(b.utxo.value);
      const hub = f.findHub(hubTokenNameOf(b.datum.batchId, it.tokenName));
      expect(hub.datum.owner).to.equal(alice().paymentKeyHash);
      expect(hub.datum.itemName).to.equal(it.tokenName);
      expect(hub.datum.batchId).to.equal(b.datum.batchId);
    });

    it("accepts claims of the first and of the last item", async () => {
      const first = unclaimed(0);
      await f.claim(current(), first, bob());
      const remaining = current().datum.items;
      const last = items.find((x) => x.tokenName === remaining[remaining.length - 1]!.tokenName)!;
      await f.claim(current(), last, alice());
      expect(current().datum.items.map((x) => x.tokenName)).to.not.include.members([first.tokenName, last.tokenName]);
    });

    it("accepts two claims of one batch in the same block (the second spends the first's unconfirmed batch)", async () => {
      const b = current();
      const [x, y] = [unclaimed(0), unclaimed(1)];
      const first = f.claimSpec(b, x, alice());
      const { cborHex, txId } = await f.chain.buildSigned(first, f.signersOf(first, alice()));
      await f.chain.devnet.submitTransaction(cborHex);
      const pending = { ...b.utxo, transaction: { id: txId }, index: 0, datum: first.outputs![0]!.inlineDatum! };
      const pendingBatch = { utxo: pending, datum: { ...b.datum, items: b.datum.items.filter((i) => i.tokenName !== x.tokenName) } };
      const second = f.claimSpec(pendingBatch, y, bob());
      const signed = await f.chain.buildSigned(second, f.signersOf(second, bob()));
      await f.chain.devnet.submitTransaction(signed.cborHex);
      f.chain.devnet.produceBlock();
      expect(current().datum.items.map((i) => i.tokenName)).to.not.include.members([x.tokenName, y.tokenName]);
      expect(f.findHub(hubTokenNameOf(b.datum.batchId, y.tokenName)).datum.owner).to.equal(bob().paymentKeyHash);
    });

    // ---- connected_goods: the item key ------------------------------------------------------------------------

    it("rejects a claim without the item key's signature", async () => {
      const it = unclaimed(0);
      await f.reject(f.claimSpec(current(), it, alice(), { signers: [alice().paymentKeyHash] }), alice(), "item key signed");
    });

    it("rejects a claim signed with another item's key", async () => {
      const [it, another] = [unclaimed(0), unclaimed(1)];
      await f.reject(
        f.claimSpec(current(), it, alice(), { signers: [another.itemKeyHash, alice().paymentKeyHash] }),
        alice(),
        "item key signed",
      );
    });

    it("rejects a claim with a key derived from the right password for another batch", async () => {
      const it = unclaimed(0);
      const key = await f.keyFor(it.password!, other.datum.batchId, it.tokenName);
      await f.reject(f.claimSpec(current(), it, alice(), { signers: [key.keyHash, alice().paymentKeyHash] }), alice(), "item key signed");
    });

    it("rejects claiming an item twice", async () => {
      const claimed = items[2]!;
      expect(current().datum.items.map((x) => x.tokenName)).to.not.include(claimed.tokenName);
      await f.reject(f.claimSpec(current(), claimed, bob()), bob(), "claimed item is in the batch");
    });

    // ---- connected_goods: the recreated batch ------------------------------------------------------------------

    const keepAllBut = (tn: string) => (its: readonly BatchItem[]) => its.filter((x) => x.tokenName !== tn);
    for (const [what, remaining] of [
      ["drops another entry too", (tn: string) => (its: readonly BatchItem[]) => keepAllBut(tn)(its).slice(1)],
      [
        "changes another entry's key hash",
        (tn: string) => (its: readonly BatchItem[]) =>
          keepAllBut(tn)(its).map((x, i) => (i === 0 ? { ...x, itemKeyHash: randomBytes(28).toString("hex") } : x)),
      ],
      [
        "renames another entry",
        (tn: string) => (its: readonly BatchItem[]) =>
          keepAllBut(tn)(its).map((x, i) => (i === 0 ? { ...x, tokenName: x.tokenName + "00" } : x)),
      ],
      ["reorders the other entries", (tn: string) => (its: readonly BatchItem[]) => [...keepAllBut(tn)(its)].reverse()],
      ["keeps the claimed item", () => (its: readonly BatchItem[]) => its],
      [
        "adds an entry",
        (tn: string) => (its: readonly BatchItem[]) => [
          ...keepAllBut(tn)(its),
          { tokenName: utf8Hex("zzz"), itemKeyHash: randomBytes(28).toString("hex") },
        ],
      ],
    ] as const) {
      it(`rejects a claim that ${what}`, async () => {
        const it = unclaimed(0);
        await f.reject(f.claimSpec(current(), it, alice(), { remaining: remaining(it.tokenName) }), alice(), DATUM_RULE);
      });
    }

    it("rejects a claim that changes the batch's issuer or hub policy", async () => {
      const it = unclaimed(0);
      const b = current();
      const rest = b.datum.items.filter((x) => x.tokenName !== it.tokenName);
      for (const datum of [
        { ...b.datum, items: rest, issuer: alice().paymentKeyHash },
        { ...b.datum, items: rest, hubPolicy: f.goodsPolicy },
      ]) {
        await f.reject(f.claimSpec(b, it, alice(), { batchDatum: encodeBatchDatum(datum) }), alice(), DATUM_RULE);
      }
    });

    it("rejects a claim that takes lovelace from the batch", async () => {
      const b = current();
      await f.reject(
        f.claimSpec(b, unclaimed(0), alice(), { batchOutput: { lovelace: BigInt(b.utxo.value.ada.lovelace) - 1n } }),
        alice(),
        VALUE_RULE,
      );
    });

    it("rejects a claim that adds a token to the batch", async () => {
      const b = current();
      const stray = f.strayMint(alice());
      const spec = f.claimSpec(b, unclaimed(0), alice(), {
        batchOutput: { assets: { [f.goodsPolicy]: { [b.datum.batchId]: 1n }, [stray.policy]: stray.mint.assets } },
      });
      await f.reject({ ...spec, mints: [...spec.mints!, stray.mint] }, alice(), VALUE_RULE);
    });

    it("rejects a claim that takes the batch token (sent to the claimer with the datum)", async () => {
      await f.reject(
        f.claimSpec(current(), unclaimed(0), alice(), { batchOutput: { address: alice().address } }),
        alice(),
        "batch stays at its address",
      );
    });

    it("rejects a claim that re-stakes the batch to the claimer", async () => {
      await f.reject(
        f.claimSpec(current(), unclaimed(0), alice(), { batchOutput: { address: f.goodsAddressStakedBy(alice()) } }),
        alice(),
        "batch stays at its address",
      );
    });

    it("rejects a claim that burns the batch instead of recreating it", async () => {
      const b = current();
      const it = unclaimed(0);
      const spec = f.claimSpec(b, it, alice(), { batchOutputs: [] });
      const burn = f.goodsMint({ [b.datum.batchId]: -1n }, { type: "BurnBatch" });
      await f.reject({ ...spec, mints: [...spec.mints!, burn] }, alice(), "batch is recreated");
    });

    it("rejects two batches claimed by one transaction", async () => {
      const b = current();
      const [it, ot] = [unclaimed(0), otherItems[0]!];
      const base = f.claimSpec(b, it, alice());
      const second = f.claimSpec(other, ot, alice());
      const hubA = hubTokenNameOf(b.datum.batchId, it.tokenName);
      const hubB = hubTokenNameOf(other.datum.batchId, ot.tokenName);
      const spec = {
        ...base,
        scriptInputs: [...base.scriptInputs!, ...second.scriptInputs!],
        mints: [f.hubMint({ [hubA]: 1n, [hubB]: 1n })],
        outputs: [...base.outputs!, ...second.outputs!],
        requiredSigners: [it.itemKeyHash, ot.itemKeyHash, alice().paymentKeyHash],
      };
      // each batch sees two batch inputs; the hub mint sees two as well, and a mint of two tokens per batch
      await f.reject(spec, alice(), ["exactly one batch input"]);
    });

    it("rejects claiming from a look-alike batch without the batch token (forging a hub for a real item)", async () => {
      const b = current();
      const it = unclaimed(0);
      const mine = await f.keyFor("my own password", b.datum.batchId, it.tokenName);
      const fakeItems = b.datum.items.map((x) => (x.tokenName === it.tokenName ? { ...x, itemKeyHash: mine.keyHash } : x));
      await f.accept(
        {
          utxos: f.utxosOf(bob()),
          changeAddress: bob().address,
          outputs: [
            {
              address: f.scripts.connectedGoods.address,
              lovelace: 5_000_000n,
              inlineDatum: dataToCborHex(encodeBatchDatum({ ...b.datum, items: fakeItems })),
            },
          ],
        },
        bob(),
      );
      const fake = f.chain.utxosAt(f.scripts.connectedGoods.address).find((u) => Object.keys(u.value).length === 1)!;
      const fakeBatch = { utxo: fake, datum: { ...b.datum, items: fakeItems } };
      const spec = f.claimSpec(fakeBatch, { ...it, itemKeyHash: mine.keyHash }, bob(), {
        batchOutput: { assets: {}, lovelace: 5_000_000n },
      });
      await f.reject(spec, bob(), "spent output holds its batch token");
    });

    // ---- connected_goods: the hub token -----------------------------------------------------------------------

    it("rejects a claim that mints no hub token", async () => {
      const spec = f.claimSpec(current(), unclaimed(0), alice(), { mints: [] });
      await f.reject({ ...spec, outputs: spec.outputs!.slice(0, 1) }, alice(), HUB_MINT_RULE);
    });

    it("rejects a claim that mints two hub tokens", async () => {
      const b = current();
      const it = unclaimed(0);
      const name = hubTokenNameOf(b.datum.batchId, it.tokenName);
      const spec = f.claimSpec(b, it, alice(), { hubAssets: { [name]: 2n }, hubOutput: { assets: { [f.hubPolicy]: { [name]: 2n } } } });
      await f.reject(spec, alice(), HUB_MINT_RULE);
    });

    it("rejects a hub token named for another item", async () => {
      const b = current();
      const [it, another] = [unclaimed(0), unclaimed(1)];
      const wrong = hubTokenNameOf(b.datum.batchId, another.tokenName);
      const spec = f.claimSpec(b, it, alice(), { hubAssets: { [wrong]: 1n }, hubOutput: { assets: { [f.hubPolicy]: { [wrong]: 1n } } } });
      await f.reject(spec, alice(), HUB_MINT_RULE);
    });

    // ---- social_hub mint ---------------------------------------------------------------------------------------

    it("rejects a hub token sent to the claimer instead of the hub address", async () => {
      await f.reject(
        f.claimSpec(current(), unclaimed(0), alice(), { hubOutput: { address: alice().address } }),
        alice(),
        "hub output is at the hub address",
      );
    });

    it("rejects a hub output holding another token", async () => {
      const b = current();
      const it = unclaimed(0);
      const name = hubTokenNameOf(b.datum.batchId, it.tokenName);
      const stray = f.strayMint(alice());
      const spec = f.claimSpec(b, it, alice(), {
        hubOutput: { assets: { [f.hubPolicy]: { [name]: 1n }, [stray.policy]: stray.mint.assets } },
      });
      await f.reject({ ...spec, mints: [...spec.mints!, stray.mint] }, alice(), "hub output holds only ADA and the hub token");
    });

    for (const [what, field] of [
      ["an oversize profile field (665 bytes)", "ab".repeat(665)],
      ["an undersize profile field (28 bytes, an empty ciphertext)", "ab".repeat(28)],
    ] as const) {
      it(`rejects a hub datum with ${what}`, async () => {
        const spec = f.claimSpec(current(), unclaimed(0), alice(), {
          hubDatum: (d) => {
            const e = encodeSocialHubDatum({ ...d, profile: {} }) as unknown as { fields: Data[] };
            return constr(
              0,
              e.fields.map((x, i) => (i === 4 ? constr(0, [bytes(field)]) : x)),
            );
          },
        });
        await f.reject(spec, alice(), "hub datum is valid");
      });
    }

    const hubFields = (mutate: (fields: Data[]) => Data[]) => (d: SocialHubDatum) =>
      constr(0, mutate([...(encodeSocialHubDatum(d) as unknown as { fields: Data[] }).fields]));

    it("rejects a hub datum with a profile field missing, or a None that carries a value", async () => {
      const it = unclaimed(0);
      for (const mutate of [
        (fields: Data[]) => fields.slice(0, 16),
        (fields: Data[]) => fields.map((x, i) => (i === 9 ? constr(1, [bytes("00")]) : x)),
      ]) {
        await f.reject(f.claimSpec(current(), it, alice(), { hubDatum: hubFields(mutate) }), alice(), "hub datum is valid");
      }
    });

    it("rejects a hub datum whose owner is not a key hash (nor, then, a signer)", async () => {
      const spec = f.claimSpec(current(), unclaimed(0), alice(), {
        hubDatum: hubFields((fields) => [bytes("ab".repeat(27)), ...fields.slice(1)]),
      });
      await f.reject(spec, alice(), ["hub datum is valid", "owner signed"]);
    });

    it("rejects a hub datum naming another item or batch", async () => {
      const [it, another] = [unclaimed(0), unclaimed(1)];
      await f.reject(
        f.claimSpec(current(), it, alice(), { hubDatum: (d) => ({ ...d, itemName: another.tokenName }) }),
        alice(),
        "hub datum names the batch and item",
      );
      await f.reject(
        f.claimSpec(current(), it, alice(), { hubDatum: (d) => ({ ...d, batchId: other.datum.batchId }) }),
        alice(),
        "hub datum names the batch and item",
      );
    });

    it("rejects a hub whose owner did not sign", async () => {
      await f.reject(
        f.claimSpec(current(), unclaimed(0), alice(), { hubDatum: (d) => ({ ...d, owner: bob().paymentKeyHash }) }),
        alice(),
        "owner signed",
      );
    });

    it("rejects minting a hub without spending a batch", async () => {
      const b = current();
      const it = unclaimed(0);
      const spec = f.claimSpec(b, it, alice());
      await f.reject(
        { ...spec, scriptInputs: [], outputs: spec.outputs!.slice(1), requiredSigners: [alice().paymentKeyHash] },
        alice(),
        "exactly one batch input",
      );
    });

    it("rejects minting a hub next to a Close of the batch", async () => {
      const { batch: single, items: singleItems } = await f.mintBatch(issuer(), 1, 1, "lone");
      const emptied = (await f.claim(single, singleItems[0]!, alice())).batch;
      const hubName = hubTokenNameOf(emptied.datum.batchId, singleItems[0]!.tokenName + "00");
      const close = f.closeSpec(emptied, issuer());
      const hubDatum = encodeSocialHubDatum({
        owner: issuer().paymentKeyHash,
        batchId: emptied.datum.batchId,
        itemName: singleItems[0]!.tokenName + "00",
        profile: sampleProfile(),
      });
      const spec = {
        ...close,
        mints: [...close.mints!, f.hubMint({ [hubName]: 1n })],
        outputs: [
          { address: f.scripts.socialHub.address, assets: { [f.hubPolicy]: { [hubName]: 1n } }, inlineDatum: dataToCborHex(hubDatum) },
        ],
      };
      await f.reject(spec, issuer(), "batch input is spent with Claim");
    });

    it("rejects a hub minted for a batch that names another hub policy", async () => {
      const stray = f.strayMint(alice());
      const seed = f.seedOf(issuer());
      const batchId = batchIdOf({ txHash: seed.transaction.id, index: seed.index });
      const its = await f.itemsFor(batchId, 1, 1, "elsewhere");
      await f.accept(f.mintBatchSpec(issuer(), its, { seed, datum: (d) => ({ ...d, hubPolicy: stray.policy }) }), issuer());
      const elsewhere = f.findBatch(batchId);
      const name = hubTokenNameOf(batchId, its[0]!.tokenName);
      const spec = f.claimSpec(elsewhere, its[0]!, alice());
      // the batch's own (bogus) hub policy gets its token too, so only the real hub policy objects
      const bogus = { ...stray.mint, assets: { [name]: 1n } };
      await f.reject(
        {
          ...spec,
          mints: [...spec.mints!, bogus],
          outputs: [...spec.outputs!, { address: alice().address, assets: { [stray.policy]: { [name]: 1n } } }],
        },
        alice(),
        "batch names this hub policy",
      );
    });
  });
}
