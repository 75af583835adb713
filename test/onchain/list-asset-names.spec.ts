/**
 * Asset names are unique per list (docs/extensions-onchain.md#4-token-names): a node's tokens are named after its
 * key, `blake2b_224(key)`, so a second node can never carry another node's name — not in a list open to any
 * inserter, not through the HEAD, not in CIP-68 or plain mode — and a Claim or Redeem mints only the name derived
 * from the key it names. DUP-1…DUP-4 are the attacks of the security review, each against the trace build (the
 * failing rule's name) and the shipped build; before the rule, every one of them was accepted.
 *
 * The Claim and Redeem halves need a node whose asset name is not its key's: Init and Insert can no longer create
 * one, so the ledger's machine evaluates the transition with such a node handed in as an additional UTxO.
 */
import { expect } from "chai";
import { dataToCborHex } from "../../shared/protocol";
import { encodeCip68Datum } from "../../shared/extensions/tokenizable/cip68";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { redeemedTokens } from "../../shared/extensions/tokenizable/scripts";
import { type FractionizedNode } from "../../shared/extensions/fractionized/datum";
import { type TokenizableNode } from "../../shared/extensions/tokenizable/datum";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { FractionizedFixture, keyOf } from "../../fixtures/onchain/fractionized-fixture";
import { TokenizableFixture } from "../../fixtures/onchain/tokenizable-fixture";
import { HexBytes } from "../../shared/domain/hex";

/** the first certificate's key: its node mints 100 tokens */
const A = keyOf(0x50);
/** a stranger's certificate */
const K = keyOf(0x70);
/** sorts before A: inserted after the HEAD */
const K10 = keyOf(0x10);
const DERIVED = "asset name is derived from the key";

