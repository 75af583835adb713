/**
 * Tokenizable list, Redeem, in both modes (plain token; CIP-68 user + reference token) and both builds: one
 * phase-2 rejection per broken condition, the accepted Redeem, then a second Redeem of the same node. In CIP-68
 * mode also the metadata script: only the list's deployer may replace a reference token's datum, which must stay
 * CIP-68 metadata of the same certificate, with the token staying at the script.
 */
import { expect } from "chai";
import { dataFromCborHex, dataToCborHex } from "../../shared/protocol";
import { decodeCip68Datum, encodeCip68Datum } from "../../shared/extensions/tokenizable/cip68";
import { nodeAssetName } from "../../shared/extensions/list-kit/list-tokens";
import { redeemedTokens, type RedeemedTokens } from "../../shared/extensions/tokenizable/scripts";
import { BUILDS } from "../../fixtures/onchain/protocol-fixture";
import { TokenizableFixture, keyOf } from "../../fixtures/onchain/tokenizable-fixture";
import { utf8Hex } from "../../fixtures/onchain/test-chain";

const KEY = keyOf(0x50);
const OTHER = keyOf(0x60);

for (const kind of BUILDS) {
  for (const mode of ["plain", "cip68"] as const) {
    describe(`tokenizable Redeem, ${mode} mode (${kind} build)`, function () {
      this.timeout(180_000);
      let f: TokenizableFixture;
      let tokens: RedeemedTokens;
      const userToken = () => (tokens.mode === "plain" ? tokens.token : tokens.user);
      const mintedRule = mode === "plain" ? "exactly one token is minted" : "exactly one user and one reference token are minted";
      const receiveRule = mode === "plain" ? "owner receives the token" : "owner receives the user token";

      before(async () => {
        f = await TokenizableFixture.create(kind, { cip68: mode === "cip68" });
        await f.init(KEY);
        const terms = { owner: f.actors.alice.paymentKeyHash };
        await f.accept(f.insertSpec(OTHER, f.actors.alice, { terms, nodeOutput: { lovelace: 5_000_000n } }));
        tokens = redeemedTokens(f.config, nodeAssetName(KEY));
      });

      it("rejects a Redeem the owner did not sign (signed and paid by someone else)", async () => {
        await f.reject(f.redeemSpec(KEY, { redeemer_: f.actors.alice }), "owner signed");
      });

      it("rejects the token sent to someone else", async () => {
        const ownerOutput = { address: f.actors.alice.address, assets: { [f.policy]: { [userToken()]: 1n } } };
        await f.reject(f.redeemSpec(KEY, { ownerOutput }), receiveRule);
      });

      it("rejects two user tokens minted", async () => {
        const assets = tokens.mode === "plain" ? { [tokens.token]: 2n } : { [tokens.user]: 2n, [tokens.reference]: 1n };
        const ownerOutput = { address: f.actors.bob.address, assets: { [f.policy]: { [userToken()]: 2n } } };
        await f.reject(f.redeemSpec(KEY, { assets, ownerOutput }), mintedRule);
      });

      it("rejects minting the other mode's tokens", async () => {
        const name = nodeAssetName(KEY);
        const assets = tokens.mode === "plain" ? { ["000de140" + name]: 1n, ["000643b0" + name]: 1n } : { [name]: 1n };
        const ownerOutput = { address: f.actors.bob.address, assets: { [f.policy]: { [Object.keys(assets)[0]!]: 1n } } };
        await f.reject(f.redeemSpec(KEY, { assets, ownerOutput, referenceOutput: null }), mintedRule);
      });

      it("rejects a node re-created with another owner, or not re-created", async () => {
        await f.reject(
          f.redeemSpec(KEY, { node: (n) => ({ ...n, owner: f.actors.alice.paymentKeyHash }) }),
          "re-created node only records the redemption",
        );
        await f.reject(f.redeemSpec(KEY, { node: (n) => ({ ...n, status: "Available" }) }), "re-created node only records the redemption");
        // the node token then rides in the payer's change output
        await f.reject(f.redeemSpec(KEY, { nodeOutput: null }), "re-created node is a list output");
      });

      it("rejects a re-created node sent to a key address", async () => {
        await f.reject(f.redeemSpec(KEY, { nodeOutput: { address: f.actors.bob.address } }), "re-created node is a list output");
      });

      it("rejects a re-created node that loses ADA", async () => {
        await f.reject(f.redeemSpec(OTHER, { nodeOutput: { lovelace: 4_000_000n } }), "re-created node keeps its ADA");
      });

      it("rejects a Redeem without the HEAD as a reference input", async () => {
        await f.reject(f.redeemSpec(KEY, { headRef: false }), "HEAD is a reference input");
      });

      it("rejects a Redeem of another node's key (the spent node must be the key's)", async () => {
        await f.reject(f.redeemSpec(KEY, { spent: f.node(OTHER) }), "spent entry is the node of the key");
      });

      it("rejects a Redeem spending a second list entry", async () => {
        const other = f.node(OTHER);
        const spec = f.redeemSpec(KEY, {
          extra: { scriptInputs: [f.spend(other.utxo, { action: "Redeem", key: KEY })] },
        });
        await f.reject(spec, "exactly one list entry is spent");
      });

      it("rejects a node spent with Insert while the mint runs Redeem (redeemer confusion)", async () => {
        await f.reject(f.redeemSpec(KEY, { spendRedeemer: { action: "Insert", key: KEY } }), "list policy mints with the same redeemer");
      });

      if (mode === "cip68") {
        it("rejects the reference token sent elsewhere than the metadata script", async () => {
          const t = tokens as Extract<RedeemedTokens, { mode: "cip68" }>;
          const referenceOutput = {
            address: f.actors.bob.address,
            assets: { [f.policy]: { [t.reference]: 1n } },
            inlineDatum: dataToCborHex(encodeCip68Datum(f.metadataFor(KEY))),
          };
          await f.reject(f.redeemSpec(KEY, { referenceOutput }), "reference token goes to the metadata script");
          await f.reject(
            f.redeemSpec(KEY, { referenceOutput: { ...referenceOutput, address: f.script.address } }),
            "reference token goes to the metadata script",
          );
        });

        it("rejects a reference token without a valid CIP-68 datum: unit, another certificate, a missing field, no datum", async () => {
          const t = tokens as Extract<RedeemedTokens, { mode: "cip68" }>;
          await f.reject(f.redeemSpec(KEY, { referenceDatum: "d87980" }), "reference token carries the CIP-68 metadata");
          const other = dataToCborHex(encodeCip68Datum({ ...f.metadataFor(KEY), certificateHash: OTHER }));
          await f.reject(f.redeemSpec(KEY, { referenceDatum: other }), "reference token carries the CIP-68 metadata");
          const noImage = dataToCborHex({
            constr: 0,
            fields: [
              {
                map: [
                  [{ bytes: utf8Hex("name") }, { bytes: utf8Hex("x") }],
                  [{ bytes: utf8Hex("description") }, { bytes: "" }],
                  [{ bytes: utf8Hex("certificate_hash") }, { bytes: KEY }],
                ],
              },
              { int: 1n },
              { constr: 0, fields: [] },
            ],
          });
          await f.reject(f.redeemSpec(KEY, { referenceDatum: noImage }), "reference token carries the CIP-68 metadata");
          const bare = { address: f.metadataScript.address, assets: { [f.policy]: { [t.reference]: 1n } } };
          await f.reject(f.redeemSpec(KEY, { referenceOutput: bare }), "reference token carries the CIP-68 metadata");
        });
      }

      it("accepts the owner's Redeem: node Redeemed, token in the owner's wallet", async () => {
        const before = f.node(KEY).datum;
        const res = await f.redeem(KEY);
        expect(f.node(KEY).datum).to.deep.equal({ ...before, status: "Redeemed" });
        const held = f.p.utxosOf(f.actors.bob).reduce((n, u) => n + f.holds(u, userToken()), 0n);
        expect(held).to.equal(1n);
        expect(res.budgets.map((b) => b.purpose.split(":")[0]).sort()).to.deep.equal(["mint", "spend"]);
        if (tokens.mode === "cip68") {
          const ref = f.referenceUtxo(KEY);
          expect(f.holds(ref, tokens.reference)).to.equal(1n);
          expect(decodeCip68Datum(dataFromCborHex(ref.datum!)).metadata).to.deep.equal(f.metadataFor(KEY));
        }
      });

      it("rejects a second Redeem of the same node", async () => {
        await f.reject(f.redeemSpec(KEY), "node is not redeemed yet");
      });

      if (mode === "cip68") {
        describe("the metadata script", () => {
          const renamed = () => dataToCborHex(encodeCip68Datum({ ...f.metadataFor(KEY), name: "Diploma (corrected)" }));

          it("rejects an update not signed by the list's deployer", async () => {
            await f.reject(
              f.updateMetadataSpec(f.referenceUtxo(KEY), { signer: f.actors.bob, datum: renamed() }),
              "the list's deployer signed",
            );
          });

          it("rejects an update without the list's HEAD as a reference input", async () => {
            await f.reject(
              f.updateMetadataSpec(f.referenceUtxo(KEY), { datum: renamed(), headRef: false }),
              "the list's HEAD is a reference input",
            );
          });

          it("rejects moving the reference token away from the script", async () => {
            await f.reject(
              f.updateMetadataSpec(f.referenceUtxo(KEY), { output: { address: f.actors.alice.address } }),
              "reference token stays at the metadata script",
            );
          });

          it("rejects a datum that is not CIP-68 metadata of the same certificate", async () => {
            const other = dataToCborHex(encodeCip68Datum({ ...f.metadataFor(KEY), certificateHash: OTHER }));
            await f.reject(
              f.updateMetadataSpec(f.referenceUtxo(KEY), { datum: other }),
              "new datum is CIP-68 metadata of the same certificate",
            );
            await f.reject(
              f.updateMetadataSpec(f.referenceUtxo(KEY), { datum: "d87980" }),
              "new datum is CIP-68 metadata of the same certificate",
            );
          });

          it("rejects spending an output that holds no reference token (ADA sent to the script stays there)", async () => {
            const { alice } = f.actors;
            const datum = dataToCborHex(encodeCip68Datum(f.metadataFor(KEY)));
            await f.p.chain.submit(
              {
                utxos: f.p.utxosOf(alice),
                changeAddress: alice.address,
                outputs: [{ address: f.metadataScript.address, lovelace: 3_000_000n, inlineDatum: datum }],
              },
              [alice],
            );
            const junk = f.metadataUtxos().find((u) => Object.keys(u.value).length === 1)!;
            await f.reject(f.updateMetadataSpec(junk), "spent output holds one reference token");
          });

          it("accepts the deployer's update of the metadata", async () => {
            await f.accept(f.updateMetadataSpec(f.referenceUtxo(KEY), { datum: renamed() }));
            expect(decodeCip68Datum(dataFromCborHex(f.referenceUtxo(KEY).datum!)).metadata.name).to.equal("Diploma (corrected)");
          });
        });
      }
    });
  }
}
