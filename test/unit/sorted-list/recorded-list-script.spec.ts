/**
 * Builds for a recorded list use the extension's current script with the list's init output reference applied.
 * A list whose policy is another version's (here: the trace build of the same validator, a different script for the
 * same init UTxO) is refused by name instead of being built with a script that cannot spend its entries.
 */
import { expect } from "chai";
import { FractionizedError, FractionizedScripts, refuseFractionized } from "../../../shared/extensions/fractionized";
import { TRACE_BLUEPRINT_PATH, loadBlueprint } from "../../../shared/protocol";
import { deriveFractionizedScript } from "../../../shared/extensions/fractionized/scripts";
import { recordedListScript } from "../../../shared/extensions/list-kit/list-build";

describe("the script of a recorded list", () => {
  const scripts = new FractionizedScripts(0);
  const initRef = { txHash: "ab".repeat(32), index: 1 };

  it("is the current script applied to the list's init UTxO", () => {
    const current = scripts.of(initRef);
    expect(recordedListScript(refuseFractionized, scripts, { policyId: current.policyId, initRef })).to.equal(current);
  });

  it("refuses a list made by another version of the script (INVALID_FIELD naming the list)", () => {
    const other = deriveFractionizedScript(loadBlueprint(TRACE_BLUEPRINT_PATH), initRef, 0);
    expect(other.policyId).to.not.equal(scripts.of(initRef).policyId);
    let caught: unknown;
    try {
      recordedListScript(refuseFractionized, scripts, { policyId: other.policyId, initRef });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(FractionizedError);
    const err = caught as FractionizedError;
    expect(err.type).to.equal("INVALID_FIELD");
    expect(err.data).to.deep.equal({ field: "policyId", policyId: other.policyId });
    expect(err.message).to.include("earlier version").and.include("create a new list");
  });
});
