/**
 * BURN_STATE (invalidate / opt-out): the owner burns its states, several in one transaction; nothing is
 * re-created at the proxy address and the funds go back to the owner.
 */
import { expect } from "chai";
import { BUILDS, ProtocolFixture, certificatesFor, defaultBootstrap, type StateUtxo } from "../../fixtures/onchain/protocol-fixture";

for (const kind of BUILDS) {
  describe(`state script BURN_STATE (${kind} build)`, function () {
    this.timeout(120_000);
    let f: ProtocolFixture;
    let first: StateUtxo;
    let second: StateUtxo;
    let bobs: StateUtxo;

    before(async () => {
      f = await ProtocolFixture.create(kind);
      await f.mintBootstrap(defaultBootstrap(f.actors, { fee: 0n }));
      first = await f.mintState(f.actors.alice);
      second = await f.mintState(f.actors.alice);
      bobs = await f.mintState(f.actors.bob);
    });

    it("rejects a burn the owner did not sign", async () => {
      const spec = { ...f.burnStatesSpec([first], f.actors.bob, { signers: [f.actors.bob.paymentKeyHash] }) };
      await f.reject(spec, f.actors.bob, "spent states are burned by their owners");
    });

    it("rejects burning another owner's state alongside one's own", async () => {
      await f.reject(f.burnStatesSpec([first, bobs], f.actors.alice), f.actors.alice, "spent states are burned by their owners");
    });

    it("rejects a burn carrying certificates", async () => {
      await f.reject(
        f.burnStatesSpec([first], f.actors.alice, { certificates: certificatesFor(f.actors.alice, 1) }),
        f.actors.alice,
        "no certificates",
      );
    });

    it("rejects spending two states but burning only one", async () => {
      const spec = f.burnStatesSpec([first, second], f.actors.alice, { assets: { [first.datum.id]: -1n } });
      await f.reject(spec, f.actors.alice, "burn is exactly the spent states");
    });

    it("rejects a burn that re-creates a state at the proxy address", async () => {
      const outputs = [{ address: f.scripts.proxy.address, lovelace: 2_000_000n, inlineDatum: first.utxo.datum! }];
      await f.reject(f.burnStatesSpec([first], f.actors.alice, { outputs }), f.actors.alice, "nothing is sent to the proxy address");
    });

    it("rejects spending a token-less copy of a state alongside the state it copies", async () => {
      const copy = { utxo: await f.lookalike(f.actors.alice, first.utxo.datum!), datum: first.datum };
      const spec = f.burnStatesSpec([first, copy], f.actors.alice, { assets: { [first.datum.id]: -1n } });
      await f.reject(spec, f.actors.alice, "burn is exactly the spent states");
    });

    it("accepts burning two states of the same owner in one transaction (opt-out)", async () => {
      await f.accept(f.burnStatesSpec([first, second], f.actors.alice), f.actors.alice);
      expect(f.findStateIdsOf(f.actors.alice)).to.deep.equal([]);
      expect(f.findStateIdsOf(f.actors.bob)).to.deep.equal([bobs.datum.id]);
    });
  });
}