for (const kind of BUILDS) {
  describe(`asset names unique per list: fractionized (${kind} build)`, function () {
    this.timeout(180_000);
    let f: FractionizedFixture;

    before(async () => {
      f = await FractionizedFixture.create(kind, { allowedInserters: () => [] });
      await f.init(A, { totalAmount: 100n });
    });

    it("DUP-1: a stranger's insert into an open list re-using the first node's asset name (1,000,000 tokens) is rejected", async () => {
      const { issuer } = f.actors;
      const twin = { assetName: nodeAssetName(A), totalAmount: 1_000_000n };
      await f.reject(f.insertSpec(K, issuer, { terms: twin, anchor: { kind: "fork", owner: issuer } }), DERIVED);
      // the same insert with the name of its own key lands: its tokens can never be taken for A's
      await f.accept(f.insertSpec(K, issuer, { terms: { totalAmount: 1_000_000n }, anchor: { kind: "fork", owner: issuer } }));
      expect(f.node(K).datum.assetName).to.equal(nodeAssetName(K)).and.not.equal(nodeAssetName(A));
      await f.claim(K, issuer, 1_000_000n);
      const held = f.p.utxosOf(issuer).reduce((n, u) => n + f.holds(u, nodeAssetName(A)), 0n);
      expect(held, "tokens named like A's").to.equal(0n);
    });

    it("DUP-2: the twin inserted through the HEAD (the other insert path) is rejected too", async () => {
      const { bob } = f.actors;
      await f.reject(f.insertSpec(K10, bob, { terms: { assetName: nodeAssetName(A) }, anchor: { kind: "fork", owner: bob } }), DERIVED);
    });

    it("DUP-2: a Claim minting under a name not derived from the claimed node's key (a twin of A's) is rejected", async () => {
      const { bob } = f.actors;
      const key = keyOf(0x77);
      const node: FractionizedNode = {
        key,
        next: undefined,
        totalAmount: 1_000_000n,
        remainingAmount: 1_000_000n,
        claimants: [],
        assetName: nodeAssetName(A),
        status: "TokensAvailable",
      };
      const twin = f.detachedNode(node);
      const claimOf = (name: string) =>
        f.claimSpec(key, bob, 1_000_000n, {
          spent: twin,
          assets: { [name]: 1_000_000n },
          claimerOutput: { address: bob.address, assets: { [f.policy]: { [name]: 1_000_000n } } },
        });
      await f.rejectOver(claimOf(nodeAssetName(A)), [twin.utxo], "exactly the claimed amount is minted");
      // the same claim minting the name of its key passes: the name, nothing else, made the difference
      expect(await f.evaluateOver(claimOf(nodeAssetName(key)), [twin.utxo])).to.deep.equal({ accepted: true });
    });

    it("A's supply stays 100: the honest claims of A mint only A's name", async () => {
      await f.claim(A, f.actors.bob, 100n);
      expect(f.node(A).datum).to.include({ remainingAmount: 0n, status: "TokensExhausted" });
      await f.reject(f.claimSpec(A, f.actors.bob, 1n), "tokens are available");
    });
  });

  for (const mode of ["cip68", "plain"] as const) {
    const dup = mode === "cip68" ? "DUP-3" : "DUP-4";
    describe(`asset names unique per list: tokenizable, ${mode} mode (${kind} build)`, function () {
      this.timeout(180_000);
      let f: TokenizableFixture;

      before(async () => {
        f = await TokenizableFixture.create(kind, { cip68: mode === "cip68", allowedInserters: () => [] });
        await f.init(A);
        await f.redeem(A);
      });

      it(`${dup}: an insert whose asset name repeats a redeemed node's (a second ${mode === "cip68" ? "reference/user pair" : "token"}) is rejected`, async () => {
        const { issuer, alice } = f.actors;
        const twin = { owner: alice.paymentKeyHash, assetName: nodeAssetName(A) };
        await f.reject(f.insertSpec(K, issuer, { terms: twin, anchor: { kind: "fork", owner: issuer } }), DERIVED);
        await f.reject(f.insertSpec(K10, issuer, { terms: twin, anchor: { kind: "fork", owner: issuer } }), DERIVED);
      });

      it(`${dup}: a Redeem minting under a name not derived from the redeemed node's key (A's) is rejected`, async () => {
        const { alice } = f.actors;
        const key = keyOf(0x77);
        const node: TokenizableNode = {
          key,
          next: undefined,
          owner: alice.paymentKeyHash,
          assetName: nodeAssetName(A),
          status: "Available",
        };
        const twin = f.detachedNode(node);
        const redeemOf = (name: string) => {
          const tokens = redeemedTokens(f.config, HexBytes(name));
          if (tokens.mode === "plain")
            return f.redeemSpec(key, {
              spent: twin,
              assets: { [tokens.token]: 1n },
              ownerOutput: { address: alice.address, assets: { [f.policy]: { [tokens.token]: 1n } } },
            });
          return f.redeemSpec(key, {
            spent: twin,
            assets: { [tokens.user]: 1n, [tokens.reference]: 1n },
            ownerOutput: { address: alice.address, assets: { [f.policy]: { [tokens.user]: 1n } } },
            referenceOutput: {
              address: f.metadataScript.address,
              assets: { [f.policy]: { [tokens.reference]: 1n } },
              inlineDatum: dataToCborHex(encodeCip68Datum(f.metadataFor(key))),
            },
          });
        };
        const minted = mode === "cip68" ? "exactly one user and one reference token are minted" : "exactly one token is minted";
        await f.rejectOver(redeemOf(nodeAssetName(A)), [twin.utxo], minted);
        expect(await f.evaluateOver(redeemOf(nodeAssetName(key)), [twin.utxo])).to.deep.equal({ accepted: true });
      });

      it("an insert by anyone with the name of its own key lands, and its Redeem mints that name", async () => {
        const { issuer, alice } = f.actors;
        await f.accept(f.insertSpec(K, issuer, { terms: { owner: alice.paymentKeyHash }, anchor: { kind: "fork", owner: issuer } }));
        await f.redeem(K);
        const tokens = redeemedTokens(f.config, nodeAssetName(K));
        const name = tokens.mode === "plain" ? tokens.token : tokens.user;
        expect(f.p.utxosOf(alice).reduce((n, u) => n + f.holds(u, name), 0n)).to.equal(1n);
      });
    });
  }
}
