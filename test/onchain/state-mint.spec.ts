/**
 * MINT_STATE (fork) rules: accepted forks, and one phase-2 rejection per broken condition.
 */
import { createHash } from "node:crypto";
import { expect } from "chai";
import { encodeBootstrapDatum, encodeStateDatum, stateIdOf } from "../../shared/protocol";
import { BUILDS, ProtocolFixture, certificatesFor, defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";

const DATUM_RULE = "state datum derives from the bootstrap";

for (const kind of BUILDS) {
  describe(`state script MINT_STATE (${kind} build)`, function () {
    this.timeout(120_000);
    let f: ProtocolFixture;
    const club = Buffer.from("club", "utf8").toString("hex");
    /** a bootstrap whose forks are exhausted at once (countdown 0) */
    const short = Buffer.from("short", "utf8").toString("hex");

    before(async () => {
      f = await ProtocolFixture.create(kind);
      await f.mintBootstrap(defaultBootstrap(f.actors));
      await f.mintBootstrap(defaultBootstrap(f.actors, { tokenName: club, allowedCredentials: [f.actors.bob.paymentKeyHash], fee: 0n }));
      await f.mintBootstrap(defaultBootstrap(f.actors, { tokenName: short, transactionLimit: 1n, fee: 0n }));
    });

    it("rejects an owner the bootstrap's whitelist does not allow", async () => {
      await f.reject(f.mintStateSpec(f.actors.alice, { bootstrapName: club }), f.actors.alice, "owner is allowed by the bootstrap");
    });

    it("rejects a forged state id (not derived from a spent input)", async () => {
      const forged = createHash("sha256").update("forged").digest("hex");
      await f.reject(f.mintStateSpec(f.actors.alice, { id: forged }), f.actors.alice, "state id derives from a spent input");
    });

    it("rejects a state id derived from an input that is not spent", async () => {
      const other = f.utxosOf(f.actors.bob)[0]!;
      const id = stateIdOf({ txHash: other.transaction.id, index: other.index });
      await f.reject(f.mintStateSpec(f.actors.alice, { id }), f.actors.alice, "state id derives from a spent input");
    });

    it("rejects a countdown equal to the transaction limit (not limit − 1)", async () => {
      await f.reject(
        f.mintStateSpec(f.actors.alice, { datum: (d) => ({ ...d, countdown: d.countdown + 1n }) }),
        f.actors.alice,
        DATUM_RULE,
      );
    });

    for (const [field, change] of [
      ["fee", { fee: 0n }],
      ["feeInterval", { feeInterval: 1n }],
      ["ttl", { ttl: 1_999_999_999_999n }],
      ["batchSize", { batchSize: 50n }],
      ["feeReceivers", { feeReceivers: [] as string[] }],
      ["keepAsOracle", { keepAsOracle: true }],
      ["certificateDataHash", { certificateDataHash: "00".repeat(32) }],
    ] as const) {
      it(`rejects a state datum with ${field} not taken from the bootstrap`, async () => {
        const spec = f.mintStateSpec(f.actors.alice, { datum: (d) => ({ ...d, ...change }), stateOutput: { lovelace: 3_000_000n } });
        await f.reject(spec, f.actors.alice, DATUM_RULE);
      });
    }

    it("rejects a fork the owner did not sign", async () => {
      const certificates = certificatesFor(f.actors.issuer, 1);
      await f.reject(
        f.mintStateSpec(f.actors.alice, { certificates, signers: [f.actors.issuer.paymentKeyHash] }),
        f.actors.alice,
        "owner signed",
      );
    });

    it("rejects a fork fee short by one lovelace", async () => {
      const boot = f.findBootstrap().datum;
      const [a, b] = f.feeOutputs(boot);
      await f.reject(
        f.mintStateSpec(f.actors.alice, { feeOutputs: [{ ...a!, lovelace: a!.lovelace! - 1n }, b!] }),
        f.actors.alice,
        "service fee is paid",
      );
    });

    it("rejects a fork fee paid to the wrong key", async () => {
      const boot = f.findBootstrap().datum;
      await f.reject(
        f.mintStateSpec(f.actors.alice, { feeOutputs: f.feeOutputs(boot, [f.actors.bob, f.actors.feeB]) }),
        f.actors.alice,
        "service fee is paid",
      );
    });

    it("rejects a fork after the bootstrap's ttl", async () => {
      const boot = f.findBootstrap().datum;
      const ttlSlot = Number((boot.ttl - BigInt(f.chain.slotToPosixMs(0))) / 1000n) + 1;
      await f.reject(f.mintStateSpec(f.actors.alice, { validity: { ttlSlot } }), f.actors.alice, "validity range ends before ttl");
    });

    it("rejects more certificates than the batch size", async () => {
      await f.reject(
        f.mintStateSpec(f.actors.alice, { certificates: certificatesFor(f.actors.alice, 11, 20) }),
        f.actors.alice,
        "certificates fit the batch size",
      );
    });

    it("rejects a fork without certificates", async () => {
      await f.reject(f.mintStateSpec(f.actors.alice, { certificates: [] }), f.actors.alice, "certificates are present");
    });

    it("rejects a certificate whose issuer did not sign", async () => {
      const certificates = certificatesFor(f.actors.issuer, 2);
      await f.reject(
        f.mintStateSpec(f.actors.alice, { certificates, signers: [f.actors.alice.paymentKeyHash] }),
        f.actors.alice,
        "certificate issuer signed",
      );
    });

    it("rejects an extra token minted under the proxy policy", async () => {
      const spec = f.mintStateSpec(f.actors.alice);
      const id = Object.keys(spec.mints![0]!.assets)[0]!;
      await f.reject(
        f.mintStateSpec(f.actors.alice, { assets: { [id]: 1n, "6578747261": 1n } }),
        f.actors.alice,
        "mint is the new state plus burned states",
      );
    });

    it("rejects two units of the state token", async () => {
      const spec = f.mintStateSpec(f.actors.alice);
      const id = Object.keys(spec.mints![0]!.assets)[0]!;
      const datum = spec.outputs![0]!.inlineDatum!;
      const outputs = [{ ...spec.outputs![0]!, assets: { [f.policy]: { [id]: 2n } }, inlineDatum: datum }, ...spec.outputs!.slice(1)];
      await f.reject({ ...spec, mints: [f.proxyMint({ [id]: 2n })], outputs }, f.actors.alice, "new state token is minted");
    });

    it("rejects a fork without the bootstrap reference input", async () => {
      await f.reject(
        f.mintStateSpec(f.actors.alice, { bootstrapRef: null }),
        f.actors.alice,
        "bootstrap is a reference input at the proxy address",
      );
    });

    it("rejects a state sent to the owner instead of the proxy address", async () => {
      await f.reject(
        f.mintStateSpec(f.actors.alice, { stateOutput: { address: f.actors.alice.address } }),
        f.actors.alice,
        "exactly one state output",
      );
    });

    it("rejects a fork whose new token goes to a wallet instead of the state output", async () => {
      await f.reject(
        f.mintStateSpec(f.actors.alice, { stateOutput: { assets: {} } }),
        f.actors.alice,
        "state output holds the new state token",
      );
    });

    it("rejects the pointer referenced as the bootstrap", async () => {
      const spec = f.mintStateSpec(f.actors.alice, {
        bootstrapRef: f.pointer,
        datum: (d) => ({ ...d, bootstrapDatumName: f.scripts.pointerTokenName }),
      });
      await f.reject(spec, f.actors.alice, "bootstrap datum names its token");
    });

    it("rejects another user's state referenced as the bootstrap", async () => {
      const bobs = await f.mintState(f.actors.bob);
      const spec = f.mintStateSpec(f.actors.alice, {
        bootstrapRef: bobs.utxo,
        datum: (d) => ({ ...d, bootstrapDatumName: bobs.datum.id }),
      });
      await f.reject(spec, f.actors.alice, "bootstrap datum names its token");
    });

    it("rejects a token-less look-alike of the bootstrap (a free copy anyone can pay to the proxy address)", async () => {
      const free = defaultBootstrap(f.actors, { fee: 0n });
      const fake = await f.lookalike(f.actors.alice, encodeBootstrapDatum(free));
      const spec = f.mintStateSpec(f.actors.alice, { bootstrapRef: fake, datum: (d) => ({ ...d, fee: 0n }), feeOutputs: [] });
      await f.reject(spec, f.actors.alice, "bootstrap is a reference input at the proxy address");
    });

    it("accepts a whitelisted owner", async () => {
      const st = await f.mintState(f.actors.bob, undefined, [f.actors.bob], club);
      expect(st.datum.owner).to.equal(f.actors.bob.paymentKeyHash);
      expect(st.datum.countdown).to.equal(11n);
    });

    it("accepts a fork (fee due at the fork) and records the bootstrap-derived datum", async () => {
      const certificates = certificatesFor(f.actors.issuer, 3);
      const spec = f.mintStateSpec(f.actors.alice, { certificates });
      await f.accept(spec, f.actors.alice);
      const id = Object.keys(spec.mints![0]!.assets)[0]!;
      const st = f.findState(id);
      expect(encodeStateDatum(st.datum)).to.deep.equal(
        encodeStateDatum(f.forkedDatum(f.actors.alice, f.findBootstrap().datum, id, certificates)),
      );
    });

    it("rejects burning another owner's exhausted state in a fork", async () => {
      const bobs = await f.mintState(f.actors.bob, undefined, [f.actors.bob], short);
      expect(bobs.datum.countdown).to.equal(0n);
      await f.reject(
        f.mintStateSpec(f.actors.alice, { burnState: bobs }),
        f.actors.alice,
        "a burned state is an exhausted state of the owner",
      );
    });

    it("rejects burning one of the owner's states that is still alive", async () => {
      const alive = f.findState(f.findStateIdsOf(f.actors.alice)[0]!);
      expect(alive.datum.countdown > 0n).to.equal(true);
      await f.reject(
        f.mintStateSpec(f.actors.alice, { burnState: alive }),
        f.actors.alice,
        "a burned state is an exhausted state of the owner",
      );
    });

    it("rejects a fork that burns two of the owner's exhausted states", async () => {
      const one = await f.mintState(f.actors.alice, undefined, [f.actors.alice], short);
      const two = await f.mintState(f.actors.alice, undefined, [f.actors.alice], short);
      await f.reject(f.mintStateSpec(f.actors.alice, { burnStates: [one, two] }), f.actors.alice, "at most one state is burned");
    });

    it("accepts a fork that burns one of the owner's exhausted states", async () => {
      const exhausted = await f.mintState(f.actors.alice, undefined, [f.actors.alice], short);
      const before = f.findStateIdsOf(f.actors.alice);
      await f.accept(f.mintStateSpec(f.actors.alice, { burnState: exhausted }), f.actors.alice);
      const after = f.findStateIdsOf(f.actors.alice);
      expect(after).to.not.include(exhausted.datum.id);
      expect(after).to.have.length(before.length);
    });
  });
}
