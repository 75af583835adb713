/**
 * Execution budgets and sizes of the main paths (shipped build) stay well inside the per-transaction limits.
 * Target from issue #3: an update with 10 certificates uses under 25 % of the max transaction memory.
 */
import { expect } from "chai";
import { ProtocolFixture, certificatesFor, defaultBootstrap } from "./support/protocol-fixture";
import type { Budget } from "./support/test-chain";

const total = (bs: readonly Budget[]) => bs.reduce((a, b) => ({ memory: a.memory + b.memory, cpu: a.cpu + b.cpu }), { memory: 0, cpu: 0 });

describe("script budgets and sizes (shipped build)", function () {
  this.timeout(120_000);

  it("keeps the main paths well inside the per-transaction limits", async () => {
    const f = await ProtocolFixture.create("shipped");
    const pp = f.chain.devnet.protocolParameters();
    const max = pp.maxExecutionUnitsPerTransaction;
    const maxSize = pp.maxTransactionSize?.bytes ?? 16_384;
    if (!max) throw new Error("the devnet reports no per-transaction execution limit");
    await f.mintBootstrap(defaultBootstrap(f.actors));
    const forked = await f.mintState(f.actors.alice, certificatesFor(f.actors.alice, 10));
    const once = await f.update(forked, f.actors.alice, certificatesFor(f.actors.alice, 10));
    const twice = await f.update(once.state, f.actors.alice, certificatesFor(f.actors.alice, 10));
    const thrice = await f.update(twice.state, f.actors.alice, certificatesFor(f.actors.alice, 10)); // 9 % 3 == 0: fee due
    expect(twice.state.datum.countdown).to.equal(9n);

    for (const [name, run] of [
      ["fork with 10 certificates", { budgets: forked.budgets, size: forked.size }],
      ["update with 10 certificates", once],
      ["update with 10 certificates", twice],
      ["update with 10 certificates and the fee", thrice],
    ] as const) {
      const t = total(run.budgets);
      expect(t.memory, `${name}: memory`).to.be.below(Number(max.memory) * 0.25);
      expect(t.cpu, `${name}: cpu`).to.be.below(Number(max.cpu) * 0.25);
      expect(run.size, `${name}: tx size`).to.be.below(maxSize / 2);
    }
    for (const s of [f.scripts.proxy, f.scripts.state, f.scripts.library]) expect(s.size).to.be.below(maxSize / 2);
  });
});
