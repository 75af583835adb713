/**
 * GET /library/deployments over a deployed protocol (reference scripts placed by the on-chain fixture): entries
 * from the indexer, kept only while unspent on chain, active when they carry the current proxy or state script.
 */
import { expect } from "chai";
import { http, pollUntil } from "../../fixtures/mesh/helpers";
import type { ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import { defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import type { RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";

interface Deployments {
  address: string;
  entries: Array<{ transactionHash: string; outputIndex: number; scriptHash: string; isActiveContract: boolean }>;
  stakeRegistered: boolean;
}

describe("library: GET /library/deployments", function () {
  this.timeout(120_000);
  let f: ProtocolFixture;
  let mesh: RunningMesh;
  let world: DeployedMesh;

  before(async () => {
    world = await startDeployedMesh({ services: ["gateway", "indexer", "library"], bootstrap: false });
    ({ f, mesh } = world);
  });
  after(() => world?.close());

  const deployments = () =>
    pollUntil(async () => {
      const res = await http(`${mesh.api}/library/deployments`);
      const body = res.json as Deployments;
      return res.status === 200 && body.entries.length === 2 ? body : undefined;
    }, "both library entries indexed");

  it("lists the proxy and state reference scripts as active, at the library address", async () => {
    const body = await deployments();
    expect(body.address).to.equal(f.scripts.library.address);
    const byHash = Object.fromEntries(body.entries.map((e) => [e.scriptHash, e]));
    expect(Object.keys(byHash).sort()).to.deep.equal([f.scripts.proxy.hash, f.scripts.state.hash].sort());
    expect(byHash[f.scripts.state.hash]).to.include({
      transactionHash: f.stateRef.transaction.id,
      outputIndex: f.stateRef.index,
      isActiveContract: true,
    });
    expect(byHash[f.scripts.proxy.hash]).to.include({
      transactionHash: f.proxyRef.transaction.id,
      outputIndex: f.proxyRef.index,
      isActiveContract: true,
    });
    // registration is only evidenced once a protocol transaction withdrew from the state script's account
    expect(body.stakeRegistered).to.equal(false);
  });

  it("reports the state script's stake credential registered once a bootstrap (withdraw-zero) is on chain", async () => {
    await f.mintBootstrap(defaultBootstrap(f.actors));
    const body = await pollUntil(async () => {
      const b = (await http(`${mesh.api}/library/deployments`)).json as Deployments;
      return b.stakeRegistered ? b : undefined;
    }, "stakeRegistered");
    expect(body.entries).to.have.length(2);
  });
});
