/**
 * Tokenizable list, Insert: after an Init, one phase-2 rejection per broken condition, then accepted inserts
 * after the HEAD, in the middle and at the end (keys compared as raw bytes), against both builds. Plain mode.
 */
import { expect } from "chai";
import type { OgmiosUtxo } from "../../shared/devnet";
import { dataToCborHex } from "../../shared/protocol";
import { decodeTokenizableDatum, encodeTokenizableNode } from "../../shared/extensions/tokenizable/datum";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { TokenizableFixture, keyOf } from "../../fixtures/onchain/tokenizable-fixture";
import { newWallet } from "../../fixtures/onchain/test-chain";

const FIRST = keyOf(0x50);
const ref = (u: OgmiosUtxo): string => `${u.transaction.id}#${u.index}`;

for (const kind of BUILDS) {
  describe(`tokenizable Insert (${kind} build)`, function () {
    this.timeout(180_000);
    let f: TokenizableFixture;

    before(async () => {
      f = await TokenizableFixture.create(kind, { cip68: false });
      await f.init(FIRST);
    });

    it("rejects an inserter who is not allowed (anchoring with their own forked state)", async () => {
      const { issuer } = f.actors;
      await f.reject(f.insertSpec(keyOf(0x60), issuer, { anchor: { kind: "fork", owner: issuer } }), "an allowed inserter signed");
    });

    it("rejects an insert that also mints the node's asset name", async () => {
      const key = keyOf(0x60);
      const name = nodeAssetName(key);
      await f.reject(
        f.insertSpec(key, f.actors.alice, { assets: { [f.nodeName(key)]: 1n, [name]: 1n } }),
        "exactly the new node token is minted",
      );
    });

    it("rejects a key out of order (after a predecessor that sorts above it)", async () => {
      await f.reject(f.insertSpec(keyOf(0x40), f.actors.alice, { predecessor: f.node(FIRST) }), "key sorts after the predecessor");
    });

    it("rejects a duplicate key", async () => {
      await f.reject(f.insertSpec(FIRST, f.actors.alice, { predecessor: f.head() }), "key sorts before the predecessor's next");
    });

    it("rejects a predecessor re-created with another owner", async () => {
      const other = newWallet().paymentKeyHash;
      await f.reject(
        f.insertSpec(keyOf(0x60), f.actors.alice, { predecessorDatum: (d) => (d.kind === "node" ? { ...d, owner: other } : d) }),
        "re-created predecessor only links the new key",
      );
    });

    it("rejects a new node that starts Redeemed", async () => {
      await f.reject(
        f.insertSpec(keyOf(0x60), f.actors.alice, { node: (n) => ({ ...n, status: "Redeemed" }) }),
        "new node datum is well formed",
      );
    });

    it("rejects an asset name not derived from the key (plain mode)", async () => {
      await f.reject(
        f.insertSpec(keyOf(0x60), f.actors.alice, { terms: { assetName: nodeAssetName(keyOf(0x61)) } }),
        "asset name is derived from the key",
      );
    });

    it("rejects an insert whose certificate is not anchored", async () => {
      await f.reject(
        f.insertSpec(keyOf(0x60), f.actors.alice, { anchor: { kind: "none", payer: f.actors.alice } }),
        "certificate is anchored",
      );
    });

    it("rejects a predecessor spent with Redeem while the mint runs Insert (redeemer confusion)", async () => {
      const key = keyOf(0x60);
      await f.reject(
        f.insertSpec(key, f.actors.alice, { spendRedeemer: { action: "Redeem", key } }),
        "list policy mints with the same redeemer",
      );
    });

    it("rejects an empty key", async () => {
      const anchor = { kind: "update" as const, owner: f.actors.alice, keys: [keyOf(0x61)] };
      await f.reject(f.insertSpec("", f.actors.alice, { anchor, predecessor: f.head() }), "key is not empty");
    });

    it("rejects an orphan insert (no list entry spent)", async () => {
      const key = keyOf(0x60);
      const pred = ref(f.predecessorOf(key).utxo);
      const spec = f.insertSpec(key, f.actors.alice);
      const orphan = {
        ...spec,
        scriptInputs: spec.scriptInputs!.filter((s) => ref(s.utxo) !== pred),
        outputs: spec.outputs!.slice(1),
      };
      await f.reject(orphan, "exactly one list entry is spent");
    });

    it("rejects an insert after a node without the HEAD as a reference input", async () => {
      const spec = f.insertSpec(keyOf(0x60), f.actors.alice);
      const head = ref(f.head().utxo);
      expect(spec.referenceInputs!.map(ref)).to.include(head);
      await f.reject({ ...spec, referenceInputs: spec.referenceInputs!.filter((u) => ref(u) !== head) }, "HEAD is a reference input");
    });

    it("rejects a new node sent to a key address", async () => {
      await f.reject(
        f.insertSpec(keyOf(0x60), f.actors.alice, { nodeOutput: { address: f.actors.alice.address } }),
        "new node output is a list output",
      );
    });

    it("rejects a look-alike predecessor at the list address without its token", async () => {
      const { alice } = f.actors;
      const fake = encodeTokenizableNode({ ...f.node(FIRST).datum, key: keyOf(0x55), next: undefined });
      const { txId } = await f.p.chain.submit(
        {
          utxos: f.p.utxosOf(alice),
          changeAddress: alice.address,
          outputs: [{ address: f.script.address, lovelace: 3_000_000n, inlineDatum: dataToCborHex(fake) }],
        },
        [alice],
      );
      const utxo = f.p.chain.utxosAt(f.script.address).find((u) => u.transaction.id === txId)!;
      const predecessor = { utxo, datum: decodeTokenizableDatum(fake) };
      await f.reject(f.insertSpec(keyOf(0x57), alice, { predecessor, predecessorOutput: { assets: {} } }), "predecessor is a list entry");
    });

    it("accepts inserts at the end, in the middle and after the HEAD (byte order), by alice and bob", async () => {
      const { alice, bob } = f.actors;
      await f.insert(keyOf(0x70), alice);
      await f.insert(keyOf(0x60), bob, { owner: alice.paymentKeyHash });
      // 0x10‖… is shorter but sorts first as bytes
      await f.insert(keyOf(0x10, 4), alice);
      expect(f.keysInOrder()).to.deep.equal([keyOf(0x10, 4), FIRST, keyOf(0x60), keyOf(0x70)]);
      expect(f.node(keyOf(0x60)).datum).to.include({
        owner: alice.paymentKeyHash,
        assetName: nodeAssetName(keyOf(0x60)),
        status: "Available",
      });
    });
  });
}
