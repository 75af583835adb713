/**
 * Tokenizable list, Init: one phase-2 rejection per broken condition (before the list exists, so the one-shot
 * input is still unspent), then the accepted Init, against the trace build (asserting the failing rule's name)
 * and the shipped build. The list runs in CIP-68 mode here (the config names the metadata script).
 */
import { expect } from "chai";
import { bytes, constr } from "../../shared/protocol";
import { encodeTokenizableConfig, encodeTokenizableHead } from "../../shared/extensions/tokenizable/datum";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { TokenizableFixture, keyOf } from "../../fixtures/onchain/tokenizable-fixture";
import { utf8Hex } from "../../fixtures/onchain/test-chain";

const KEY = keyOf(0x50);

for (const kind of BUILDS) {
  describe(`tokenizable Init (${kind} build)`, function () {
    this.timeout(120_000);
    let f: TokenizableFixture;

    before(async () => {
      f = await TokenizableFixture.create(kind, { cip68: true });
    });

    it("rejects an Init that does not spend the init output", async () => {
      await f.reject(f.initSpec(KEY, { spendInit: false }), "init output is spent");
    });

    it("rejects an Init the deployer did not sign", async () => {
      const { alice, bob } = f.actors;
      const config = { ...f.config, deployer: bob.paymentKeyHash };
      await f.reject(f.initSpec(KEY, { head: (h) => ({ ...h, config }), signers: [alice.paymentKeyHash] }), "deployer signed");
    });

    it("rejects a malformed config: an inserter or a metadata script that is not a 28-byte hash", async () => {
      await f.reject(
        f.initSpec(KEY, { head: (h) => ({ ...h, config: { ...f.config, allowedInserters: ["00"] } }) }),
        "config is well formed",
      );
      await f.reject(f.initSpec(KEY, { head: (h) => ({ ...h, config: { ...f.config, cip68ScriptHash: "ab" } }) }), "config is well formed");
    });

    it("rejects a config without its metadata-script field (the script fails reading it)", async () => {
      const cfg = encodeTokenizableConfig(f.config) as unknown as { fields: ReturnType<typeof bytes>[] };
      const spec = f.initSpec(KEY, { head: () => constr(0, [constr(0, [bytes(KEY)]), constr(0, cfg.fields.slice(0, 3))]) });
      await f.p.chain.expectPhase2Rejection(spec, f.p.signersOf(spec, f.payerOf(spec)));
    });

    it("rejects a HEAD that does not link the first key, or has an extra field", async () => {
      await f.reject(f.initSpec(KEY, { head: (h) => ({ ...h, next: keyOf(0x51) }) }), "HEAD links the first key");
      const head = encodeTokenizableHead({ next: KEY, config: f.config }) as unknown as { fields: ReturnType<typeof bytes>[] };
      await f.reject(f.initSpec(KEY, { head: () => constr(0, [...head.fields, bytes("00")]) }), "HEAD links the first key");
    });

    it("rejects a HEAD or first node sent to a key address", async () => {
      await f.reject(f.initSpec(KEY, { headOutput: { address: f.actors.alice.address } }), "HEAD output is a list output");
      await f.reject(f.initSpec(KEY, { nodeOutput: { address: f.actors.alice.address } }), "new node output is a list output");
    });

    it("rejects a first node that starts Redeemed, links onwards or holds another key", async () => {
      await f.reject(f.initSpec(KEY, { node: (n) => ({ ...n, status: "Redeemed" }) }), "new node datum is well formed");
      await f.reject(f.initSpec(KEY, { node: (n) => ({ ...n, next: keyOf(0x60) }) }), "new node datum is well formed");
      await f.reject(f.initSpec(KEY, { node: (n) => ({ ...n, key: keyOf(0x51) }) }), "new node datum is well formed");
    });

    it("rejects an owner that is not a key hash", async () => {
      await f.reject(f.initSpec(KEY, { terms: { owner: "abcd" } }), "owner is a key hash");
    });

    it("rejects an asset name not derived from the key (another key's, with the TCN prefix, a chosen name, too long)", async () => {
      for (const assetName of [nodeAssetName(keyOf(0x51)), f.headName + "01", utf8Hex("DIPLOMA-1"), nodeAssetName(KEY) + "00"])
        await f.reject(f.initSpec(KEY, { terms: { assetName } }), "asset name is derived from the key");
    });

    it("rejects an Init that also mints the node's asset name (or its CIP-68 user token)", async () => {
      const name = nodeAssetName(KEY);
      await f.reject(
        f.initSpec(KEY, { assets: { [f.headName]: 1n, [f.nodeName(KEY)]: 1n, [name]: 1n } }),
        "exactly HEAD and the first node are minted",
      );
      await f.reject(
        f.initSpec(KEY, { assets: { [f.headName]: 1n, [f.nodeName(KEY)]: 1n, ["000de140" + name]: 1n } }),
        "exactly HEAD and the first node are minted",
      );
    });

    it("rejects an Init without the HEAD token minted", async () => {
      await f.reject(f.initSpec(KEY, { assets: { [f.nodeName(KEY)]: 1n }, headOutput: { assets: {} } }), "HEAD output exists");
    });

    it("rejects an Init whose certificate is not anchored, or anchored for another key", async () => {
      await f.reject(f.initSpec(KEY, { anchor: { kind: "none", payer: f.actors.alice } }), "certificate is anchored");
      await f.reject(
        f.initSpec(KEY, { anchor: { kind: "update", owner: f.actors.alice, keys: [keyOf(0x51)] } }),
        "certificate is anchored",
      );
    });

    it("rejects an empty key", async () => {
      await f.reject(f.initSpec("", { anchor: { kind: "update", owner: f.actors.alice, keys: [KEY] } }), "key is not empty");
    });

    it("rejects spending a UTxO at the list address with an Init redeemer", async () => {
      const { alice } = f.actors;
      const initRef = `${f.initUtxo.transaction.id}#${f.initUtxo.index}`;
      await f.p.chain.submit(
        {
          utxos: f.p.utxosOf(alice).filter((u) => `${u.transaction.id}#${u.index}` !== initRef),
          changeAddress: alice.address,
          outputs: [{ address: f.script.address, lovelace: 2_000_000n, inlineDatum: "d87980" }],
        },
        [alice],
      );
      const junk = f.p.chain.utxosAt(f.script.address)[0]!;
      await f.reject(f.initSpec(KEY, { extra: { scriptInputs: [f.spend(junk, { action: "Init", key: KEY })] } }), "spend is not an init");
    });

    it("accepts a valid Init anchored by an UPDATE_STATE: HEAD → first node, Available", async () => {
      const res = await f.accept(f.initSpec(KEY));
      expect(f.keysInOrder()).to.deep.equal([KEY]);
      expect(f.head().datum.config).to.deep.equal(f.config);
      expect(f.holds(f.head().utxo, f.headName)).to.equal(1n);
      expect(f.node(KEY).datum).to.include({ owner: f.actors.bob.paymentKeyHash, assetName: nodeAssetName(KEY), status: "Available" });
      expect(res.budgets.map((b) => b.purpose.split(":")[0]).sort()).to.deep.equal(["mint", "spend", "withdraw"]);
    });

    it("rejects a second Init (the init output is spent, the policy can never mint a HEAD again)", async () => {
      const spec = f.initSpec(keyOf(0x60));
      await f.reject({ ...spec, keyInputs: [] }, "init output is spent");
    });
  });
}
