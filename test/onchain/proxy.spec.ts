/**
 * Proxy rules: ADMIN mint (init), ADMIN spend (upgrade), and the USER rules that protect the pointer token.
 */
import { expect } from "chai";
import {
  DEFAULT_BLUEPRINT_PATH,
  TRACE_BLUEPRINT_PATH,
  bytes,
  constr,
  dataToCborHex,
  deriveProtocolScripts,
  encodeBootstrapDatum,
  encodeProxyDatum,
  encodeProxyRedeemer,
  encodeStateRedeemer,
  loadBlueprint,
} from "../../shared/protocol";
import { BUILDS, ProtocolFixture, certificatesFor, defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import { stakeCertificateTx } from "../../fixtures/onchain/stake-certificate";

for (const kind of BUILDS) {
  describe(`proxy ADMIN mint: init (${kind} build)`, function () {
    this.timeout(120_000);
    let f: ProtocolFixture;

    before(async () => {
      f = await ProtocolFixture.create(kind, { init: false });
    });

    it("rejects an init whose datum owner did not sign", async () => {
      const spec = f.initSpec({ ownerInDatum: f.actors.bob.paymentKeyHash });
      await f.reject(spec, f.actors.service, "pointer owner signed");
    });

    it("rejects two pointer tokens", async () => {
      const name = f.scripts.pointerTokenName;
      const datum = encodeProxyDatum({ scriptPointer: f.scripts.state.hash, scriptOwner: f.actors.service.paymentKeyHash });
      const outputs = [{ ...f.tokenOutput(name, datum), assets: { [f.policy]: { [name]: 2n } } }];
      await f.reject(f.initSpec({ assets: { [name]: 2n }, outputs }), f.actors.service, "exactly one pointer token is minted");
    });

    it("rejects an extra token next to the pointer", async () => {
      const name = f.scripts.pointerTokenName;
      await f.reject(f.initSpec({ assets: { [name]: 1n, "6f74686572": 1n } }), f.actors.service, "exactly one pointer token is minted");
    });

    it("rejects a pointer sent away from the proxy address", async () => {
      const name = f.scripts.pointerTokenName;
      const datum = encodeProxyDatum({ scriptPointer: f.scripts.state.hash, scriptOwner: f.actors.service.paymentKeyHash });
      await f.reject(
        f.initSpec({ outputs: [f.tokenOutput(name, datum, { address: f.actors.service.address })] }),
        f.actors.service,
        "pointer output is at the proxy address",
      );
    });

    it("rejects a malformed pointer datum", async () => {
      const name = f.scripts.pointerTokenName;
      const bad = constr(0, [bytes(f.scripts.state.hash), bytes(f.actors.service.paymentKeyHash), bytes("00")]);
      await f.reject(f.initSpec({ outputs: [f.tokenOutput(name, bad)] }), f.actors.service, "pointer datum is well formed");
    });

    it("rejects an init that does not spend the one-shot input", async () => {
      const spec = { ...f.initSpec(), keyInputs: [], utxos: f.utxosOf(f.actors.alice), changeAddress: f.actors.alice.address };
      await f.reject(spec, f.actors.alice, "one-shot input is spent");
    });

    it("accepts the init and names the pointer sha3_256(tx_id ‖ ascii(index))", async () => {
      await f.accept(f.initSpec(), f.actors.service);
      const pointer = f.findPointer();
      expect(pointer.datum).to.equal(
        dataToCborHex(encodeProxyDatum({ scriptPointer: f.scripts.state.hash, scriptOwner: f.actors.service.paymentKeyHash })),
      );
    });
  });

  describe(`proxy ADMIN spend: upgrade, and USER rules on the pointer (${kind} build)`, function () {
    this.timeout(120_000);
    let f: ProtocolFixture;

    before(async () => {
      f = await ProtocolFixture.create(kind);
      await f.mintBootstrap(defaultBootstrap(f.actors, { fee: 0n }));
    });

    it("rejects spending the pointer with USER (a state script cannot move it)", async () => {
      const service = f.actors.service;
      const spec = {
        utxos: f.utxosOf(service),
        changeAddress: service.address,
        scriptInputs: [{ utxo: f.pointer, script: f.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer("USER")) }],
        withdrawals: [f.stateWithdrawal("UPDATE_STATE", certificatesFor(service, 1))],
        outputs: [{ address: service.address, assets: { [f.policy]: { [f.scripts.pointerTokenName]: 1n } } }],
        requiredSigners: [service.paymentKeyHash],
      };
      await f.reject(spec, service, "spent output does not hold the pointer");
    });

    it("rejects minting the pointer name with USER", async () => {
      const spec = f.mintStateSpec(f.actors.alice);
      const id = Object.keys(spec.mints![0]!.assets)[0]!;
      await f.reject(
        f.mintStateSpec(f.actors.alice, { assets: { [id]: 1n, [f.scripts.pointerTokenName]: 1n } }),
        f.actors.alice,
        "pointer token is not minted or burned",
      );
    });

    it("rejects a USER mint authorised by another state script than the pointer's (the same code with the attacker as administrator)", async () => {
      const bob = f.actors.bob;
      const rogue = deriveProtocolScripts(loadBlueprint(kind === "trace" ? TRACE_BLUEPRINT_PATH : DEFAULT_BLUEPRINT_PATH), {
        proxyOneShot: { txHash: f.oneShot.transaction.id, index: f.oneShot.index },
        bootstrapAdministrators: [bob.paymentKeyHash],
        libraryAdministrator: bob.paymentKeyHash,
        networkId: 0,
      }).state;
      expect(rogue.hash).to.not.equal(f.scripts.state.hash);
      // bob stores his script as a reference script and registers its stake credential: its withdrawals are real
      const { txId } = await f.chain.submit(
        {
          utxos: f.utxosOf(bob),
          changeAddress: bob.address,
          outputs: [{ address: bob.address, referenceScript: { language: "plutus:v3", cbor: rogue.code } }],
        },
        [bob],
      );
      const rogueRef = f.utxosOf(bob).find((u) => u.transaction.id === txId && u.script !== undefined)!;
      await f.chain.devnet.submitTransaction(await stakeCertificateTx(f.chain, "register", rogue.hash, rogueRef, bob));
      f.chain.devnet.produceBlock();

      const boot = defaultBootstrap(f.actors, { tokenName: Buffer.from("rogue").toString("hex"), fee: 0n });
      const spec = {
        utxos: f.utxosOf(bob),
        changeAddress: bob.address,
        referenceInputs: [f.pointer],
        mints: [f.proxyMint({ [boot.tokenName]: 1n })],
        withdrawals: [
          {
            rewardAddress: rogue.rewardAddress,
            lovelace: 0n,
            script: { language: "plutus:v3" as const, referenceUtxo: rogueRef },
            redeemer: dataToCborHex(encodeStateRedeemer({ purpose: "MINT_BOOTSTRAP", certificates: [] })),
          },
        ],
        outputs: [f.tokenOutput(boot.tokenName, encodeBootstrapDatum(boot))],
        requiredSigners: [bob.paymentKeyHash],
      };
      await f.reject(spec, bob, "state script is withdrawn");
    });

    it("rejects an upgrade without the owner's signature", async () => {
      const spec = {
        ...f.upgradeSpec({ signers: [f.actors.alice.paymentKeyHash] }),
        utxos: f.utxosOf(f.actors.alice),
        changeAddress: f.actors.alice.address,
      };
      await f.reject(spec, f.actors.alice, "previous owner signed");
    });

    it("rejects an owner change the new owner did not sign", async () => {
      const datum = encodeProxyDatum({ scriptPointer: f.scripts.state.hash, scriptOwner: f.actors.bob.paymentKeyHash });
      await f.reject(f.upgradeSpec({ datum }), f.actors.service, "pointer owner signed");
    });

    it("rejects an upgrade that moves the pointer away from the proxy address", async () => {
      const datum = encodeProxyDatum({ scriptPointer: f.scripts.state.hash, scriptOwner: f.actors.service.paymentKeyHash });
      const outputs = [f.tokenOutput(f.scripts.pointerTokenName, datum, { address: f.actors.service.address })];
      await f.reject(f.upgradeSpec({ outputs }), f.actors.service, "pointer output is at the proxy address");
    });

    it("rejects an upgrade with a malformed pointer datum", async () => {
      const wrongConstructor = constr(1, [bytes(f.scripts.state.hash), bytes(f.actors.service.paymentKeyHash)]);
      await f.reject(f.upgradeSpec({ datum: wrongConstructor }), f.actors.service, "pointer datum is well formed");
    });

    it("rejects spending a state with ADMIN (only the pointer is ADMIN-spendable)", async () => {
      const st = await f.mintState(f.actors.bob);
      const spec = f.updateSpec(st, f.actors.bob);
      const adminSpend = { ...spec.scriptInputs![0]!, redeemer: dataToCborHex(encodeProxyRedeemer("ADMIN")) };
      await f.reject({ ...spec, scriptInputs: [adminSpend] }, f.actors.bob, "spent output holds the pointer");
    });

    it("accepts an upgrade to a new state script and owner signed by both owners", async () => {
      const newPointer = "ab".repeat(28);
      const datum = encodeProxyDatum({ scriptPointer: newPointer, scriptOwner: f.actors.bob.paymentKeyHash });
      await f.accept(f.upgradeSpec({ datum, signers: [f.actors.service.paymentKeyHash, f.actors.bob.paymentKeyHash] }), f.actors.service);
      f.pointer = f.findPointer();
      expect(f.pointer.datum).to.equal(dataToCborHex(datum));
    });

    it("after an upgrade, USER actions need the NEW state script", async () => {
      // the pointer now names a script nobody can withdraw from: the old state script no longer authorises anything
      const spec = f.mintStateSpec(f.actors.alice, { certificates: certificatesFor(f.actors.alice, 1) });
      await f.reject(spec, f.actors.alice, "state script is withdrawn");
    });
  });
}
