import { expect } from "chai";
import { run } from "../../../scripts/protocol-scripts";
import { deriveProtocolScripts, loadBlueprint, scriptHashOf } from "../../../shared/protocol";

describe("scripts/protocol-scripts.ts: the configured deployment's scripts", () => {
  const txHash = "ab".repeat(32);
  const service = "cd".repeat(28);
  const admin = "ef".repeat(28);

  it("prints the state script this version derives, with the applied code the upgrade route takes", () => {
    const out = run({ PROXY_TX_HASH: txHash, PROXY_OUTPUT_INDEX: "2", SERVICE_KEY_HASH: service, BOOTSTRAP_ADMINS: admin });
    const expected = deriveProtocolScripts(loadBlueprint(), {
      proxyOneShot: { txHash, index: 2 },
      bootstrapAdministrators: [admin],
      libraryAdministrator: service,
      networkId: 0,
    });
    expect(out.network).to.equal("devnet");
    expect(out.proxy).to.deep.equal({ hash: expected.proxy.hash, address: expected.proxy.address });
    expect(out.state).to.deep.equal({
      hash: expected.state.hash,
      rewardAddress: expected.state.rewardAddress,
      size: expected.state.size,
      code: expected.state.code,
    });
    expect(scriptHashOf(out.state.code)).to.equal(out.state.hash);
  });

  it("refuses to run without a configured deployment", () => {
    expect(() => run({})).to.throw(/PROXY_TX_HASH/);
  });
});
