import { expect } from "chai";
import { describeLedgerRejection, jsonSafe } from "../../shared/chain/ledger-rejection";
import { inFlightExpiresAt } from "../../shared/submission/in-flight-expiry";

describe("submission: ledger rejections as sentences", () => {
  it("names the missing signers of a 3101 and keeps the Ogmios code and reason", () => {
    const r = describeLedgerRejection({
      code: 3101,
      reason: "MissingSignatories",
      message: "submitTransaction: Some signatures are missing.",
      data: { missingSignatories: ["ab".repeat(28)] },
    });
    expect(r.code).to.equal(3101);
    expect(r.reason).to.equal("MissingSignatories");
    expect(r.message).to.match(
      /^The ledger rejected the transaction \(MissingSignatories\): The transaction is missing signatures from key hash\(es\) (ab){28}/,
    );
  });

  it("lists the unknown inputs of a 3117", () => {
    const r = describeLedgerRejection({
      code: 3117,
      reason: "UnknownOutputReferences",
      data: { unknownOutputReferences: [{ transaction: { id: "cd".repeat(32) }, index: 1 }] },
    });
    expect(r.message)
      .to.contain(`${"cd".repeat(32)}#1`)
      .and.to.contain("already spent or never created");
  });

  it("carries the script's trace of a phase-2 failure (3136)", () => {
    const r = describeLedgerRejection({
      code: 3136,
      reason: "SpendsMismatch",
      data: { declaredSpending: "inputs", mismatchReason: "Plutus script validation failed\nmustBeSignedByOwner\nmustBeSignedByOwner" },
    });
    expect(r.message).to.equal(
      "The ledger rejected the transaction (SpendsMismatch): A script rejected the transaction: Plutus script validation failed | mustBeSignedByOwner",
    );
  });

  it("falls back to the ledger's own text for codes without a dedicated sentence", () => {
    const r = describeLedgerRejection({
      code: 3997,
      reason: "UnexpectedMempoolError",
      message: "submitTransaction: The transaction was rejected by the ledger rules.",
      data: { error: "x" },
    });
    expect(r.message).to.equal(
      "The ledger rejected the transaction (UnexpectedMempoolError): The transaction was rejected by the ledger rules.",
    );
  });

  it("makes the Ogmios data JSON-safe (bigint lovelace as decimal strings)", () => {
    const r = describeLedgerRejection({
      code: 3122,
      data: { minimumRequiredFee: { ada: { lovelace: 170000n } }, providedFee: { ada: { lovelace: 10n } } },
    });
    expect(r.message).to.contain("10 lovelace given, at least 170000 required");
    expect(JSON.stringify(r.details)).to.equal(
      '{"minimumRequiredFee":{"ada":{"lovelace":"170000"}},"providedFee":{"ada":{"lovelace":"10"}}}',
    );
    expect(jsonSafe([1n, { a: [2n] }])).to.deep.equal(["1", { a: ["2"] }]);
  });
});

describe("submission: in-flight expiry", () => {
  const slotToTime = (slot: number) => 1_000_000 + slot * 1000;
  it("locks until the validity upper bound plus the margin", () => {
    expect(inFlightExpiresAt(600, slotToTime, 1_100_000, { marginMs: 120_000, maxLifetimeMs: 900_000 })).to.equal(
      1_000_000 + 600_000 + 120_000,
    );
  });
  it("uses the service's cap for a transaction without an upper bound", () => {
    expect(inFlightExpiresAt(null, slotToTime, 5_000, { marginMs: 1, maxLifetimeMs: 900_000 })).to.equal(905_000);
  });
  it("caps the lifetime whatever upper bound the caller picked (a bound hours away)", () => {
    expect(inFlightExpiresAt(10_000_000, slotToTime, 5_000, { marginMs: 120_000, maxLifetimeMs: 600_000 })).to.equal(605_000);
  });
  it("never expires before now + margin, even when the bound has passed", () => {
    expect(inFlightExpiresAt(1, slotToTime, 9_000_000, { marginMs: 60_000, maxLifetimeMs: 600_000 })).to.equal(9_060_000);
  });
});
