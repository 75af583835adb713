/**
 * Execution budgets and sizes of the tokenizable list's paths (shipped build): Init, Insert after a middle node,
 * Insert after the HEAD (each with the anchoring state transaction), Redeem in both modes and the CIP-68
 * metadata update stay well inside the per-transaction limits. Prints the figures per path.
 */
import { expect } from "chai";
import { measureTokenizablePaths } from "../../fixtures/onchain/tokenizable-figures";

describe("tokenizable list budgets and sizes (shipped build)", function () {
  this.timeout(180_000);

  it("keeps every path under a quarter of the per-transaction limits", async () => {
    const fig = await measureTokenizablePaths();
    for (const [name, p] of Object.entries(fig.paths)) {
      console.log(
        `      ${name.padEnd(28)} mem ${p.totalMemory} (${p.memoryPercentOfTxMax} %)  cpu ${p.totalCpu} (${p.cpuPercentOfTxMax} %)  ${p.txBytes} bytes`,
      );
      for (const b of p.perScript) console.log(`        ${b.purpose.padEnd(26)} mem ${b.memory}  cpu ${b.cpu}`);
      expect(p.memoryPercentOfTxMax, `${name}: memory %`).to.be.below(25);
      expect(p.cpuPercentOfTxMax, `${name}: cpu %`).to.be.below(25);
      expect(p.txBytes, `${name}: tx size`).to.be.below(fig.maxTx.bytes / 4);
    }
    console.log(`      list script ${fig.scriptBytes} bytes, metadata script ${fig.metadataScriptBytes} bytes (applied)`);
    expect(fig.paths["Redeem (CIP-68)"].perScript.map((b) => b.purpose.split(":")[0]).sort()).to.deep.equal(["mint", "spend"]);
    expect(fig.paths["Metadata update (CIP-68)"].perScript.map((b) => b.purpose.split(":")[0])).to.deep.equal(["spend"]);
    expect(fig.scriptBytes).to.be.below(fig.maxTx.bytes / 2);
  });
});
