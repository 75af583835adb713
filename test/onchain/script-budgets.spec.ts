/**
 * Execution budgets and sizes of the main paths (shipped build) stay well inside the per-transaction limits.
 * Target from issue #3: an update with 10 certificates uses under 25 % of the max transaction memory.
 */
import { expect } from "chai";
import { ProtocolFixture, certificatesFor, defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import { totalBudget, txLimitsOf } from "../../fixtures/onchain/path-figures";

describe("script budgets and sizes (shipped build)", function () {
  this.timeout(120_000);

  it("keeps the main paths well inside the per-transaction limits", async () => {
    const f = await ProtocolFixture.create("shipped");
    const max = txLimitsOf(f.chain);
    const boot = await f.chain.submit(f.mintBootstrapSpec(defaultBootstrap(f.actors)), [f.actors.service]);
    const forked = await f.mintState(f.actors.alice, certificatesFor(f.actors.alice, 10));
    const once = await f.update(forked, f.actors.alice, certificatesFor(f.actors.alice, 10));
    const twice = await f.update(once.state, f.actors.alice, certificatesFor(f.actors.alice, 10));
    const thrice = await f.update(twice.state, f.actors.alice, certificatesFor(f.actors.alice, 10)); // 9 % 3 == 0: fee due
    expect(twice.state.datum.countdown).to.equal(9n);
    const burnBoot = await f.chain.submit(f.burnBootstrapSpec(), [f.actors.service]);

    for (const [name, run] of [
      ["bootstrap mint (fee terms checked)", boot],
      ["bootstrap burn", burnBoot],
      ["fork with 10 certificates", { budgets: forked.budgets, size: forked.size }],
      ["update with 10 certificates", once],
      ["update with 10 certificates", twice],
      ["update with 10 certificates and the fee", thrice],
    ] as const) {
      const t = totalBudget(run.budgets);
      expect(t.memory, `${name}: memory`).to.be.below(max.memory * 0.25);
      expect(t.cpu, `${name}: cpu`).to.be.below(max.cpu * 0.25);
      expect(run.size, `${name}: tx size`).to.be.below(max.bytes / 2);
    }
    for (const s of [f.scripts.proxy, f.scripts.state, f.scripts.library]) expect(s.size).to.be.below(max.bytes / 2);
  });
});
