/**
 * MINT_BOOTSTRAP and BURN_BOOTSTRAP: only a bootstrap administrator (a parameter of the state script) can create
 * or destroy bootstraps, and a bootstrap is exactly one token at the proxy address carrying its own name.
 */
import { expect } from "chai";
import { bytes, constr, encodeBootstrapDatum, encodeProxyRedeemer, dataToCborHex, int, list, makeCertificate } from "../../shared/protocol";
import { BUILDS, BOOTSTRAP_NAME_HEX, ProtocolFixture, defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import { DataHash } from "../../shared/domain/hex";

for (const kind of BUILDS) {
  describe(`state script MINT_BOOTSTRAP / BURN_BOOTSTRAP (${kind} build)`, function () {
    this.timeout(120_000);
    let f: ProtocolFixture;

    before(async () => {
      f = await ProtocolFixture.create(kind);
    });

    it("rejects a bootstrap mint signed by a non-administrator", async () => {
      const spec = {
        ...f.mintBootstrapSpec(defaultBootstrap(f.actors), { signers: [f.actors.alice.paymentKeyHash] }),
        utxos: f.utxosOf(f.actors.alice),
        changeAddress: f.actors.alice.address,
      };
      await f.reject(spec, f.actors.alice, "administrator signed");
    });

    it("rejects a bootstrap mint carrying a certificate in another issuer's name (the administrator signs, the issuer does not)", async () => {
      const auth = makeCertificate({
        hash: DataHash("aa".repeat(32)),
        algorithm: "SHA-256",
        issuer: f.actors.alice.paymentKeyHash,
        metadata: JSON.stringify({ uv_tid: "IdentityAuth", t: "AUTH", ct: "email" }),
      });
      const spec = f.mintBootstrapSpec(defaultBootstrap(f.actors), { certificates: [auth] });
      await f.reject(spec, f.actors.service, "no certificates");
    });

    const feeTermCases: [string, (b: ReturnType<typeof defaultBootstrap>) => Partial<ReturnType<typeof defaultBootstrap>>, string][] = [
      [
        "a fee with a transaction limit that is not a multiple of the fee interval (every fork would be free)",
        () => ({ transactionLimit: 10n, feeInterval: 3n }),
        "transaction limit is a multiple of the fee interval",
      ],
      ["a fee with a zero fee interval (never charged)", () => ({ feeInterval: 0n }), "fee interval is positive"],
      ["a fee with a negative fee interval", () => ({ feeInterval: -3n }), "fee interval is positive"],
      ["a fee without receivers (the share divides by zero)", () => ({ feeReceivers: [] }), "fee receivers are named"],
      [
        "the same fee receiver twice (one output would pay both shares)",
        (b) => ({ feeReceivers: [b.feeReceivers[0]!, b.feeReceivers[0]!] }),
        "fee receivers are distinct",
      ],
    ];
    for (const [what, change, rule] of feeTermCases) {
      it(`rejects a bootstrap with ${what}`, async () => {
        const base = defaultBootstrap(f.actors, { tokenName: Buffer.from("terms").toString("hex") });
        await f.reject(f.mintBootstrapSpec({ ...base, ...change(base) }), f.actors.service, rule);
      });
    }

    it("accepts a free bootstrap whose transaction limit is not a multiple of its fee interval (nothing to evade)", async () => {
      const free = defaultBootstrap(f.actors, {
        tokenName: Buffer.from("free").toString("hex"),
        fee: 0n,
        transactionLimit: 10n,
        feeReceivers: [],
      });
      await f.accept(f.mintBootstrapSpec(free), f.actors.service);
      expect(f.findBootstrap(free.tokenName).datum).to.deep.equal(free);
    });

    it("rejects two tokens minted at once", async () => {
      const boot = defaultBootstrap(f.actors);
      const spec = f.mintBootstrapSpec(boot, { assets: { [boot.tokenName]: 1n, "6f74686572": 1n } });
      await f.reject(spec, f.actors.service, "exactly one token is minted");
    });

    it("rejects a datum whose token_name is not the minted name", async () => {
      const boot = defaultBootstrap(f.actors);
      const outputs = [f.tokenOutput(boot.tokenName, encodeBootstrapDatum({ ...boot, tokenName: "6f74686572" }))];
      await f.reject(f.mintBootstrapSpec(boot, { outputs }), f.actors.service, "bootstrap datum names its token");
    });

    it("rejects a malformed bootstrap datum (7 fields)", async () => {
      const boot = defaultBootstrap(f.actors);
      const seven = constr(0, [list([]), bytes(boot.tokenName), int(0), int(0), list([]), int(0), int(1)]);
      await f.reject(
        f.mintBootstrapSpec(boot, { outputs: [f.tokenOutput(boot.tokenName, seven)] }),
        f.actors.service,
        "bootstrap datum is well formed",
      );
    });

    it("rejects a bootstrap sent to the administrator instead of the proxy address", async () => {
      const boot = defaultBootstrap(f.actors);
      const outputs = [f.tokenOutput(boot.tokenName, encodeBootstrapDatum(boot), { address: f.actors.service.address })];
      await f.reject(f.mintBootstrapSpec(boot, { outputs }), f.actors.service, "bootstrap output is at the proxy address");
    });

    it("rejects a bootstrap named like the pointer token (proxy USER rule)", async () => {
      const boot = defaultBootstrap(f.actors, { tokenName: f.scripts.pointerTokenName });
      await f.reject(f.mintBootstrapSpec(boot), f.actors.service, "pointer token is not minted or burned");
    });

    it("accepts a bootstrap minted by an administrator", async () => {
      await f.accept(f.mintBootstrapSpec(defaultBootstrap(f.actors)), f.actors.service);
      expect(f.findBootstrap().datum).to.deep.equal(defaultBootstrap(f.actors));
    });

    it("rejects a bootstrap burn that spends and burns a user's state", async () => {
      const st = await f.mintState(f.actors.alice);
      await f.reject(
        f.burnBootstrapSpec({ input: st.utxo, assets: { [st.datum.id]: -1n } }),
        f.actors.service,
        "proxy input is the bootstrap of the burned token",
      );
    });

    it("rejects a bootstrap mint that also spends a proxy UTxO", async () => {
      const second = defaultBootstrap(f.actors, { tokenName: "7365636f6e64" });
      const spec = f.mintBootstrapSpec(second);
      const spent = { utxo: f.findBootstrap().utxo, script: f.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer("USER")) };
      await f.reject({ ...spec, scriptInputs: [spent] }, f.actors.service, "no proxy input is spent");
    });

    it("rejects a bootstrap burn signed by a non-administrator", async () => {
      const spec = {
        ...f.burnBootstrapSpec({ signers: [f.actors.alice.paymentKeyHash] }),
        utxos: f.utxosOf(f.actors.alice),
        changeAddress: f.actors.alice.address,
      };
      await f.reject(spec, f.actors.alice, "administrator signed");
    });

    it("rejects a bootstrap burn carrying a certificate in another issuer's name (a REVOKE of alice's credential)", async () => {
      const revoke = makeCertificate({
        hash: DataHash("bb".repeat(32)),
        algorithm: "SHA-256",
        issuer: f.actors.alice.paymentKeyHash,
        metadata: JSON.stringify({ uv_tid: "IdentityAuth", t: "REVOKE", th: "aa".repeat(32) }),
      });
      await f.reject(f.burnBootstrapSpec({ certificates: [revoke] }), f.actors.service, "no certificates");
    });

    it("rejects a bootstrap burn that puts something back at the proxy address", async () => {
      const outputs = [{ address: f.scripts.proxy.address, lovelace: 2_000_000n, inlineDatum: "d87980" }];
      await f.reject(f.burnBootstrapSpec({ outputs }), f.actors.service, "nothing is sent to the proxy address");
    });

    it("rejects spending a bootstrap without burning it", async () => {
      const spec = f.burnBootstrapSpec();
      const outputs = [{ address: f.actors.service.address, assets: { [f.policy]: { [BOOTSTRAP_NAME_HEX]: 1n } } }];
      await f.reject({ ...spec, mints: [], outputs }, f.actors.service, "proxy tokens are burned");
      expect(f.findBootstrap().datum.tokenName).to.equal(BOOTSTRAP_NAME_HEX);
    });

    it("accepts a bootstrap burn by an administrator", async () => {
      await f.accept(f.burnBootstrapSpec(), f.actors.service);
      expect(() => f.findBootstrap()).to.throw(/not found/);
    });
  });
}
