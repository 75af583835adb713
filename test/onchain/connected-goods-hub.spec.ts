/**
 * social_hub spend: Update and Transfer by the hub's owner. Accepted transactions, and one phase-2 rejection per
 * broken condition, for the trace build (which rule failed) and the shipped build.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { type Data, bytes, constr, dataToCborHex } from "../../shared/protocol";
import { encodeSocialHubDatum } from "../../shared/extensions/connected-goods/social-hub-datum";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { GoodsFixture, sealField, type HubUtxo } from "../../fixtures/onchain/goods-fixture";

const UNCHANGED_RULE = "owner, batch and item are unchanged";
const VALID_RULE = "hub datum is valid";
const VALUE_RULE = "hub output holds only ADA and the hub token, no less ADA";
const TRANSFER_RULE = "transfer changes only the owner";

for (const kind of BUILDS) {
  describe(`social_hub Update and Transfer (${kind} build)`, function () {
    this.timeout(240_000);
    let f: GoodsFixture;
    let aliceHub: string;
    let aliceSecondHub: string;
    let bobHub: string;

    before(async () => {
      f = await GoodsFixture.create(kind);
      const { batch, items } = await f.mintBatch(f.actors.issuer, 3, 3, "watch");
      let b = batch;
      const names: string[] = [];
      for (const [i, owner] of [
        [0, f.actors.alice],
        [1, f.actors.alice],
        [2, f.actors.bob],
      ] as const) {
        const res = await f.claim(b, items[i]!, owner);
        b = res.batch;
        names.push(res.hub.name);
      }
      [aliceHub, aliceSecondHub, bobHub] = names as [string, string, string];
    });

    const hub = (name: string): HubUtxo => f.findHub(name);
    const fields = (d: Parameters<typeof encodeSocialHubDatum>[0]): Data[] => [
      ...(encodeSocialHubDatum(d) as unknown as { fields: Data[] }).fields,
    ];

    // ---- Update -----------------------------------------------------------------------------------------------

    it("accepts an update by the owner, with fields at both size bounds, and records it", async () => {
      const h = hub(aliceHub);
      const profile = { ...h.datum.profile, picture: "ab".repeat(664), email: "cd".repeat(29) };
      await f.accept(f.hubSpendSpec(h, f.actors.alice, { datum: (d) => ({ ...d, profile }) }), f.actors.alice);
      expect(hub(aliceHub).datum.profile).to.deep.equal(profile);
    });

    it("accepts an update that clears the profile and adds ADA", async () => {
      const h = hub(aliceHub);
      const lovelace = BigInt(h.utxo.value.ada.lovelace) + 1_000_000n;
      await f.accept(f.hubSpendSpec(h, f.actors.alice, { datum: (d) => ({ ...d, profile: {} }), output: { lovelace } }), f.actors.alice);
      expect(hub(aliceHub).datum.profile).to.deep.equal({});
      expect(BigInt(hub(aliceHub).utxo.value.ada.lovelace)).to.equal(lovelace);
    });

    it("rejects an update by someone else than the owner", async () => {
      await f.reject(f.hubSpendSpec(hub(aliceHub), f.actors.bob), f.actors.bob, "owner signed");
    });

    for (const [what, change] of [
      ["the owner", (d: HubUtxo["datum"]) => ({ ...d, owner: f.actors.bob.paymentKeyHash })],
      ["the item name", (d: HubUtxo["datum"]) => ({ ...d, itemName: d.itemName + "00" })],
      ["the batch id", (d: HubUtxo["datum"]) => ({ ...d, batchId: randomBytes(32).toString("hex") })],
    ] as const) {
      it(`rejects an update that changes ${what}`, async () => {
        await f.reject(f.hubSpendSpec(hub(aliceHub), f.actors.alice, { datum: change }), f.actors.alice, UNCHANGED_RULE);
      });
    }

    for (const [what, value] of [
      ["an oversize field (665 bytes)", "ab".repeat(665)],
      ["an undersize field (28 bytes)", "ab".repeat(28)],
    ] as const) {
      it(`rejects an update with ${what}`, async () => {
        const datum = (d: HubUtxo["datum"]) =>
          constr(
            0,
            fields(d).map((x, i) => (i === 10 ? constr(0, [bytes(value)]) : x)),
          );
        await f.reject(f.hubSpendSpec(hub(aliceHub), f.actors.alice, { datum }), f.actors.alice, VALID_RULE);
      });
    }

    it("rejects an update whose datum has an extra field", async () => {
      const datum = (d: HubUtxo["datum"]) => constr(0, [...fields(d), constr(1)]);
      await f.reject(f.hubSpendSpec(hub(aliceHub), f.actors.alice, { datum }), f.actors.alice, VALID_RULE);
    });

    it("rejects an update that takes lovelace from the hub", async () => {
      const h = hub(aliceHub);
      await f.reject(
        f.hubSpendSpec(h, f.actors.alice, {
          datum: (d) => ({ ...d, profile: {} }),
          output: { lovelace: BigInt(h.utxo.value.ada.lovelace) - 1n },
        }),
        f.actors.alice,
        VALUE_RULE,
      );
    });

    it("rejects an update that adds a token to the hub", async () => {
      const h = hub(aliceHub);
      const stray = f.strayMint(f.actors.alice);
      const spec = f.hubSpendSpec(h, f.actors.alice, {
        output: { assets: { [f.hubPolicy]: { [h.name]: 1n }, [stray.policy]: stray.mint.assets } },
      });
      await f.reject({ ...spec, mints: [stray.mint] }, f.actors.alice, VALUE_RULE);
    });

    it("rejects an update that sends the hub to the owner's wallet", async () => {
      await f.reject(
        f.hubSpendSpec(hub(aliceHub), f.actors.alice, { output: { address: f.actors.alice.address } }),
        f.actors.alice,
        "hub output is at the hub address",
      );
    });

    it("rejects two hubs updated by one transaction", async () => {
      const [a, b] = [hub(aliceHub), hub(aliceSecondHub)];
      const first = f.hubSpendSpec(a, f.actors.alice);
      const second = f.hubSpendSpec(b, f.actors.alice);
      const spec = {
        ...first,
        scriptInputs: [...first.scriptInputs!, ...second.scriptInputs!],
        outputs: [...first.outputs!, ...second.outputs!],
      };
      await f.reject(spec, f.actors.alice, "exactly one hub input");
    });

    it("rejects spending a look-alike hub without the hub token", async () => {
      const real = hub(bobHub);
      const copy = { ...real.datum, owner: f.actors.alice.paymentKeyHash };
      await f.accept(
        {
          utxos: f.utxosOf(f.actors.alice),
          changeAddress: f.actors.alice.address,
          outputs: [{ address: f.scripts.socialHub.address, lovelace: 5_000_000n, inlineDatum: dataToCborHex(encodeSocialHubDatum(copy)) }],
        },
        f.actors.alice,
      );
      const fake = f.chain.utxosAt(f.scripts.socialHub.address).find((u) => Object.keys(u.value).length === 1)!;
      const spec = f.hubSpendSpec({ utxo: fake, datum: copy, name: real.name }, f.actors.alice, {
        output: { assets: {}, lovelace: 5_000_000n },
      });
      await f.reject(spec, f.actors.alice, ["spent output holds its hub token", "hub token is in an output"]);
    });

    // ---- Transfer ---------------------------------------------------------------------------------------------

    it("rejects a transfer by someone else than the owner", async () => {
      const spec = f.hubSpendSpec(hub(aliceHub), f.actors.bob, { redeemer: { type: "Transfer", newOwner: f.actors.bob.paymentKeyHash } });
      await f.reject(spec, f.actors.bob, "owner signed");
    });

    it("rejects a transfer to something that is not a key hash", async () => {
      const newOwner = "ab".repeat(27);
      const h = hub(aliceHub);
      const spec = f.hubSpendSpec(h, f.actors.alice, { datum: () => constr(0, [bytes(newOwner), ...fields(h.datum).slice(1)]) });
      const redeemer = dataToCborHex(constr(1, [bytes(newOwner)]));
      await f.reject({ ...spec, scriptInputs: [{ ...spec.scriptInputs![0]!, redeemer }] }, f.actors.alice, "new owner is a key hash");
    });

    it("rejects a transfer that also changes the profile", async () => {
      const spec = f.hubSpendSpec(hub(aliceHub), f.actors.alice, {
        redeemer: { type: "Transfer", newOwner: f.actors.bob.paymentKeyHash },
        datum: (d) => ({ ...d, profile: { ...d.profile, github: sealField("octo") } }),
      });
      await f.reject(spec, f.actors.alice, TRANSFER_RULE);
    });

    it("rejects a transfer whose datum names another owner than the redeemer", async () => {
      const spec = f.hubSpendSpec(hub(aliceHub), f.actors.alice, {
        redeemer: { type: "Transfer", newOwner: f.actors.bob.paymentKeyHash },
        datum: (d) => ({ ...d, owner: f.actors.issuer.paymentKeyHash }),
      });
      await f.reject(spec, f.actors.alice, TRANSFER_RULE);
    });

    it("accepts a transfer signed by the owner only; the new owner can update, the old one cannot", async () => {
      await f.accept(
        f.hubSpendSpec(hub(aliceHub), f.actors.alice, { redeemer: { type: "Transfer", newOwner: f.actors.bob.paymentKeyHash } }),
        f.actors.alice,
      );
      expect(hub(aliceHub).datum.owner).to.equal(f.actors.bob.paymentKeyHash);
      await f.reject(f.hubSpendSpec(hub(aliceHub), f.actors.alice), f.actors.alice, "owner signed");
      await f.accept(f.hubSpendSpec(hub(aliceHub), f.actors.bob), f.actors.bob);
      expect(hub(aliceHub).datum.profile.telegram).to.be.a("string");
    });
  });
}
