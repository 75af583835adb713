/**
 * Round trips of every datum and redeemer codec through CBOR (CSL PlutusData), the exact Plutus layouts the
 * validators expect, and the typed errors for malformed data.
 */
import { expect } from "chai";
import fc from "fast-check";
import {
  type BootstrapDatum,
  type Data,
  type ProxyDatum,
  type ProtocolError,
  type StateDatum,
  type StateRedeemer,
  STATE_PURPOSES,
  bool,
  bytes,
  constr,
  dataFromCborHex,
  dataToCborHex,
  decodeBootstrapDatum,
  decodeCertificate,
  decodeProxyDatum,
  decodeProxyRedeemer,
  decodeStateDatum,
  decodeStateRedeemer,
  encodeBootstrapDatum,
  encodeCertificate,
  encodeProxyDatum,
  encodeProxyRedeemer,
  encodeStateDatum,
  encodeStateRedeemer,
  int,
  list,
  makeCertificate,
} from "../../../shared/protocol";
import { DataHash, KeyHash } from "../../../shared/domain/hex";

const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString("hex"));
const keyHash = hex(28);
const natural = fc.bigInt({ min: 0n, max: 2n ** 64n });
const roundTrip = <T>(value: T, encode: (v: T) => Data, decode: (d: Data) => T): T => decode(dataFromCborHex(dataToCborHex(encode(value))));

const stateDatum: fc.Arbitrary<StateDatum> = fc.record({
  id: hex(32),
  owner: keyHash,
  fee: natural,
  feeInterval: natural,
  feeReceivers: fc.array(keyHash, { maxLength: 4 }),
  ttl: natural,
  countdown: fc.bigInt({ min: -5n, max: 10_000n }),
  certificateDataHash: hex(32),
  batchSize: natural,
  bootstrapDatumName: fc.string({ maxLength: 32 }).map((s) => Buffer.from(s, "utf8").toString("hex")),
  keepAsOracle: fc.boolean(),
});

const bootstrapDatum: fc.Arbitrary<BootstrapDatum> = fc.record({
  allowedCredentials: fc.array(keyHash, { maxLength: 4 }),
  tokenName: hex(8),
  fee: natural,
  feeInterval: natural,
  feeReceivers: fc.array(keyHash, { maxLength: 4 }),
  ttl: natural,
  transactionLimit: natural,
  batchSize: natural,
});

const certificate = fc
  .record({
    hash: hex(32),
    algorithm: fc.constantFrom("SHA-256", "SHA-512", "SHA3-256"),
    issuer: keyHash,
    metadata: fc.string({ maxLength: 300, unit: "grapheme" }),
  })
  .map((c) => makeCertificate({ ...c, hash: DataHash(c.hash), issuer: KeyHash(c.issuer) }));

