/**
 * UPDATE_STATE (issue #3): one accepted transaction per rule and one phase-2 rejection per broken condition,
 * against the trace build (asserting the failing rule's name) and the shipped build.
 */
import { expect } from "chai";
import { CSL } from "../../shared/csl/lib";
import {
  certificateDataHash,
  constr,
  dataToCborHex,
  encodeProxyRedeemer,
  encodeStateDatum,
  int,
  makeCertificate,
} from "../../shared/protocol";
import { BUILDS, ProtocolFixture, certificatesFor, defaultBootstrap, type StateUtxo } from "../../fixtures/onchain/protocol-fixture";
import { DataHash } from "../../shared/domain/hex";

const UPDATE_DATUM_RULE = "next datum changes only certificate hash and countdown";

for (const kind of BUILDS) {
  describe(`state script UPDATE_STATE (${kind} build)`, function () {
    this.timeout(120_000);
    let f: ProtocolFixture;
    /** alice's state at countdown 9: the update to 8 owes the fee (9 % 3 == 0). */
    let feeState: StateUtxo;

    before(async () => {
      f = await ProtocolFixture.create(kind);
      await f.mintBootstrap(defaultBootstrap(f.actors));
      const forked = await f.mintState(f.actors.alice);
      const once = await f.update(forked, f.actors.alice);
      feeState = (await f.update(once.state, f.actors.alice)).state;
      expect(feeState.datum.countdown).to.equal(9n);
    });

    it("rejects an update the owner did not sign", async () => {
      const certificates = certificatesFor(f.actors.issuer, 1);
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { certificates, signers: [f.actors.issuer.paymentKeyHash] }),
        f.actors.alice,
        "owner signed",
      );
    });

    it("rejects a fee share short by one lovelace", async () => {
      const [a, b] = f.feeOutputs(feeState.datum);
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { feeOutputs: [{ ...a!, lovelace: a!.lovelace! - 1n }, b!] }),
        f.actors.alice,
        "service fee is paid",
      );
    });

    it("rejects a fee share one lovelace too large (shares are exact)", async () => {
      const [a, b] = f.feeOutputs(feeState.datum);
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { feeOutputs: [a!, { ...b!, lovelace: b!.lovelace! + 1n }] }),
        f.actors.alice,
        "service fee is paid",
      );
    });

    it("rejects a fee paid to the wrong key", async () => {
      const outs = f.feeOutputs(feeState.datum, [f.actors.feeA, f.actors.bob]);
      await f.reject(f.updateSpec(feeState, f.actors.alice, { feeOutputs: outs }), f.actors.alice, "service fee is paid");
    });

    it("rejects a missing fee when it is due", async () => {
      await f.reject(f.updateSpec(feeState, f.actors.alice, { feeOutputs: [] }), f.actors.alice, "service fee is paid");
    });

    it("rejects a countdown that is not decremented", async () => {
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { datum: (d) => ({ ...d, countdown: d.countdown + 1n }) }),
        f.actors.alice,
        UPDATE_DATUM_RULE,
      );
    });

    for (const [field, change] of [
      ["fee", { fee: 0n }],
      ["feeInterval", { feeInterval: 0n }],
      ["owner", { owner: "00".repeat(28) }],
      ["ttl", { ttl: 1_999_999_999_999n }],
      ["batchSize", { batchSize: 100n }],
      ["bootstrapDatumName", { bootstrapDatumName: "6f74686572" }],
      ["keepAsOracle", { keepAsOracle: true }],
      ["feeReceivers", { feeReceivers: [] as string[] }],
    ] as const) {
      it(`rejects a next datum with ${field} changed`, async () => {
        const spec = f.updateSpec(feeState, f.actors.alice, { datum: (d) => ({ ...d, ...change }), stateOutput: { lovelace: 3_000_000n } });
        await f.reject(spec, f.actors.alice, UPDATE_DATUM_RULE);
      });
    }

    it("rejects a next datum with an extra field", async () => {
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, {
          datum: (d) => {
            const enc = encodeStateDatum(d) as { constr: number; fields: ReturnType<typeof int>[] };
            return constr(0, [...enc.fields, int(1)]);
          },
          stateOutput: { lovelace: 3_000_000n },
        }),
        f.actors.alice,
        UPDATE_DATUM_RULE,
      );
    });

    it("rejects a wrong certificate hash", async () => {
      const other = certificatesFor(f.actors.alice, 2);
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { datum: (d) => ({ ...d, certificateDataHash: encodeHashOf(other) }) }),
        f.actors.alice,
        UPDATE_DATUM_RULE,
      );
    });

    it("rejects more certificates than the batch size", async () => {
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { certificates: certificatesFor(f.actors.alice, 11, 20) }),
        f.actors.alice,
        "certificates fit the batch size",
      );
    });

    it("rejects an update without certificates", async () => {
      await f.reject(f.updateSpec(feeState, f.actors.alice, { certificates: [] }), f.actors.alice, "certificates are present");
    });

    it("rejects a certificate whose issuer did not sign", async () => {
      const certificates = certificatesFor(f.actors.issuer, 1);
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { certificates, signers: [f.actors.alice.paymentKeyHash] }),
        f.actors.alice,
        "certificate issuer signed",
      );
    });

    it("rejects a certificate with an empty hash", async () => {
      const certificates = [
        {
          ...makeCertificate({ hash: DataHash("00"), algorithm: "SHA-256", issuer: f.actors.alice.paymentKeyHash, metadata: "" }),
          hash: "",
        },
      ];
      await f.reject(f.updateSpec(feeState, f.actors.alice, { certificates }), f.actors.alice, "certificate hash is not empty");
    });

    it("rejects a validity range that ends after the ttl", async () => {
      const ttlSlot = slotOfTtl(f, feeState) + 1;
      await f.reject(f.updateSpec(feeState, f.actors.alice, { validity: { ttlSlot } }), f.actors.alice, "validity range ends before ttl");
    });

    it("rejects a validity range without an upper bound", async () => {
      const spec = f.updateSpec(feeState, f.actors.alice);
      delete (spec as { ttlSlot?: number }).ttlSlot;
      await f.reject(spec, f.actors.alice, "validity range ends before ttl");
    });

    it("rejects moving the state to another stake credential of the proxy address", async () => {
      const moved = CSL.BaseAddress.new(
        0,
        CSL.Credential.from_scripthash(CSL.ScriptHash.from_hex(f.scripts.proxy.hash)),
        CSL.Credential.from_keyhash(CSL.Ed25519KeyHash.from_hex(f.actors.alice.stakeKeyHash)),
      )
        .to_address()
        .to_bech32();
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { stateOutput: { address: moved, lovelace: 3_000_000n } }),
        f.actors.alice,
        "state output stays at the state address",
      );
    });

    it("rejects a state output without the state token", async () => {
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { stateOutput: { assets: {} } }),
        f.actors.alice,
        "state output holds the state token",
      );
    });

    it("rejects a second output at the proxy address", async () => {
      const extra = { address: f.scripts.proxy.address, lovelace: 2_000_000n, inlineDatum: "d87980" };
      await f.reject(f.updateSpec(feeState, f.actors.alice, { extraOutputs: [extra] }), f.actors.alice, "exactly one state output");
    });

    it("rejects an extra proxy token minted alongside the update", async () => {
      await f.reject(
        f.updateSpec(feeState, f.actors.alice, { mints: [f.proxyMint({ "6e6577": 1n })] }),
        f.actors.alice,
        "no proxy token is minted or burned",
      );
    });

    it("rejects a state spend without the state script's withdrawal (proxy USER rule)", async () => {
      await f.reject(f.updateSpec(feeState, f.actors.alice, { withdraw: false }), f.actors.alice, "state script is withdrawn");
    });

    it("rejects a state spend without the pointer reference input (proxy USER rule)", async () => {
      await f.reject(f.updateSpec(feeState, f.actors.alice, { pointerRef: null }), f.actors.alice, "pointer is a reference input");
    });

    it("rejects an update spending two states of the owner with one state output", async () => {
      const other = await f.mintState(f.actors.alice);
      const spec = f.updateSpec(feeState, f.actors.alice);
      const second = { utxo: other.utxo, script: f.proxyWitness(), redeemer: dataToCborHex(encodeProxyRedeemer("USER")) };
      await f.reject({ ...spec, scriptInputs: [...spec.scriptInputs!, second] }, f.actors.alice, "exactly one state input");
    });

    it("rejects an update spending a token-less copy of the state (the datum copied to a UTxO at the proxy address)", async () => {
      const copy = { utxo: await f.lookalike(f.actors.alice, feeState.utxo.datum!), datum: feeState.datum };
      await f.reject(
        f.updateSpec(copy, f.actors.alice, { stateOutput: { assets: {} } }),
        f.actors.alice,
        "state input holds its state token",
      );
    });

    it("accepts an upper bound exactly at the ttl (exclusive bound)", async () => {
      const ttlSlot = slotOfTtl(f, feeState);
      const spec = f.updateSpec(feeState, f.actors.alice, { validity: { ttlSlot } });
      const { cborHex } = await f.chain.buildSigned(spec, f.signersOf(spec, f.actors.alice));
      const budgets = await f.chain.devnet.evaluateTransaction(cborHex);
      expect(budgets.map((b) => b.validator.purpose).sort()).to.deep.equal(["spend", "withdraw"]);
    });

    it("accepts a valid update paying the due fee, with 10 certificates from another issuer", async () => {
      const certificates = certificatesFor(f.actors.issuer, 10);
      const res = await f.accept(f.updateSpec(feeState, f.actors.alice, { certificates }), f.actors.alice);
      const next = f.findState(feeState.datum.id);
      expect(next.datum.countdown).to.equal(8n);
      expect(res.budgets).to.have.length(2);
    });

    it("rejects an update of an exhausted state (countdown 0)", async () => {
      const short = defaultBootstrap(f.actors, { tokenName: Buffer.from("short").toString("hex"), transactionLimit: 1n, fee: 0n });
      await f.mintBootstrap(short);
      const exhausted = await f.mintState(f.actors.bob, undefined, [f.actors.bob], short.tokenName);
      expect(exhausted.datum.countdown).to.equal(0n);
      await f.reject(f.updateSpec(exhausted, f.actors.bob), f.actors.bob, "state is alive");
    });
  });
}

function slotOfTtl(f: ProtocolFixture, s: StateUtxo): number {
  return Number((s.datum.ttl - BigInt(f.chain.slotToPosixMs(0))) / 1000n);
}

function encodeHashOf(certs: ReturnType<typeof certificatesFor>): string {
  return certificateDataHash(certs);
}
