/** The signals that stop an abandoned call's work (shared/mesh/request-signals.ts): the gateway's word, or time. */
import { expect } from "chai";
import { once } from "node:events";
import { RequestSignals } from "../../../shared/mesh/request-signals";

const reasonOf = (signal: AbortSignal) => signal.reason as { type?: string; data?: { why?: string } };

describe("mesh: request signals", function () {
  it("aborts the calls of a request the gateway announces gone, and only those", () => {
    const signals = new RequestSignals();
    const a = signals.enter("req-a", undefined);
    const b = signals.enter("req-b", undefined);
    signals.markGone("req-a");
    expect(a.signal.aborted).to.equal(true);
    expect(reasonOf(a.signal)).to.deep.include({ type: "REQUEST_ABANDONED", data: { why: "client gone" } });
    expect(b.signal.aborted).to.equal(false);
    a.done();
    b.done();
    expect(signals.openCalls).to.equal(0);
  });

  it("aborts a call whose announcement arrived before it started", () => {
    const signals = new RequestSignals();
    signals.markGone("early");
    expect(signals.enter("early", undefined).signal.aborted).to.equal(true);
  });

  it("aborts a call once its timeout has passed: its caller has answered 504 and stopped waiting", async () => {
    const signals = new RequestSignals();
    const call = signals.enter(undefined, 20);
    expect(call.signal.aborted).to.equal(false);
    await once(call.signal, "abort");
    expect(reasonOf(call.signal)).to.deep.include({ type: "REQUEST_ABANDONED", data: { why: "timed out" } });
    call.done();
  });

  it("remembers a bounded number of gone requests", () => {
    const signals = new RequestSignals();
    for (let i = 0; i < 5000; i++) signals.markGone(`r${i}`);
    expect(signals.enter("r0", undefined).signal.aborted, "long forgotten").to.equal(false);
    expect(signals.enter("r4999", undefined).signal.aborted).to.equal(true);
  });
});
