import { expect } from "chai";
import { costPer100, feeOutputs, isCheaper, isFeeDue } from "../../../shared/domain/fee-rule";

const ADA = 1_000_000n;
const terms = { fee: 2n * ADA, feeInterval: 3n, feeReceivers: ["aa".repeat(28), "bb".repeat(28)] };

describe("fee rule", () => {
  it("follows the reference's worked example: limit 15, interval 3 → fee on the fork and every third update", () => {
    // The fork spends the bootstrap (countdown = transactionLimit = 15), then updates spend 14, 13, 12, …
    const due = [15n, 14n, 13n, 12n, 11n, 10n, 9n, 8n, 7n, 6n, 5n, 4n, 3n, 2n, 1n].filter((c) => isFeeDue(terms, c));
    expect(due).to.deep.equal([15n, 12n, 9n, 6n, 3n]);
  });

  it("never charges when the fee or the interval is zero", () => {
    expect(isFeeDue({ ...terms, fee: 0n }, 3n)).to.equal(false);
    expect(isFeeDue({ ...terms, feeInterval: 0n }, 3n)).to.equal(false);
  });

  it("splits a due fee evenly by integer division, one output per receiver", () => {
    const outs = feeOutputs({ ...terms, fee: 3_000_001n }, 3n);
    expect(outs).to.deep.equal([
      { keyHash: "aa".repeat(28), lovelace: 1_500_000n },
      { keyHash: "bb".repeat(28), lovelace: 1_500_000n },
    ]);
    expect(feeOutputs(terms, 2n)).to.deep.equal([]);
  });

  it("compares bootstraps by lovelace per 100 transactions, exactly", () => {
    const a = costPer100({ fee: 2n * ADA, feeInterval: 3n }); // 66.67 ADA
    const b = costPer100({ fee: 1n * ADA, feeInterval: 1n }); // 100 ADA
    expect(isCheaper(a, b)).to.equal(true);
    expect(isCheaper(b, a)).to.equal(false);
    expect(isCheaper(a, a)).to.equal(false);
    expect(isCheaper(costPer100({ fee: 0n, feeInterval: 5n }), a)).to.equal(true);
  });
});
