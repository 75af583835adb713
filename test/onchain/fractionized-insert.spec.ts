/**
 * Fractionized list, Insert (the sorted list's insert-link rule plus the node's own fields): accepted inserts
 * after a node, between two nodes, after the HEAD, and with keys of other lengths; one phase-2 rejection per
 * broken condition and the list attacks (orphan, out of order, duplicate, fake predecessor, unanchored),
 * against the trace build (asserting the failing rule's name) and the shipped build.
 */
import { expect } from "chai";
import { bytes, constr, dataToCborHex } from "../../shared/protocol";
import { encodeFractionizedNode } from "../../shared/extensions/fractionized/datum";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { type ListEntry, FractionizedFixture, keyOf } from "../../fixtures/onchain/fractionized-fixture";
import { utf8Hex } from "../../fixtures/onchain/test-chain";

const K10 = keyOf(0x10);
const K50 = keyOf(0x50);
const K60 = keyOf(0x60);
const K70 = keyOf(0x70);
const K75 = keyOf(0x75);
const K80 = keyOf(0x80);
/** 1 byte: numerically the smallest key, as bytes it sorts between K50 and K60 */
const SHORT = "60";
/** 64 bytes, K50 followed by zeros: right after K50 */
const LONG = K50 + "00".repeat(32);

