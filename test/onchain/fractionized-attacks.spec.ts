/**
 * Fractionized list, attacks across handlers: redeemer confusion between the spend and the mint (the
 * reference implementation's claim-without-claiming hole), list entries spent without the list's mint, the
 * HEAD sent away, and Init redeemers on spends. Trace build asserts the failing rule, shipped build that it fails.
 */
import { expect } from "chai";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { FractionizedFixture, keyOf } from "../../fixtures/onchain/fractionized-fixture";

const A = keyOf(0x50);
const K70 = keyOf(0x70);
const K10 = keyOf(0x10);
const SAME_REDEEMER = "list policy mints with the same redeemer";

for (const kind of BUILDS) {
  describe(`fractionized attacks (${kind} build)`, function () {
    this.timeout(120_000);
    let f: FractionizedFixture;

    before(async () => {
      f = await FractionizedFixture.create(kind);
      await f.accept(f.initSpec(A, { terms: { claimants: [f.actors.bob.paymentKeyHash] } }));
    });

    it("rejects a claim minted while the node is spent with an Insert redeemer", async () => {
      // the node is neither decreased nor checked against the claimants: alice is not listed
      const { alice } = f.actors;
      const spec = f.claimSpec(A, alice, 10n, {
        spendRedeemer: { action: "Insert", key: K70 },
        nodeOutput: null,
        extra: { outputs: [f.listOutput(f.nodeName(A), { constr: 1, fields: [] })] },
      });
      await f.reject(spec, SAME_REDEEMER);
    });

    it("rejects an insert minted while the predecessor is spent with a Claim redeemer", async () => {
      const { alice } = f.actors;
      const spec = f.insertSpec(K70, alice, { spendRedeemer: { action: "Claim", key: A, claimer: alice.paymentKeyHash, amount: 1n } });
      await f.reject(spec, SAME_REDEEMER);
    });

    it("rejects a spend whose redeemer differs from the mint's only in the amount", async () => {
      const { bob } = f.actors;
      const spec = f.claimSpec(A, bob, 10n, { spendRedeemer: { action: "Claim", key: A, claimer: bob.paymentKeyHash, amount: 1n } });
      await f.reject(spec, SAME_REDEEMER);
    });

    it("rejects spending the HEAD without the list's mint (HEAD stolen)", async () => {
      const { alice } = f.actors;
      const spec = {
        utxos: f.p.utxosOf(alice),
        changeAddress: alice.address,
        scriptInputs: [f.spend(f.head().utxo, { action: "Insert", key: K10 })],
        outputs: [{ address: alice.address, assets: { [f.policy]: { [f.headName]: 1n } } }],
      };
      await f.reject(spec, SAME_REDEEMER);
    });

    it("rejects spending a node without the list's mint", async () => {
      const { bob } = f.actors;
      const spec = {
        utxos: f.p.utxosOf(bob),
        changeAddress: bob.address,
        scriptInputs: [f.spend(f.node(A).utxo, { action: "Claim", key: A, claimer: bob.paymentKeyHash, amount: 1n })],
      };
      await f.reject(spec, SAME_REDEEMER);
    });

    it("rejects a HEAD moved to a key address by an otherwise valid insert", async () => {
      await f.reject(
        f.insertSpec(K10, f.actors.alice, { predecessorOutput: { address: f.actors.alice.address } }),
        "re-created predecessor is a list output",
      );
    });

    it("rejects a node spent with an Init redeemer", async () => {
      const { bob } = f.actors;
      await f.reject(f.claimSpec(A, bob, 1n, { spendRedeemer: { action: "Init", key: A } }), "spend is not an init");
    });

    it("still accepts the honest claim and insert afterwards", async () => {
      await f.claim(A, f.actors.bob, 10n);
      await f.insert(K70);
      expect(f.keysInOrder()).to.deep.equal([A, K70]);
      expect(f.node(A).datum.remainingAmount).to.equal(90n);
    });
  });
}
