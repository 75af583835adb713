/**
 * Fractionized list, Claim: accepted partial and final claims, one phase-2 rejection per broken condition, and
 * every field of the re-created node datum tampered, against the trace build (asserting the failing rule's
 * name) and the shipped build.
 */
import { expect } from "chai";
import { bytes, constr } from "../../shared/protocol";
import { encodeFractionizedNode } from "../../shared/extensions/fractionized/datum";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { FractionizedFixture, keyOf } from "../../fixtures/onchain/fractionized-fixture";

/** claimable by anyone, 100 tokens, 5 ADA in its UTxO */
const A = keyOf(0x50);
/** claimable by bob only, 10 tokens */
const B = keyOf(0x70);
/** the asset names derived from the keys, the only names the validator lets a node mint */
const ASSET_A = nodeAssetName(A);
const ASSET_B = nodeAssetName(B);
const DATUM_RULE = "re-created node only records the claim";

for (const kind of BUILDS) {
  describe(`fractionized Claim (${kind} build)`, function () {
    this.timeout(180_000);
    let f: FractionizedFixture;

    before(async () => {
      f = await FractionizedFixture.create(kind);
      await f.accept(f.initSpec(A, { nodeOutput: { lovelace: 5_000_000n } }));
      await f.insert(B, f.actors.alice, { totalAmount: 10n, claimants: [f.actors.bob.paymentKeyHash] });
    });

    describe("on A (100 left, anyone may claim)", () => {
      it("rejects a claim spending two nodes (one output cannot pay two claims)", async () => {
        const { bob } = f.actors;
        const second = f.spend(f.node(B).utxo, { action: "Claim", key: A, claimer: bob.paymentKeyHash, amount: 10n });
        await f.reject(f.claimSpec(A, bob, 10n, { extra: { scriptInputs: [second] } }), "exactly one list entry is spent");
      });

      it("rejects a claim naming another node's key", async () => {
        const { bob } = f.actors;
        await f.reject(f.claimSpec(A, bob, 1n, { spent: f.node(B) }), "spent entry is the node of the key");
      });

      it("rejects a claim spending the HEAD", async () => {
        await f.reject(
          f.claimSpec(A, f.actors.bob, 1n, { spent: f.head(), extra: { outputs: [f.listOutput(f.headName, { constr: 0, fields: [] })] } }),
          "spent entry is the node of the key",
        );
      });

      it("rejects a zero amount", async () => {
        const { bob } = f.actors;
        const spec = f.claimSpec(A, bob, 0n, {
          assets: { [ASSET_A]: 1n },
          claimerOutput: { address: bob.address, assets: { [f.policy]: { [ASSET_A]: 1n } } },
        });
        await f.reject(spec, "amount is positive");
      });

      it("rejects a negative amount (it would raise the remainder)", async () => {
        const { bob } = f.actors;
        const spec = f.claimSpec(A, bob, -5n, {
          assets: { [ASSET_A]: 1n },
          claimerOutput: { address: bob.address, assets: { [f.policy]: { [ASSET_A]: 1n } } },
        });
        await f.reject(spec, "amount is positive");
      });

      it("rejects a claim above the remainder", async () => {
        await f.reject(f.claimSpec(A, f.actors.bob, 101n), "amount is within the remainder");
      });

      it("rejects a claim the claimer did not sign", async () => {
        const { alice, bob } = f.actors;
        await f.reject(f.claimSpec(A, bob, 10n, { payer: alice, signers: [alice.paymentKeyHash] }), "claimer signed");
      });

      it("rejects minting more than the claimed amount", async () => {
        await f.reject(f.claimSpec(A, f.actors.bob, 10n, { assets: { [ASSET_A]: 11n } }), "exactly the claimed amount is minted");
      });

      it("rejects an extra token minted under the list policy", async () => {
        await f.reject(
          f.claimSpec(A, f.actors.bob, 10n, { assets: { [ASSET_A]: 10n, [ASSET_B]: 1n } }),
          "exactly the claimed amount is minted",
        );
      });

      it("rejects a node token minted by a claim", async () => {
        await f.reject(
          f.claimSpec(A, f.actors.bob, 10n, { assets: { [ASSET_A]: 10n, [f.nodeName(keyOf(0x99))]: 1n } }),
          "exactly the claimed amount is minted",
        );
      });

      it("rejects claimed tokens paid to someone else", async () => {
        const { alice, bob } = f.actors;
        const spec = f.claimSpec(A, bob, 10n, { claimerOutput: { address: alice.address, assets: { [f.policy]: { [ASSET_A]: 10n } } } });
        await f.reject(spec, "claimer receives the claimed tokens");
      });

      it("rejects claimed tokens split over two outputs", async () => {
        const { bob } = f.actors;
        const half = { address: bob.address, assets: { [f.policy]: { [ASSET_A]: 5n } } };
        await f.reject(
          f.claimSpec(A, bob, 10n, { claimerOutput: half, extra: { outputs: [half] } }),
          "claimer receives the claimed tokens",
        );
      });

      it("rejects a node that is not re-created at the list address", async () => {
        await f.reject(
          f.claimSpec(A, f.actors.bob, 10n, { nodeOutput: { address: f.actors.bob.address } }),
          "re-created node is a list output",
        );
      });

      it("rejects a re-created node under a stake credential", async () => {
        await f.reject(
          f.claimSpec(A, f.actors.bob, 10n, { nodeOutput: { address: f.stakedScriptAddress() } }),
          "re-created node is a list output",
        );
      });

      it("rejects a re-created node holding some of the claimed tokens", async () => {
        const { bob } = f.actors;
        const spec = f.claimSpec(A, bob, 10n, {
          assets: { [ASSET_A]: 10n },
          nodeOutput: { assets: { [f.policy]: { [f.nodeName(A)]: 1n, [ASSET_A]: 1n } } },
          claimerOutput: { address: bob.address, assets: { [f.policy]: { [ASSET_A]: 9n } } },
        });
        await f.reject(spec, "claimer receives the claimed tokens");
      });

      it("rejects a re-created node carrying a foreign token", async () => {
        const junk = f.foreignMint();
        const spec = f.claimSpec(A, f.actors.bob, 10n, {
          nodeOutput: { assets: { [f.policy]: { [f.nodeName(A)]: 1n }, [junk.policy]: { [junk.name]: 1n } } },
          extra: { mints: [junk.mint] },
          signers: [f.actors.bob.paymentKeyHash, f.actors.alice.paymentKeyHash],
        });
        await f.reject(spec, "re-created node is a list output");
      });

      it("rejects a claim that burns the node token instead of re-creating the node", async () => {
        const spec = f.claimSpec(A, f.actors.bob, 10n, { assets: { [ASSET_A]: 10n, [f.nodeName(A)]: -1n }, nodeOutput: null });
        await f.reject(spec, "re-created node exists");
      });

      it("rejects a re-created node that loses ADA", async () => {
        await f.reject(f.claimSpec(A, f.actors.bob, 10n, { nodeOutput: { lovelace: 4_000_000n } }), "re-created node keeps its ADA");
      });

      for (const [field, change] of [
        ["key", { key: keyOf(0x51) }],
        ["next", { next: keyOf(0x60) }],
        ["totalAmount", { totalAmount: 1_000n }],
        ["remainingAmount (not decreased)", { remainingAmount: 100n }],
        ["remainingAmount (decreased too much)", { remainingAmount: 80n }],
        ["claimants", { claimants: [keyOf(0x01, 28)] }],
        ["assetName", { assetName: ASSET_B }],
        ["status (exhausted while tokens remain)", { status: "TokensExhausted" as const }],
      ] as const) {
        it(`rejects a re-created node datum with ${field} tampered`, async () => {
          await f.reject(
            f.claimSpec(A, f.actors.bob, 10n, { node: (n) => ({ ...n, ...change }), nodeOutput: { lovelace: 6_000_000n } }),
            DATUM_RULE,
          );
        });
      }

      it("rejects a re-created node datum with an extra field", async () => {
        const spec = f.claimSpec(A, f.actors.bob, 10n, {
          node: (n) => constr(1, [...(encodeFractionizedNode(n) as unknown as { fields: ReturnType<typeof bytes>[] }).fields, bytes("00")]),
          nodeOutput: { lovelace: 6_000_000n },
        });
        await f.reject(spec, DATUM_RULE);
      });

      it("accepts a partial claim by anyone (empty claimants)", async () => {
        const { bob } = f.actors;
        await f.claim(A, bob, 30n);
        expect(f.node(A).datum).to.include({ remainingAmount: 70n, status: "TokensAvailable" });
        expect(
          f.holds(
            f.p.utxosOf(bob).find((u) => f.holds(u, ASSET_A) > 0n)!,
            ASSET_A,
          ),
        ).to.equal(30n);
      });

      it("accepts the final claim of the remainder, which exhausts the node", async () => {
        await f.claim(A, f.actors.alice, 70n);
        expect(f.node(A).datum).to.include({ remainingAmount: 0n, status: "TokensExhausted" });
        expect(BigInt(f.node(A).utxo.value.ada.lovelace) >= 5_000_000n).to.equal(true);
      });

      it("rejects a claim on an exhausted node", async () => {
        await f.reject(f.claimSpec(A, f.actors.bob, 1n), "tokens are available");
      });
    });

    describe("on B (10 left, bob only)", () => {
      it("rejects a claimer who is not listed", async () => {
        await f.reject(f.claimSpec(B, f.actors.alice, 1n), "claimer is allowed");
      });

      it("rejects a node that stays available when the remainder reaches 0", async () => {
        await f.reject(f.claimSpec(B, f.actors.bob, 10n, { node: (n) => ({ ...n, status: "TokensAvailable" }) }), DATUM_RULE);
      });

      it("accepts the listed claimer taking everything at once", async () => {
        await f.claim(B, f.actors.bob, 10n);
        expect(f.node(B).datum).to.include({ remainingAmount: 0n, status: "TokensExhausted" });
        expect(f.keysInOrder()).to.deep.equal([A, B]);
      });
    });
  });
}
