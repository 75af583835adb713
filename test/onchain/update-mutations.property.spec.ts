/**
 * Property: every random single mutation of a valid UPDATE_STATE transaction (datum fields, countdown, fee
 * outputs, signers, certificates, validity) is rejected in phase 2, while the unmutated one is accepted.
 * Runs against the shipped build.
 */
import { expect } from "chai";
import fc from "fast-check";
import type { OutputSpec } from "../../shared/csl/outputs";
import { enterpriseAddressOfKeyHash } from "../../shared/csl/address";
import { certificateDataHash, type OnchainCertificate, type StateDatum } from "../../shared/protocol";
import { ProtocolFixture, certificatesFor, defaultBootstrap, type StateUtxo } from "../../fixtures/onchain/protocol-fixture";

type Mutation =
  | { kind: "datum"; field: keyof StateDatum; value: unknown }
  | { kind: "countdown"; delta: bigint }
  | { kind: "fee"; receiver: 0 | 1; delta: bigint }
  | { kind: "feeTo"; receiver: 0 | 1; keyHash: string }
  | { kind: "dropFee"; receiver: 0 | 1 }
  | { kind: "unsignedOwner" }
  | { kind: "unsignedIssuer" }
  | { kind: "certificate"; index: number; byte: number }
  | { kind: "ttl"; slotsPast: number };

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));
const nonZero = fc.bigInt({ min: -5_000n, max: 5_000n }).filter((d) => d !== 0n);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("datum" as const), field: fc.constant("id" as const), value: hex(32) }),
  fc.record({ kind: fc.constant("datum" as const), field: fc.constant("owner" as const), value: hex(28) }),
  fc.record({
    kind: fc.constant("datum" as const),
    field: fc.constantFrom("fee" as const, "feeInterval" as const, "ttl" as const, "batchSize" as const),
    value: fc.bigInt({ min: 0n, max: 10n ** 13n }),
  }),
  fc.record({ kind: fc.constant("datum" as const), field: fc.constant("certificateDataHash" as const), value: hex(32) }),
  fc.record({ kind: fc.constant("datum" as const), field: fc.constant("bootstrapDatumName" as const), value: hex(6) }),
  fc.record({
    kind: fc.constant("datum" as const),
    field: fc.constant("feeReceivers" as const),
    value: fc.array(hex(28), { maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant("datum" as const), field: fc.constant("keepAsOracle" as const), value: fc.constant(true) }),
  fc.record({ kind: fc.constant("countdown" as const), delta: nonZero }),
  fc.record({ kind: fc.constant("fee" as const), receiver: fc.constantFrom(0 as const, 1 as const), delta: nonZero }),
  fc.record({ kind: fc.constant("feeTo" as const), receiver: fc.constantFrom(0 as const, 1 as const), keyHash: hex(28) }),
  fc.record({ kind: fc.constant("dropFee" as const), receiver: fc.constantFrom(0 as const, 1 as const) }),
  fc.constant({ kind: "unsignedOwner" as const }),
  fc.constant({ kind: "unsignedIssuer" as const }),
  fc.record({ kind: fc.constant("certificate" as const), index: fc.nat({ max: 2 }), byte: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant("ttl" as const), slotsPast: fc.integer({ min: 1, max: 100_000 }) }),
);

describe("property: mutated UPDATE_STATE transactions are rejected (shipped build)", function () {
  this.timeout(300_000);
  let f: ProtocolFixture;
  let state: StateUtxo;

  before(async () => {
    f = await ProtocolFixture.create("shipped");
    await f.mintBootstrap(defaultBootstrap(f.actors));
    const forked = await f.mintState(f.actors.alice);
    const once = await f.update(forked, f.actors.alice);
    state = (await f.update(once.state, f.actors.alice)).state; // countdown 9: the next update owes the fee
  });

  function specFor(m: Mutation | undefined) {
    const { alice, issuer, feeA, feeB } = f.actors;
    const certificates: OnchainCertificate[] = [...certificatesFor(alice, 1), ...certificatesFor(issuer, 2)];
    const fees: OutputSpec[] = f.feeOutputs(state.datum, [feeA, feeB]);
    let signers = [alice.paymentKeyHash, issuer.paymentKeyHash];
    let datum = (d: StateDatum): StateDatum => d;
    let validity: { ttlSlot?: number } = {};
    let sent = certificates;
    switch (m?.kind) {
      case "datum":
        datum = (d) => ({ ...d, [m.field]: m.value });
        break;
      case "countdown":
        datum = (d) => ({ ...d, countdown: d.countdown + m.delta });
        break;
      case "fee":
        fees[m.receiver] = { ...fees[m.receiver]!, lovelace: fees[m.receiver]!.lovelace! + m.delta };
        break;
      case "feeTo":
        fees[m.receiver] = { ...fees[m.receiver]!, address: enterpriseAddressOfKeyHash(m.keyHash, 0) };
        break;
      case "dropFee":
        fees.splice(m.receiver, 1);
        break;
      case "unsignedOwner":
        signers = [issuer.paymentKeyHash];
        break;
      case "unsignedIssuer":
        signers = [alice.paymentKeyHash];
        break;
      case "certificate": {
        // the datum commits to the original certificates; the redeemer carries a changed one
        const c = certificates[m.index]!;
        const flipped = (parseInt(c.hash.slice(0, 2), 16) ^ m.byte).toString(16).padStart(2, "0") + c.hash.slice(2);
        sent = certificates.map((x, i) => (i === m.index ? { ...x, hash: flipped } : x));
        datum = (d) => ({ ...d, certificateDataHash: certificateDataHash(certificates) });
        break;
      }
      case "ttl":
        validity = { ttlSlot: Number((state.datum.ttl - BigInt(f.chain.slotToPosixMs(0))) / 1000n) + m.slotsPast };
        break;
      case undefined:
        break;
    }
    return f.updateSpec(state, alice, {
      certificates: sent,
      datum,
      signers,
      feeOutputs: fees,
      validity,
      stateOutput: { lovelace: 3_000_000n },
    });
  }

  it("accepts the unmutated transaction (control)", async () => {
    const spec = specFor(undefined);
    const { cborHex } = await f.chain.buildSigned(spec, f.signersOf(spec, f.actors.alice));
    const budgets = await f.chain.devnet.evaluateTransaction(cborHex);
    expect(budgets).to.have.length(2);
  });

  it("rejects every single random mutation", async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        // a "mutation" that happens to rewrite a field with its current value is no mutation
        fc.pre(m.kind !== "datum" || JSON.stringify(state.datum[m.field], big) !== JSON.stringify(m.value, big));
        const spec = specFor(m);
        await f.chain.expectPhase2Rejection(spec, f.signersOf(spec, f.actors.alice));
      }),
      { numRuns: 30 },
    );
  });
});

const big = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);
