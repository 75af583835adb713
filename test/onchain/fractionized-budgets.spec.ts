/**
 * Execution budgets and sizes of the fractionized list's paths (shipped build): Init, Insert after a middle
 * node, Insert after the HEAD and Claim, each with the anchoring state transaction in the same transaction,
 * stay well inside the per-transaction limits.
 */
import { expect } from "chai";
import { measureFractionizedPaths } from "../../fixtures/onchain/fractionized-figures";

describe("fractionized list budgets and sizes (shipped build)", function () {
  this.timeout(120_000);

  it("keeps Init, both Inserts and Claim under a quarter of the per-transaction limits", async () => {
    const fig = await measureFractionizedPaths();
    for (const [name, p] of Object.entries(fig.paths)) {
      expect(p.memoryPercentOfTxMax, `${name}: memory %`).to.be.below(25);
      expect(p.cpuPercentOfTxMax, `${name}: cpu %`).to.be.below(25);
      expect(p.txBytes, `${name}: tx size`).to.be.below(fig.maxTx.bytes / 4);
    }
    expect(fig.paths.Claim.perScript.map((b) => b.purpose.split(":")[0]).sort()).to.deep.equal(["mint", "spend"]);
    expect(fig.scriptBytes).to.be.below(fig.maxTx.bytes / 2);
  });
});