for (const kind of BUILDS) {
  describe(`fractionized Insert (${kind} build)`, function () {
    this.timeout(180_000);
    let f: FractionizedFixture;

    before(async () => {
      f = await FractionizedFixture.create(kind);
      await f.init(K50);
    });

    describe("on HEAD → K50", () => {
      it("rejects an inserter that is not in allowed_inserters", async () => {
        const { issuer } = f.actors;
        await f.reject(f.insertSpec(K70, issuer, { anchor: { kind: "fork", owner: issuer } }), "an allowed inserter signed");
      });

      it("rejects an orphan insert (node minted without spending a predecessor)", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { predecessor: null }), "exactly one list entry is spent");
      });

      it("rejects an insert spending two list entries", async () => {
        const extra = f.spend(f.node(K50).utxo, { action: "Insert", key: K10 });
        await f.reject(f.insertSpec(K10, f.actors.alice, { extra: { scriptInputs: [extra] } }), "exactly one list entry is spent");
      });

      it("rejects a key that sorts before its predecessor", async () => {
        await f.reject(f.insertSpec(K10, f.actors.alice, { predecessor: f.node(K50) }), "key sorts after the predecessor");
      });

      it("rejects a duplicate key after its own node", async () => {
        await f.reject(f.insertSpec(K50, f.actors.alice, { predecessor: f.node(K50) }), "key sorts after the predecessor");
      });

      it("rejects a duplicate key after the HEAD", async () => {
        await f.reject(f.insertSpec(K50, f.actors.alice, { predecessor: f.head() }), "key sorts before the predecessor's next");
      });

      it("rejects a HEAD predecessor for a key larger than the first key", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { predecessor: f.head() }), "key sorts before the predecessor's next");
      });

      it("rejects an empty key", async () => {
        await f.reject(
          f.insertSpec("", f.actors.alice, { anchor: { kind: "update", owner: f.actors.alice, keys: [K10] } }),
          "key is not empty",
        );
      });

      it("rejects a predecessor that is not re-created at the list address", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { predecessorOutput: { address: f.actors.alice.address } }),
          "re-created predecessor is a list output",
        );
      });

      it("rejects a re-created predecessor moved under a stake credential", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { predecessorOutput: { address: f.stakedScriptAddress() } }),
          "re-created predecessor is a list output",
        );
      });

      it("rejects a re-created predecessor carrying a foreign token", async () => {
        const junk = f.foreignMint();
        const spec = f.insertSpec(K70, f.actors.alice, {
          predecessorOutput: { assets: { [f.policy]: { [f.nodeName(K50)]: 1n }, [junk.policy]: { [junk.name]: 1n } } },
          extra: { mints: [junk.mint] },
        });
        await f.reject(spec, "re-created predecessor is a list output");
      });

      it("rejects an insert that burns the predecessor's token instead of re-creating it", async () => {
        const spec = f.insertSpec(K70, f.actors.alice, {
          assets: { [f.nodeName(K70)]: 1n, [f.nodeName(K50)]: -1n },
          predecessorOutput: null,
        });
        await f.reject(spec, "predecessor is re-created");
      });

      it("rejects a re-created predecessor whose next is not the new key", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { predecessorDatum: (d) => ({ ...d, next: undefined }) }),
          "re-created predecessor only links the new key",
        );
      });

      it("rejects a re-created predecessor with another field changed", async () => {
        const spec = f.insertSpec(K70, f.actors.alice, {
          predecessorDatum: (d) => (d.kind === "node" ? { ...d, remainingAmount: d.remainingAmount + 1n } : d),
        });
        await f.reject(spec, "re-created predecessor only links the new key");
      });

      it("rejects a re-created HEAD with a changed config", async () => {
        const config = { ...f.config, allowedInserters: [] };
        const spec = f.insertSpec(K10, f.actors.alice, { predecessorDatum: (d) => (d.kind === "head" ? { ...d, config } : d) });
        await f.reject(spec, "re-created predecessor only links the new key");
      });

      it("rejects an insert after a node without the HEAD as reference input", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { headRef: null }), "HEAD is a reference input");
      });

      it("rejects a new node sent to a key address", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { nodeOutput: { address: f.actors.alice.address } }),
          "new node output is a list output",
        );
      });

      it("rejects a new node under a stake credential", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { nodeOutput: { address: f.stakedScriptAddress() } }),
          "new node output is a list output",
        );
      });

      it("rejects a new node without its token", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { assets: { [utf8Hex("other")]: 1n }, nodeOutput: { assets: {} } }),
          "new node output exists",
        );
      });

      it("rejects an extra token minted under the list policy", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { assets: { [f.nodeName(K70)]: 1n, [nodeAssetName(K70)]: 5n } }),
          "exactly the new node token is minted",
        );
      });

      it("rejects a second HEAD token minted", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, {
            assets: { [f.nodeName(K70)]: 1n, [f.headName]: 1n },
            extra: { outputs: [{ address: f.actors.alice.address, assets: { [f.policy]: { [f.headName]: 1n } } }] },
          }),
          "exactly the new node token is minted",
        );
      });

      it("rejects a new node whose next is not the predecessor's old next", async () => {
        await f.reject(f.insertSpec(K10, f.actors.alice, { node: (n) => ({ ...n, next: undefined }) }), "new node datum is well formed");
      });

      it("rejects a new node whose remaining amount differs from its total", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { node: (n) => ({ ...n, remainingAmount: 1n }) }),
          "new node datum is well formed",
        );
      });

      it("rejects a new node that starts exhausted", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { node: (n) => ({ ...n, status: "TokensExhausted" }) }),
          "new node datum is well formed",
        );
      });

      it("rejects a new node datum with an extra field", async () => {
        const spec = f.insertSpec(K70, f.actors.alice, {
          node: (n) => {
            const d = encodeFractionizedNode(n) as unknown as { fields: ReturnType<typeof bytes>[] };
            return constr(1, [...d.fields, bytes("00")]);
          },
        });
        await f.reject(spec, "new node datum is well formed");
      });

      it("rejects a zero total amount", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { terms: { totalAmount: 0n } }), "total amount is positive");
      });

      it("rejects a negative total amount", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { terms: { totalAmount: -5n } }), "total amount is positive");
      });

      it("rejects an asset name not derived from the key (another key's node token name, with the FRN prefix)", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { terms: { assetName: f.nodeName(K80) } }), "asset name is derived from the key");
      });

      it("rejects a claimant that is not a key hash", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { terms: { claimants: ["00".repeat(29)] } }), "claimants are key hashes");
      });

      it("rejects an insert whose certificate is not anchored", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { anchor: { kind: "none", payer: f.actors.alice } }), "certificate is anchored");
      });

      it("rejects an insert anchored for another key", async () => {
        await f.reject(
          f.insertSpec(K70, f.actors.alice, { anchor: { kind: "update", owner: f.actors.alice, keys: [K80] } }),
          "certificate is anchored",
        );
      });

      it("rejects an insert whose certificate rides on a bootstrap mint", async () => {
        await f.reject(f.insertSpec(K70, f.actors.alice, { anchor: { kind: "bootstrap" } }), "certificate is anchored");
      });

      it("rejects a fake predecessor (a node datum at the list address without its token)", async () => {
        const { alice } = f.actors;
        const fake = {
          key: keyOf(0x55),
          next: undefined,
          totalAmount: 1n,
          remainingAmount: 1n,
          claimants: [],
          assetName: "",
          status: "TokensAvailable" as const,
        };
        await f.p.chain.submit(
          {
            utxos: f.p.utxosOf(alice),
            changeAddress: alice.address,
            outputs: [{ address: f.script.address, inlineDatum: dataToCborHex(encodeFractionizedNode(fake)) }],
          },
          [alice],
        );
        const utxo = f.p.chain
          .utxosAt(f.script.address)
          .find((u) => f.holds(u, f.nodeName(fake.key)) === 0n && u.datum !== undefined && u.datum.includes(fake.key))!;
        const predecessor: ListEntry = { utxo, datum: { kind: "node", ...fake } };
        await f.reject(f.insertSpec(keyOf(0x57), alice, { predecessor, predecessorOutput: { assets: {} } }), "predecessor is a list entry");
      });
    });

    describe("growing the list", () => {
      it("accepts an insert after the last node (tail), leaving extra ADA in the new node", async () => {
        await f.accept(f.insertSpec(K70, f.actors.alice, { nodeOutput: { lovelace: 5_000_000n } }));
        expect(f.keysInOrder()).to.deep.equal([K50, K70]);
        expect(f.node(K50).datum.next).to.equal(K70);
      });

      it("rejects a key beyond the predecessor's next", async () => {
        await f.reject(f.insertSpec(K80, f.actors.alice, { predecessor: f.node(K50) }), "key sorts before the predecessor's next");
      });

      it("rejects a re-created predecessor that loses ADA", async () => {
        await f.reject(
          f.insertSpec(K75, f.actors.alice, { predecessorOutput: { lovelace: 4_000_000n } }),
          "re-created predecessor keeps its ADA",
        );
      });

      it("accepts an insert between two nodes, by another allowed inserter", async () => {
        await f.accept(f.insertSpec(K60, f.actors.bob));
        expect(f.keysInOrder()).to.deep.equal([K50, K60, K70]);
        expect(f.node(K60).datum.next).to.equal(K70);
      });

      it("accepts an insert after the HEAD (a key smaller than the first), reading the config from the spent HEAD", async () => {
        const spec = f.insertSpec(K10, f.actors.alice);
        expect(spec.referenceInputs?.some((r) => f.holds(r, f.headName) === 1n)).to.equal(false);
        await f.accept(spec);
        expect(f.keysInOrder()).to.deep.equal([K10, K50, K60, K70]);
        expect(f.head().datum.config).to.deep.equal(f.config);
      });

      it("rejects a one-byte key placed by its numeric value (after the HEAD)", async () => {
        await f.reject(f.insertSpec(SHORT, f.actors.alice, { predecessor: f.head() }), "key sorts before the predecessor's next");
      });

      it("accepts keys of other lengths in byte order: a 1-byte key and a 64-byte key (asset names of 28 bytes either way)", async () => {
        expect(f.predecessorOf(SHORT).datum).to.include({ key: K50 });
        await f.accept(f.insertSpec(SHORT, f.actors.alice));
        expect(f.predecessorOf(LONG).datum).to.include({ key: K50 });
        await f.accept(f.insertSpec(LONG, f.actors.bob));
        expect(f.keysInOrder()).to.deep.equal([K10, K50, LONG, SHORT, K60, K70]);
        expect(f.holds(f.node(LONG).utxo, f.nodeName(LONG))).to.equal(1n);
        for (const k of [SHORT, LONG]) expect(f.node(k).datum.assetName).to.equal(nodeAssetName(k)).and.have.length(56);
      });

      it("rejects a key between two nodes with the wrong (earlier) predecessor", async () => {
        await f.reject(f.insertSpec(K75, f.actors.alice, { predecessor: f.node(K60) }), "key sorts before the predecessor's next");
      });
    });
  });

  describe(`fractionized Insert with an open list (${kind} build)`, function () {
    this.timeout(120_000);

    it("accepts an insert by anyone when allowed_inserters is empty", async () => {
      const f = await FractionizedFixture.create(kind, { allowedInserters: () => [] });
      await f.init(K50);
      const { issuer } = f.actors;
      await f.accept(f.insertSpec(K70, issuer, { anchor: { kind: "fork", owner: issuer } }));
      expect(f.keysInOrder()).to.deep.equal([K50, K70]);
    });
  });
}
