import { expect } from "chai";
import { FixedWindowCounter } from "../../../shared/domain/fixed-window-counter";

describe("fixed-window counter", () => {
  let ms = 1_000_000;
  const now = () => ms;

  it("counts an amount per key in a window opened by the key's first count, and starts again after it", () => {
    ms = 1_000_000;
    const counter = new FixedWindowCounter(60_000, now);
    expect(counter.peek("a"), "no window yet").to.deep.equal({ count: 0, resetsInMs: 60_000 });
    expect(counter.add("a", 300)).to.deep.equal({ count: 300, resetsInMs: 60_000 });
    ms += 20_000;
    expect(counter.add("a")).to.deep.equal({ count: 301, resetsInMs: 40_000 });
    expect(counter.peek("a"), "peek counts nothing").to.deep.equal({ count: 301, resetsInMs: 40_000 });
    expect(counter.add("b", 5), "each key has its own window").to.deep.equal({ count: 5, resetsInMs: 60_000 });
    ms += 40_000;
    expect(counter.peek("a"), "ended").to.deep.equal({ count: 0, resetsInMs: 60_000 });
    expect(counter.add("a", 2)).to.deep.equal({ count: 2, resetsInMs: 60_000 });
  });

  it("forgets ended windows at most once a window", () => {
    ms = 1_000_000;
    const counter = new FixedWindowCounter(60_000, now);
    for (let i = 0; i < 100; i++) counter.add(`k${i}`);
    ms += 60_000;
    counter.add("fresh");
    expect(counter.size).to.equal(1);
  });
});
