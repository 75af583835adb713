/** The benchmark report (bench/run.ts): ratios found in results, compared with the baseline, regressions flagged. */
import { expect } from "chai";
import { compare, formatReport, ratiosOf, regressed } from "../../bench/run";

describe("benchmark report", () => {
  const result = {
    figures: { reqPerSec: 5000 },
    ratios: { toCeiling: { value: 0.5, target: 0.9, figure: "5,000 req/s", reference: "10,000 req/s" } },
    nested: { ratios: { p99: { value: 1.5, target: 2, lowerIsBetter: true } } },
  };

  it("collects every ratio of a result, nested ones too, named by area", () => {
    expect(Object.keys(ratiosOf("read-path", result)).sort()).to.deep.equal(["read-path.nested.p99", "read-path.toCeiling"]);
  });

  it("flags a ratio worse than its baseline by more than 10 %, in the direction that is worse", () => {
    expect(regressed(0.89, 1)).to.equal(true);
    expect(regressed(0.91, 1)).to.equal(false);
    expect(regressed(2, 1)).to.equal(false);
    expect(regressed(1.11, 1, true)).to.equal(true);
    expect(regressed(1.09, 1, true)).to.equal(false);
    expect(regressed(0.5, 1, true)).to.equal(false);
  });

  it("compares with the baseline: new, ok or regressed, and whether the target is met", () => {
    const lines = compare(ratiosOf("read-path", result), {
      "read-path.toCeiling": { value: 0.6 },
      "read-path.nested.p99": { value: 1.6, lowerIsBetter: true },
    });
    expect(lines.map((l) => [l.name, l.status, l.meetsTarget])).to.deep.equal([
      ["read-path.toCeiling", "REGRESSED", false],
      ["read-path.nested.p99", "ok", true],
    ]);
    expect(compare(ratiosOf("read-path", result), {})[0]!.status).to.equal("new");
    const text = formatReport(lines);
    expect(text)
      .to.include("read-path.toCeiling")
      .and.include("0.50")
      .and.include("≥ 0.9 (missed)")
      .and.include("5,000 req/s / 10,000 req/s");
  });
});