describe("protocol codecs", () => {
  it("round-trips StateDatum through CBOR", () => {
    fc.assert(
      fc.property(stateDatum, (d) => {
        expect(roundTrip(d, encodeStateDatum, decodeStateDatum)).to.deep.equal(d);
      }),
    );
  });

  it("round-trips BootstrapDatum through CBOR", () => {
    fc.assert(
      fc.property(bootstrapDatum, (d) => {
        expect(roundTrip(d, encodeBootstrapDatum, decodeBootstrapDatum)).to.deep.equal(d);
      }),
    );
  });

  it("round-trips ProxyDatum and ProxyRedeemer", () => {
    fc.assert(
      fc.property(keyHash, keyHash, (scriptPointer, scriptOwner) => {
        const d: ProxyDatum = { scriptPointer, scriptOwner };
        expect(roundTrip(d, encodeProxyDatum, decodeProxyDatum)).to.deep.equal(d);
      }),
    );
    expect(roundTrip("ADMIN" as const, encodeProxyRedeemer, decodeProxyRedeemer)).to.equal("ADMIN");
    expect(roundTrip("USER" as const, encodeProxyRedeemer, decodeProxyRedeemer)).to.equal("USER");
  });

  it("round-trips StateRedeemer with certificates (metadata chunks rejoin)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATE_PURPOSES), fc.array(certificate, { maxLength: 5 }), (purpose, certificates) => {
        const r: StateRedeemer = { purpose, certificates };
        expect(roundTrip(r, encodeStateRedeemer, decodeStateRedeemer)).to.deep.equal(r);
      }),
      { numRuns: 50 },
    );
  });

  it("uses the reference layouts: ADMIN = Constr 0, USER = Constr 1, purposes Constr 0..4, Bool False = Constr 0", () => {
    expect(encodeProxyRedeemer("ADMIN")).to.deep.equal(constr(0));
    expect(encodeProxyRedeemer("USER")).to.deep.equal(constr(1));
    expect(STATE_PURPOSES).to.deep.equal(["BURN_BOOTSTRAP", "BURN_STATE", "UPDATE_STATE", "MINT_STATE", "MINT_BOOTSTRAP"]);
    expect(encodeStateRedeemer({ purpose: "MINT_STATE", certificates: [] })).to.deep.equal(constr(0, [constr(3), list([])]));
    expect(bool(false)).to.deep.equal(constr(0));
    expect(bool(true)).to.deep.equal(constr(1));
  });

  it("encodes a certificate as Constr 0 [hash, utf8(algorithm), issuer, [utf8 chunks]]", () => {
    const c = makeCertificate({ hash: DataHash("AB".repeat(32)), algorithm: "SHA-256", issuer: KeyHash("11".repeat(28)), metadata: "hi" });
    expect(encodeCertificate(c)).to.deep.equal(
      constr(0, [bytes("ab".repeat(32)), bytes(Buffer.from("SHA-256").toString("hex")), bytes("11".repeat(28)), list([bytes("6869")])]),
    );
    expect(decodeCertificate(encodeCertificate(c))).to.deep.equal(c);
  });

  it("rejects malformed data with typed errors", () => {
    const cases: [() => unknown, string][] = [
      [() => decodeStateDatum(constr(0, [])), "INVALID_DATUM"],
      [() => decodeStateDatum(constr(1, new Array(11).fill(int(0)))), "INVALID_DATUM"],
      [() => decodeBootstrapDatum(int(1)), "INVALID_DATUM"],
      [() => decodeProxyDatum(constr(0, [bytes("00"), bytes("11".repeat(28))])), "INVALID_FIELD"],
      [() => decodeProxyRedeemer(constr(2)), "INVALID_REDEEMER"],
      [() => decodeStateRedeemer(constr(0, [constr(7), list([])])), "INVALID_REDEEMER"],
      [() => decodeStateDatum(constr(0, [...fieldsOf(encodeStateDatum(sampleState())).slice(0, 10), constr(2)])), "INVALID_FIELD"],
      [() => dataFromCborHex("zz"), "INVALID_PLUTUS_DATA"],
      [() => dataFromCborHex("ff"), "INVALID_PLUTUS_DATA"],
    ];
    for (const [run, type] of cases) {
      let caught: unknown;
      try {
        run();
      } catch (err) {
        caught = err;
      }
      expect(caught, type).to.be.instanceOf(Error);
      expect((caught as ProtocolError).type, String((caught as Error).message)).to.equal(type);
    }
  });
});

function fieldsOf(d: Data): readonly Data[] {
  if (!("constr" in d)) throw new Error("not a constructor");
  return d.fields;
}

function sampleState(): StateDatum {
  return {
    id: "00".repeat(32),
    owner: "11".repeat(28),
    fee: 1n,
    feeInterval: 1n,
    feeReceivers: [],
    ttl: 1n,
    countdown: 1n,
    certificateDataHash: "22".repeat(32),
    batchSize: 1n,
    bootstrapDatumName: "",
    keepAsOracle: false,
  };
}
