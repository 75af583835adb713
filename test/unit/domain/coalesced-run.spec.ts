import { expect } from "chai";
import { CoalescedRun } from "../../../shared/domain/coalesced-run";

describe("coalesced run", () => {
  it("shares a run with the calls made during it, and goes round once more for them", async () => {
    let starts = 0;
    let rounds = 0;
    let release: () => void = () => {};
    const run = new CoalescedRun(async (again) => {
      starts++;
      await again(async () => {
        rounds++;
        if (rounds === 1) await new Promise<void>((resolve) => (release = resolve));
      });
      return rounds;
    });
    const first = run.start();
    await Promise.resolve();
    const second = run.start();
    const third = run.start();
    expect(second).to.equal(first);
    expect(third).to.equal(first);
    release();
    expect(await first).to.equal(2);
    expect([starts, rounds], "one run, two rounds however many calls came in").to.deep.equal([1, 2]);
    expect(await run.start(), "a call after the run starts another").to.equal(3);
    expect(starts).to.equal(2);
  });
});
