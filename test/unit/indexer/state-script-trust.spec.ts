/** Which state scripts the indexer trusts at which slot: the configured one, then whatever the pointer names. */
import { expect } from "chai";
import { StateScriptTrust } from "../../../shared/indexer/state-script-trust";

describe("indexer: state-script trust periods", () => {
  const [A, B, C] = ["aa".repeat(28), "bb".repeat(28), "cc".repeat(28)];

  it("trusts the configured script from the start, and after an upgrade only the new one (the old one up to the upgrade's slot)", () => {
    const trust = new StateScriptTrust([A]);
    trust.pointTo(A, 10); // init names the configured script: nothing changes
    expect([...trust.trustedAt(5)]).to.deep.equal([A]);
    trust.pointTo(B, 100);
    expect([...trust.trustedAt(99)]).to.deep.equal([A]);
    expect([...trust.trustedAt(100)].sort(), "the upgrade's block may carry both").to.deep.equal([A, B]);
    expect([...trust.trustedAt(101)]).to.deep.equal([B]);
    expect([...trust.everTrusted()].sort()).to.deep.equal([A, B]);
  });

  it("never trusts a script the pointer did not name (one the library merely holds)", () => {
    const trust = new StateScriptTrust([A]);
    trust.pointTo(B, 50);
    for (const slot of [0, 50, 1_000]) expect(trust.trustedAt(slot).has(C), `slot ${slot}`).to.equal(false);
  });

  it("forgets changes a rollback removes and reopens the script that was current", () => {
    const trust = new StateScriptTrust([A]);
    trust.pointTo(B, 100);
    trust.pointTo(C, 200);
    trust.rollbackTo(150);
    expect([...trust.trustedAt(300)]).to.deep.equal([B]);
    trust.rollbackTo(40);
    expect([...trust.trustedAt(300)]).to.deep.equal([A]);
  });
});
