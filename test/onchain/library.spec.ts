/**
 * Library (reference-script store) and the state script's publish handler.
 */
import { expect } from "chai";
import { DevnetError } from "../../shared/devnet";
import { dataToCborHex, constr } from "../../shared/protocol";
import { BUILDS, ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import { PHASE_TWO_FAILURE } from "../../fixtures/onchain/test-chain";
import { stakeCertificateTx } from "../../fixtures/onchain/stake-certificate";

for (const kind of BUILDS) {
  describe(`library and state publish handler (${kind} build)`, function () {
    this.timeout(120_000);
    let f: ProtocolFixture;

    before(async () => {
      f = await ProtocolFixture.create(kind);
    });

    const librarySpend = (signers: string[], payer = f.actors.service) => ({
      utxos: f.utxosOf(payer),
      changeAddress: payer.address,
      scriptInputs: [
        { utxo: f.proxyRef, script: { language: "plutus:v3" as const, cbor: f.scripts.library.code }, redeemer: dataToCborHex(constr(0)) },
      ],
      requiredSigners: signers,
    });

    it("rejects a library spend without the administrator's signature", async () => {
      await f.reject(librarySpend([f.actors.alice.paymentKeyHash], f.actors.alice), f.actors.alice, "administrator signed");
    });

    const expectPublishRejected = async (tx: string) => {
      const err = await f.chain.devnet.submitTransaction(tx).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(DevnetError);
      expect((err as DevnetError).code).to.equal(PHASE_TWO_FAILURE);
      if (kind === "trace")
        expect(String(((err as DevnetError).payload as { mismatchReason: string }).mismatchReason)).to.include(
          "only registers the stake credential",
        );
    };

    it("rejects deregistering the state script's stake credential (publish allows registration only)", async () => {
      await expectPublishRejected(
        await stakeCertificateTx(f.chain, "deregister", f.scripts.state.hash, f.stateRef, f.actors.service, false),
      );
    });

    for (const [kind_, what] of [
      ["delegate-stake", "delegating the state script's stake to a pool"],
      ["delegate-vote", "delegating the state script's votes to a DRep"],
    ] as const) {
      it(`rejects ${what} (publish allows registration only, so the reward account never earns rewards)`, async () => {
        const tx = await stakeCertificateTx(f.chain, kind_, f.scripts.state.hash, f.stateRef, f.actors.service, false);
        await expectPublishRejected(tx);
      });
    }

    it("accepts a library spend signed by the administrator", async () => {
      await f.accept(librarySpend([f.actors.service.paymentKeyHash]), f.actors.service);
      expect(f.chain.utxosAt(f.scripts.library.address)).to.have.length(1);
    });
  });
}
