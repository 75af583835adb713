/**
 * Fractionized list, Init: one phase-2 rejection per broken condition (before the list exists, so the one-shot
 * input is still unspent), then the accepted Init, against the trace build (asserting the failing rule's name)
 * and the shipped build.
 */
import { expect } from "chai";
import { bytes, constr } from "../../shared/protocol";
import { encodeFractionizedConfig, encodeFractionizedHead } from "../../shared/extensions/fractionized/datum";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { FractionizedFixture, keyOf } from "../../fixtures/onchain/fractionized-fixture";
import { utf8Hex } from "../../fixtures/onchain/test-chain";

const KEY = keyOf(0x50);

for (const kind of BUILDS) {
  describe(`fractionized Init (${kind} build)`, function () {
    this.timeout(120_000);
    let f: FractionizedFixture;

    before(async () => {
      f = await FractionizedFixture.create(kind);
    });

    it("rejects an Init that does not spend the init output", async () => {
      await f.reject(f.initSpec(KEY, { spendInit: false }), "init output is spent");
    });

    it("rejects an empty key", async () => {
      await f.reject(f.initSpec("", { anchor: { kind: "update", owner: f.actors.alice, keys: [KEY] } }), "key is not empty");
    });

    it("rejects an Init the deployer did not sign", async () => {
      const { alice, bob } = f.actors;
      const config = { ...f.config, deployer: bob.paymentKeyHash };
      await f.reject(f.initSpec(KEY, { head: (h) => ({ ...h, config }), signers: [alice.paymentKeyHash] }), "deployer signed");
    });

    it("rejects a malformed config (an inserter that is not a key hash)", async () => {
      const config = { ...f.config, allowedInserters: [...f.config.allowedInserters, "00"] };
      await f.reject(f.initSpec(KEY, { head: (h) => ({ ...h, config }) }), "config is well formed");
    });

    it("rejects a config with an extra field", async () => {
      const cfg = encodeFractionizedConfig(f.config) as unknown as { fields: ReturnType<typeof bytes>[] };
      const head = constr(0, [constr(0, [bytes(KEY)]), constr(0, [...cfg.fields, bytes("00")])]);
      await f.reject(f.initSpec(KEY, { head: () => head }), "config is well formed");
    });

    it("rejects a HEAD that does not link the first key", async () => {
      await f.reject(f.initSpec(KEY, { head: (h) => ({ ...h, next: keyOf(0x51) }) }), "HEAD links the first key");
      await f.reject(f.initSpec(KEY, { head: (h) => ({ ...h, next: undefined }) }), "HEAD links the first key");
    });

    it("rejects a HEAD datum with an extra field or another constructor", async () => {
      const head = encodeFractionizedHead({ next: KEY, config: f.config }) as unknown as { fields: ReturnType<typeof bytes>[] };
      await f.reject(f.initSpec(KEY, { head: () => constr(0, [...head.fields, bytes("00")]) }), "HEAD links the first key");
      await f.reject(f.initSpec(KEY, { head: () => constr(1, head.fields) }), "HEAD links the first key");
    });

    it("rejects a HEAD sent to a key address", async () => {
      await f.reject(f.initSpec(KEY, { headOutput: { address: f.actors.alice.address } }), "HEAD output is a list output");
    });

    it("rejects a HEAD at the script address with a stake credential", async () => {
      await f.reject(f.initSpec(KEY, { headOutput: { address: f.stakedScriptAddress() } }), "HEAD output is a list output");
    });

    it("rejects a HEAD output carrying a foreign token", async () => {
      const junk = f.foreignMint();
      const spec = f.initSpec(KEY, {
        headOutput: { assets: { [f.policy]: { [f.headName]: 1n }, [junk.policy]: { [junk.name]: 1n } } },
        extra: { mints: [junk.mint] },
      });
      await f.reject(spec, "HEAD output is a list output");
    });

    it("rejects a first node sent to a key address", async () => {
      await f.reject(f.initSpec(KEY, { nodeOutput: { address: f.actors.alice.address } }), "new node output is a list output");
    });

    it("rejects an Init without the HEAD token minted", async () => {
      const spec = f.initSpec(KEY, { assets: { [f.nodeName(KEY)]: 1n }, headOutput: { assets: {} } });
      await f.reject(spec, "HEAD output exists");
    });

    it("rejects an extra token minted under the list policy", async () => {
      await f.reject(
        f.initSpec(KEY, { assets: { [f.headName]: 1n, [f.nodeName(KEY)]: 1n, [utf8Hex("extra")]: 1n } }),
        "exactly HEAD and the first node are minted",
      );
    });

    it("rejects a first node whose remaining amount differs from its total", async () => {
      await f.reject(f.initSpec(KEY, { node: (n) => ({ ...n, remainingAmount: n.totalAmount - 1n }) }), "new node datum is well formed");
    });

    it("rejects a first node that links to a next key", async () => {
      await f.reject(f.initSpec(KEY, { node: (n) => ({ ...n, next: keyOf(0x60) }) }), "new node datum is well formed");
    });

    it("rejects a first node that starts exhausted", async () => {
      await f.reject(f.initSpec(KEY, { node: (n) => ({ ...n, status: "TokensExhausted" }) }), "new node datum is well formed");
    });

    it("rejects a first node holding another key", async () => {
      await f.reject(f.initSpec(KEY, { node: (n) => ({ ...n, key: keyOf(0x51) }) }), "new node datum is well formed");
    });

    it("rejects a zero total amount", async () => {
      await f.reject(f.initSpec(KEY, { terms: { totalAmount: 0n } }), "total amount is positive");
    });

    it("rejects an asset name not derived from the key (another key's, the FRN prefix, a chosen name, none)", async () => {
      for (const assetName of [nodeAssetName(keyOf(0x51)), f.headName + nodeAssetName(KEY).slice(6), utf8Hex("FRAC-A"), ""])
        await f.reject(f.initSpec(KEY, { terms: { assetName } }), "asset name is derived from the key");
    });

    it("rejects a claimant that is not a key hash", async () => {
      await f.reject(f.initSpec(KEY, { terms: { claimants: [f.actors.bob.paymentKeyHash, "abcd"] } }), "claimants are key hashes");
    });

    it("rejects an Init whose certificate is not anchored (no state transaction)", async () => {
      await f.reject(f.initSpec(KEY, { anchor: { kind: "none", payer: f.actors.alice } }), "certificate is anchored");
    });

    it("rejects an Init anchored for another key", async () => {
      await f.reject(
        f.initSpec(KEY, { anchor: { kind: "update", owner: f.actors.alice, keys: [keyOf(0x51)] } }),
        "certificate is anchored",
      );
    });

    it("rejects an Init whose certificate rides on a bootstrap mint (not a state transaction)", async () => {
      await f.reject(f.initSpec(KEY, { anchor: { kind: "bootstrap" } }), "certificate is anchored");
    });

    it("rejects spending a UTxO at the list address with an Init redeemer", async () => {
      const { alice } = f.actors;
      await f.p.chain.submit(
        {
          utxos: f.p
            .utxosOf(alice)
            .filter((u) => u !== f.initUtxo && !(u.transaction.id === f.initUtxo.transaction.id && u.index === f.initUtxo.index)),
          changeAddress: alice.address,
          outputs: [{ address: f.script.address, lovelace: 2_000_000n, inlineDatum: "d87980" }],
        },
        [alice],
      );
      const junk = f.p.chain.utxosAt(f.script.address)[0]!;
      await f.reject(f.initSpec(KEY, { extra: { scriptInputs: [f.spend(junk, { action: "Init", key: KEY })] } }), "spend is not an init");
    });

    it("accepts a valid Init anchored by a fork (MINT_STATE): HEAD → first node", async () => {
      const res = await f.accept(f.initSpec(KEY, { anchor: { kind: "fork", owner: f.actors.alice } }));
      expect(f.keysInOrder()).to.deep.equal([KEY]);
      const head = f.head();
      expect(head.datum.config).to.deep.equal(f.config);
      expect(f.holds(head.utxo, f.headName)).to.equal(1n);
      const node = f.node(KEY);
      expect(node.datum).to.include({ totalAmount: 100n, remainingAmount: 100n, status: "TokensAvailable", assetName: nodeAssetName(KEY) });
      expect(res.budgets.map((b) => b.purpose.split(":")[0]).sort()).to.deep.equal(["mint", "mint", "withdraw"]);
    });

    it("rejects a second Init (the init output is spent, the policy can never mint a HEAD again)", async () => {
      const spec = f.initSpec(keyOf(0x60));
      await f.reject({ ...spec, keyInputs: [] }, "init output is spent");
    });
  });
}
